// The pod CIDRs the tor hosts serve during an onboarding: every Windows node the cluster knows, read
// on a master, plus this run's registrations. Pure: computed from task outputs and the inventory.
import { InputError } from '../../runner/core/errors.js';
import type { TaskContext } from '../../runner/playbook/define.js';
import { UnknownOutput } from '../../runner/run/context.js';
import type { KubectlNodeRegisteredOutputs, KubectlValueOutputs } from '../../tasks/linux/index.js';
import { NODE_GROUP, torGatewayConfig } from '../tor-gateway.js';

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
    const name = item.metadata?.name, cidr = item.spec?.podCIDR;
    if (typeof name === 'string' && typeof cidr === 'string' && cidr !== '') out[name] = cidr;
  }
  return out;
}

/**
 * The pod CIDRs the tor hosts must serve: every Windows node of the inventory that the cluster knows
 * (read on the control host after this node registered, so onboarding one node never drops the VIP
 * of a node onboarded earlier), and the nodes registered in this run as far as already known. Whichever
 * node's config is written last on a tor host has seen every registration of the run before it.
 */
export function registeredPodCidrs(ctx: TaskContext<'register' | 'clusterNodes'>): Record<string, string> {
  const inCluster = clusterPodCidrs(ctx.output<KubectlValueOutputs>('clusterNodes').value);
  const cidrs: Record<string, string> = {};
  for (const h of ctx.inventory) {
    if (h.groups.includes(NODE_GROUP) && inCluster[h.name.toLowerCase()] !== undefined) cidrs[h.name] = inCluster[h.name.toLowerCase()]!;
  }
  cidrs[ctx.host.name] = ctx.output<KubectlNodeRegisteredOutputs>('register').podCidr;
  for (const h of ctx.inventory) {
    if (h.name === ctx.host.name || !h.groups.includes(NODE_GROUP)) continue;
    try {
      cidrs[h.name] = ctx.output<KubectlNodeRegisteredOutputs>('register', h.name).podCidr;
    } catch (e) {
      if (!(e instanceof UnknownOutput)) throw e;
    }
  }
  return cidrs;
}

/**
 * The tor hosts' VRRP vars (password, router ids, priorities, ...) checked before any host is touched,
 * although the VIPs can only be computed once the node has registered: everything torGatewayConfig
 * checks except the VIP set.
 */
export function checkTorVars(ctx: Pick<TaskContext, 'runsOn' | 'inventory' | 'group'>): void {
  try {
    torGatewayConfig(ctx);
  } catch (e) {
    if (e instanceof InputError && /^(no pod gateway to serve|pod gateways \()/.test(e.message)) return;
    throw e;
  }
}

