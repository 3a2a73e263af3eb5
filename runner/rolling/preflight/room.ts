// Room for an evicted pod's replacement: a node the scheduler could put it on while a batch's nodes are
// cordoned. Ready, schedulable, not one of the batch's nodes, its labels matching the pod's nodeSelector
// (kubernetes.io/os among them: a Windows pod never lands on Linux), every NoSchedule/NoExecute taint
// tolerated. Room is counted in pods, not resources: a node has room while it runs fewer pods than its
// allocatable pods (or always, when it does not say). The API's resource requests are not compared, and
// the preflight says so. Pure; the scheduler's choice is modelled as the least loaded node, ties by name.
import type { SnapshotNode, SnapshotPod, Taint, Toleration } from './snapshot.js';

/** How room was judged, for the plan to say. */
export type RoomMode = 'allocatable pods' | 'no pod limit';

export function roomMode(nodes: readonly SnapshotNode[]): RoomMode {
  return nodes.length > 0 && nodes.every((n) => n.allocatablePods !== null) ? 'allocatable pods' : 'no pod limit';
}

function tolerates(t: Toleration, taint: Taint): boolean {
  if (t.effect !== null && t.effect !== taint.effect) return false;
  if (t.key === null) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  return t.operator === 'Exists' || t.value === taint.value;
}

const repels = (taint: Taint) => taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';

/** Why `node` cannot take `pod` (null: it can, room aside). */
export function unfitReason(pod: SnapshotPod, node: SnapshotNode): string | null {
  if (!node.ready) return 'not Ready';
  if (node.unschedulable) return 'cordoned';
  const mismatch = Object.entries(pod.nodeSelector).find(([k, v]) => node.labels[k] !== v);
  if (mismatch) return `${mismatch[0]}=${node.labels[mismatch[0]] ?? '(none)'}`;
  const taint = node.taints.find((x) => repels(x) && !pod.tolerations.some((t) => tolerates(t, x)));
  return taint ? `taint ${taint.key}:${taint.effect}` : null;
}

/**
 * The node a replacement of `pod` would land on, or null with why none: `load` is the pods each node
 * runs now, `away` the nodes cordoned for the batch.
 */
export function placeReplacement(
  pod: SnapshotPod,
  nodes: readonly SnapshotNode[],
  away: ReadonlySet<string>,
  load: ReadonlyMap<string, number>,
): { node: string } | { node: null; why: string } {
  const candidates = nodes.filter(
    (n) =>
      !away.has(n.name) &&
      unfitReason(pod, n) === null &&
      (n.allocatablePods === null || (load.get(n.name) ?? 0) < n.allocatablePods),
  );
  const best = candidates.sort(
    (a, b) => (load.get(a.name) ?? 0) - (load.get(b.name) ?? 0) || a.name.localeCompare(b.name),
  )[0];
  if (best) return { node: best.name };
  return { node: null, why: noRoomWhy(pod, nodes, away) };
}

function noRoomWhy(pod: SnapshotPod, nodes: readonly SnapshotNode[], away: ReadonlySet<string>): string {
  const selector = Object.entries(pod.nodeSelector)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const matching = nodes.filter((n) => Object.entries(pod.nodeSelector).every(([k, v]) => n.labels[k] === v));
  const inBatch = matching.filter((n) => away.has(n.name)).map((n) => n.name);
  const others = matching
    .filter((n) => !away.has(n.name))
    .map((n) => `${n.name} ${unfitReason(pod, n) ?? 'full'}`)
    .sort();
  const what = selector ? `no node with ${selector} can take it` : 'no node can take it';
  const parts = [
    inBatch.length ? `${inBatch.join(', ')} in this batch` : '',
    others.length ? others.join(', ') : '',
    matching.length === 0 ? 'none matches' : '',
  ].filter(Boolean);
  return `${what} (${parts.join('; ')})`;
}
