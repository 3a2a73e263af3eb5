// What the shipped playbooks share about the Kubernetes cluster: the control host where kubectl runs,
// and the pod CIDRs the cluster allocated to the Windows nodes (their pod gateways are the ToR VIPs).
// Pure, except that values come from inventory vars and kubectl's output.
import type { HostView } from '../../runner/index.js';

/** The cluster's masters: where kubectl runs (its path in the host var `kubectl`). */
export const CONTROL_GROUP = 'control';
/** The Windows nodes: each gets a pod gateway VIP on the ToR hosts. */
export const WINDOWS_GROUP = 'windows';

export { kubectlOf } from '../../runner/index.js';

/** `kubectl get nodes -o json`: every node of the cluster with its pod CIDR. */
export const GET_NODES_ARGS: readonly string[] = Object.freeze(['get', 'nodes', '-o', 'json']);

/** Pod CIDRs by node name from `kubectl get nodes -o json` (nodes without one are left out). */
export function clusterPodCidrs(json: string): Record<string, string> {
  let list: { items?: { metadata?: { name?: unknown }; spec?: { podCIDR?: unknown } }[] };
  try {
    list = JSON.parse(json);
  } catch {
    throw new Error(`kubectl get nodes -o json did not return JSON: ${json.slice(0, 200)}`);
  }
  const out: Record<string, string> = {};
  for (const item of list.items ?? []) {
    const name = item.metadata?.name,
      cidr = item.spec?.podCIDR;
    if (typeof name === 'string' && typeof cidr === 'string' && cidr !== '') out[name] = cidr;
  }
  return out;
}

/** The pod CIDRs of the inventory's Windows nodes that the cluster knows (Kubernetes names are lower case). */
export function windowsNodeCidrs(inventory: readonly HostView[], getNodesJson: string): Record<string, string> {
  const inCluster = clusterPodCidrs(getNodesJson);
  const cidrs: Record<string, string> = {};
  for (const h of inventory) {
    const cidr = inCluster[h.name.toLowerCase()];
    if (h.groups.includes(WINDOWS_GROUP) && cidr !== undefined) cidrs[h.name] = cidr;
  }
  return cidrs;
}
