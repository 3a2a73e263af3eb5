// Objects of the simulated cluster that its state does not store, as the API double serves them
// (lab/cluster/api/, a TEST DOUBLE): the namespaces (kubeadm's four, and any a pod, budget or lease
// names), the `kubernetes` and `kube-dns` services, and the DaemonSets and ReplicaSets that pods name as
// their owners (kubectl drain reads a DaemonSet pod's owner before it skips the pod). Their
// resourceVersion is the cluster's creation: they never change here. Pure.
import type { ClusterState } from '../cluster-state.js';
import { fakeUid, podsOf } from '../pods.js';
import { pdbsOf } from '../pdb.js';

const KUBEADM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

/** When the cluster was made: its oldest node's registration. */
function clusterBirth(s: ClusterState): string {
  const times = Object.values(s.nodes).map((n) => n.registeredAt);
  return (times.sort()[0] ?? '2020-01-01T00:00:00Z').replace(/\.\d+Z$/, 'Z');
}

const meta = (s: ClusterState, name: string, namespace?: string) => ({
  name,
  ...(namespace !== undefined ? { namespace } : {}),
  uid: fakeUid(`${namespace ?? ''}/${name}`),
  resourceVersion: '1',
  creationTimestamp: clusterBirth(s),
});

export function namespaceObjects(s: ClusterState): Record<string, unknown>[] {
  const names = new Set(KUBEADM_NAMESPACES);
  for (const o of [...podsOf(s), ...pdbsOf(s), ...Object.values(s.leases ?? {})]) names.add(o.namespace);
  return [...names].sort().map((name) => ({
    metadata: { ...meta(s, name), labels: { 'kubernetes.io/metadata.name': name } },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  }));
}

function service(s: ClusterState, ns: string, name: string, ip: string, ports: object[], labels: object, sel?: object) {
  return {
    metadata: { ...meta(s, name, ns), labels },
    spec: { ports, ...(sel ? { selector: sel } : {}), clusterIP: ip, clusterIPs: [ip], type: 'ClusterIP' },
    status: { loadBalancer: {} },
  };
}

/** default/kubernetes (the service CIDR's first address) and kube-system/kube-dns (the cluster's DNS IP). */
export function serviceObjects(s: ClusterState): Record<string, unknown>[] {
  const base = s.serviceCIDR.split('/')[0]!.split('.').map(Number);
  const first = [...base.slice(0, 3), base[3]! + 1].join('.');
  return [
    service(s, 'default', 'kubernetes', first, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], {
      component: 'apiserver',
      provider: 'kubernetes',
    }),
    service(
      s,
      'kube-system',
      'kube-dns',
      s.dnsServiceIP,
      [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
      { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'KubeDNS' },
      { 'k8s-app': 'kube-dns' },
    ),
  ];
}

/** The DaemonSets or ReplicaSets the pods name as owners, with their pods counted. */
export function ownerObjects(s: ClusterState, kind: 'DaemonSet' | 'ReplicaSet'): Record<string, unknown>[] {
  const owners = new Map<string, { namespace: string; name: string; pods: number }>();
  for (const p of podsOf(s)) {
    if (p.owner?.kind !== kind) continue;
    const key = `${p.namespace}/${p.owner.name}`;
    const o = owners.get(key) ?? { namespace: p.namespace, name: p.owner.name, pods: 0 };
    o.pods++;
    owners.set(key, o);
  }
  return [...owners.values()].map((o) => ({
    metadata: {
      ...meta(s, o.name, o.namespace),
      uid: fakeUid(`${o.namespace}/${kind}/${o.name}`),
    },
    spec: { selector: { matchLabels: {} } },
    status:
      kind === 'DaemonSet'
        ? { currentNumberScheduled: o.pods, desiredNumberScheduled: o.pods, numberReady: o.pods }
        : { replicas: o.pods, readyReplicas: o.pods },
  }));
}
