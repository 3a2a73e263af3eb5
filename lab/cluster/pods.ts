// Pods in the simulated cluster (lab/cluster/, a TEST DOUBLE): what a drain has to move. A pod sits on a
// node, has an owner (a ReplicaSet, a DaemonSet, or none: a bare pod), a namespace and labels. It is
// healthy (counts for a PodDisruptionBudget) while its node is Ready, once it has started. The
// "scheduler" here places a ReplicaSet's replacement pod on the least loaded schedulable Ready worker
// whose labels match the pod's nodeSelector; with none, the pod stays Pending until one appears
// (schedulePending). A replacement starts POD_START_MS after it is placed: shorter than kubectl drain's
// 5 s between eviction retries, so a retried eviction sees it Ready, and longer than the moment between
// two evictions kubectl sends at once, so the second one finds the budget still spent (as a real
// replacement, pulling its image and starting, is not Ready yet either).
import { createHash } from 'node:crypto';
import type { ClusterNode, ClusterPod, ClusterState } from './cluster-model.js';
import { nodeLabels } from './cluster-state.js';

export type { ClusterPod, PodOwner } from './cluster-model.js';

/** How long a placed replacement pod takes to start (Ready from then on). */
export const POD_START_MS = 1500;

export const podKey = (p: { namespace: string; name: string }) => `${p.namespace}/${p.name}`;

/** Every pod, in the API's list order (namespace, then name). */
export function podsOf(s: ClusterState): ClusterPod[] {
  return Object.values(s.pods ?? {}).sort((a, b) => podKey(a).localeCompare(podKey(b)));
}

export function matchesLabels(labels: Record<string, string>, selector: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Counted by a PodDisruptionBudget: scheduled, its node Ready, started, not marked unready. */
export function podHealthy(s: ClusterState, p: ClusterPod, now = Date.now()): boolean {
  const node = p.nodeName === undefined ? undefined : s.nodes[p.nodeName];
  const started = p.startedAt === undefined || Date.parse(p.startedAt) <= now;
  return node !== undefined && node.ready && p.ready !== false && started;
}

/** A stable uid-shaped id from any text (the double's objects need uids that do not change between calls). */
export function fakeUid(text: string): string {
  const h = createHash('sha1').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The next generated-name suffix: 5 characters of k8s.io/apimachinery's rand alphabet, from a counter. */
export function nextSuffix(s: ClusterState): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let n = (s.podSeq = (s.podSeq ?? 0) + 1) * 7919 + 104_729; // spread the counter so names differ early
  let out = '';
  for (let i = 0; i < 5; i++, n = Math.floor(n / alphabet.length)) out += alphabet[n % alphabet.length];
  return out;
}

/** A node the scheduler may use for the pod: Ready, not cordoned, not a master (kubeadm taints them). */
export function canRun(p: ClusterPod, n: ClusterNode): boolean {
  return (
    n.ready &&
    !n.unschedulable &&
    !(n.roles ?? []).includes('master') &&
    matchesLabels(nodeLabels(n), p.nodeSelector ?? {})
  );
}

/** The least loaded node that can run the pod (ties by name); undefined when none can. */
export function pickNode(s: ClusterState, p: ClusterPod): ClusterNode | undefined {
  const load = (n: ClusterNode) => podsOf(s).filter((x) => x.nodeName === n.name).length;
  return Object.values(s.nodes)
    .filter((n) => canRun(p, n))
    .sort((a, b) => load(a) - load(b) || a.name.localeCompare(b.name))[0];
}

/** Puts the pod on a node (an address from the node's pod CIDR), or leaves it Pending. `start`: it
 *  starts POD_START_MS from `start` (a replacement); without it, it runs at once (a fixture's pod). */
export function place(s: ClusterState, p: ClusterPod, node: ClusterNode | undefined, start?: Date): void {
  if (!node) {
    delete p.nodeName;
    delete p.podIP;
    return;
  }
  p.nodeName = node.name;
  if (start) p.startedAt = new Date(start.getTime() + POD_START_MS).toISOString();
  const used = new Set(podsOf(s).map((x) => x.podIP));
  const base = node.podCIDR.replace(/\.0\/24$/, '');
  for (let i = 2; i < 255; i++) {
    if (!used.has(`${base}.${i}`)) {
      p.podIP = `${base}.${i}`;
      return;
    }
  }
}

/** The controller's answer to an eviction or deletion: a new pod with a new name, placed by the
 *  scheduler (a ReplicaSet's) or on the same node (a DaemonSet's, which tolerates the cordon). */
export function replacePod(s: ClusterState, old: ClusterPod, now: Date): ClusterPod {
  const name = `${old.owner!.name}-${nextSuffix(s)}`;
  const pod: ClusterPod = {
    ...old,
    name,
    uid: fakeUid(`${old.namespace}/${name}/${s.podSeq}`),
    createdAt: now.toISOString(),
  };
  delete pod.ready;
  delete pod.startedAt;
  delete pod.resourceVersion;
  const node = old.owner!.kind === 'DaemonSet' && old.nodeName ? s.nodes[old.nodeName] : pickNode(s, pod);
  place(s, pod, node, now);
  (s.pods ??= {})[podKey(pod)] = pod;
  return pod;
}

/** Places every Pending pod that some node can now take; returns their keys. */
export function schedulePending(s: ClusterState, now = new Date()): string[] {
  const placed: string[] = [];
  for (const p of podsOf(s).filter((x) => x.nodeName === undefined)) {
    const node = pickNode(s, p);
    if (node) {
      place(s, p, node, now);
      placed.push(podKey(p));
    }
  }
  return placed;
}
