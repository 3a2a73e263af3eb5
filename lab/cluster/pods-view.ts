// Pods as the API server returns them and as `kubectl get pods` prints them, for the kubectl stand-in
// (lab/cluster/, a TEST DOUBLE).
import type { ClusterState } from './cluster-state.js';
import { humanDuration } from './format.js';
import { type ClusterPod, fakeUid, podHealthy } from './pods.js';

const iso = (t: string) => t.replace(/\.\d+Z$/, 'Z');

export function podObject(s: ClusterState, p: ClusterPod): Record<string, unknown> {
  const ready = podHealthy(s, p) ? 'True' : 'False';
  const node = p.nodeName === undefined ? undefined : s.nodes[p.nodeName];
  const hostIP = node?.addresses.find((a) => a.type === 'InternalIP')?.address;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      creationTimestamp: iso(p.createdAt),
      labels: p.labels,
      name: p.name,
      namespace: p.namespace,
      ...(p.owner
        ? {
            ownerReferences: [
              {
                apiVersion: 'apps/v1',
                blockOwnerDeletion: true,
                controller: true,
                kind: p.owner.kind,
                name: p.owner.name,
                uid: fakeUid(`${p.namespace}/${p.owner.kind}/${p.owner.name}`),
              },
            ],
          }
        : {}),
      uid: p.uid,
    },
    spec: {
      containers: [{ image: 'registry.lab/app:1', name: 'app' }],
      ...(p.nodeName === undefined ? {} : { nodeName: p.nodeName }),
      ...(p.nodeSelector ? { nodeSelector: p.nodeSelector } : {}),
      schedulerName: 'default-scheduler',
      volumes: p.emptyDir ? [{ emptyDir: {}, name: 'scratch' }] : [],
    },
    status: {
      conditions: [
        { status: ready, type: 'Ready' },
        { status: p.nodeName === undefined ? 'False' : 'True', type: 'PodScheduled' },
      ],
      ...(hostIP ? { hostIP } : {}),
      phase: p.nodeName === undefined ? 'Pending' : 'Running',
      ...(p.podIP ? { podIP: p.podIP } : {}),
    },
  };
}

/** `kubectl get pods [-A] [-o wide]`'s table. */
export function podRows(
  s: ClusterState,
  pods: readonly ClusterPod[],
  o: { wide: boolean; allNamespaces: boolean; now: number },
): string[][] {
  const head = ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'];
  if (o.allNamespaces) head.unshift('NAMESPACE');
  if (o.wide) head.push('IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES');
  const rows = pods.map((p) => {
    const row = [
      p.name,
      podHealthy(s, p) ? '1/1' : '0/1',
      p.nodeName === undefined ? 'Pending' : 'Running',
      '0',
      humanDuration(o.now - Date.parse(p.createdAt)),
    ];
    if (o.allNamespaces) row.unshift(p.namespace);
    if (o.wide) row.push(p.podIP ?? '<none>', p.nodeName ?? '<none>', '<none>', '<none>');
    return row;
  });
  return [head, ...rows];
}
