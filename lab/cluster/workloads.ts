// Workloads for the simulated cluster (lab/cluster/, a TEST DOUBLE): what tests and the lab put on the
// nodes before a drain. Pure edits of a ClusterState (run them inside updateClusterState for a file).
// A ReplicaSet's or bare pod's node is given (placed as it was before any cordon) or chosen by the
// scheduler (pods.ts pickNode); a DaemonSet has one pod on every node its nodeSelector matches,
// masters included (as kube-proxy and the network daemons are).
import { type ClusterState, nodeLabels } from './cluster-state.js';
import type { ClusterPdb } from './pdb.js';
import { type ClusterPod, fakeUid, matchesLabels, nextSuffix, pickNode, place, podKey } from './pods.js';

interface PodSpec {
  namespace?: string;
  labels?: Record<string, string>;
  nodeSelector?: Record<string, string>;
  emptyDir?: boolean;
}

function addPod(
  s: ClusterState,
  pod: Omit<ClusterPod, 'uid' | 'createdAt'>,
  node: string | undefined,
  now: Date,
): ClusterPod {
  const p: ClusterPod = { ...pod, uid: fakeUid(`${podKey(pod)}/${s.podSeq ?? 0}`), createdAt: now.toISOString() };
  const target = node === undefined ? pickNode(s, p) : s.nodes[node];
  if (node !== undefined && !target) throw new Error(`no node ${node} in the simulated cluster`);
  place(s, p, target);
  (s.pods ??= {})[podKey(p)] = p;
  return p;
}

const base = (o: PodSpec, name: string) => ({
  name,
  namespace: o.namespace ?? 'default',
  labels: o.labels ?? {},
  ...(o.nodeSelector ? { nodeSelector: o.nodeSelector } : {}),
  ...(o.emptyDir ? { emptyDir: true } : {}),
});

/** `replicas` pods named NAME-xxxxx; `nodes` places them round-robin, else the scheduler does. */
export function addReplicaSet(
  s: ClusterState,
  o: PodSpec & { name: string; replicas: number; nodes?: string[] },
  now = new Date(),
): ClusterPod[] {
  return Array.from({ length: o.replicas }, (_, i) =>
    addPod(
      s,
      { ...base(o, `${o.name}-${nextSuffix(s)}`), owner: { kind: 'ReplicaSet', name: o.name } },
      o.nodes?.[i % o.nodes.length],
      now,
    ),
  );
}

/** One pod (NAME-xxxxx) on every node whose labels match nodeSelector. */
export function addDaemonSet(s: ClusterState, o: PodSpec & { name: string }, now = new Date()): ClusterPod[] {
  return Object.values(s.nodes)
    .filter((n) => matchesLabels(nodeLabels(n), o.nodeSelector ?? {}))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((n) =>
      addPod(s, { ...base(o, `${o.name}-${nextSuffix(s)}`), owner: { kind: 'DaemonSet', name: o.name } }, n.name, now),
    );
}

/** A pod no controller owns (drain refuses it without --force; once evicted it is gone). */
export function addBarePod(
  s: ClusterState,
  o: PodSpec & { name: string; node?: string },
  now = new Date(),
): ClusterPod {
  return addPod(s, base(o, o.name), o.node, now);
}

export function addPdb(
  s: ClusterState,
  o: { namespace?: string; name: string; selector: Record<string, string> } & (
    | { minAvailable: number | string; maxUnavailable?: undefined }
    | { maxUnavailable: number | string; minAvailable?: undefined }
  ),
  now = new Date(),
): ClusterPdb {
  const b: ClusterPdb = {
    name: o.name,
    namespace: o.namespace ?? 'default',
    ...(o.minAvailable !== undefined ? { minAvailable: o.minAvailable } : { maxUnavailable: o.maxUnavailable }),
    selector: o.selector,
    createdAt: now.toISOString(),
  };
  (s.pdbs ??= {})[podKey(b)] = b;
  return b;
}
