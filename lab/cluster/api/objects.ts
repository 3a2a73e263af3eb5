// Nodes, pods and PodDisruptionBudgets of the simulated cluster as the API double serves them
// (lab/cluster/api/, a TEST DOUBLE): the fields of the v1 and policy/v1 objects that kubectl and play
// read (names, labels, owners, spec.unschedulable and the taints (a cordon's, kubeadm's on a master), the
// Ready condition, allocatable pods, pod CIDRs, a budget's status), with uid and resourceVersion. Pure.
import { type ClusterNode, type ClusterState, KUBERNETES_VERSION, nodeLabels } from '../cluster-state.js';
import { type ClusterPdb, pdbStatus } from '../pdb.js';
import { type ClusterPod, fakeUid, podHealthy } from '../pods.js';

/** RFC 3339 at seconds, as metav1.Time marshals. */
export const seconds = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');

/** kubelet's --max-pods default: the only allocatable resource the double models (pods carry no requests). */
export const ALLOCATABLE_PODS = '110';

export function nodeObject(n: ClusterNode): Record<string, unknown> {
  const changed = seconds(n.updatedAt ?? n.registeredAt);
  // kubeadm taints its control plane (1.18: node-role.kubernetes.io/master); a cordon adds its own.
  const taints = [
    ...((n.roles ?? []).includes('master') ? [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] : []),
    ...(n.unschedulable ? [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: changed }] : []),
  ];
  return {
    metadata: {
      name: n.name,
      uid: fakeUid(`node/${n.name}/${n.registeredAt}`),
      resourceVersion: n.resourceVersion ?? '1',
      creationTimestamp: seconds(n.registeredAt),
      labels: nodeLabels(n),
    },
    spec: {
      podCIDR: n.podCIDR,
      podCIDRs: [n.podCIDR],
      ...(taints.length ? { taints } : {}),
      ...(n.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      conditions: [
        {
          type: 'Ready',
          status: n.ready ? 'True' : 'False',
          lastHeartbeatTime: changed,
          lastTransitionTime: changed,
          reason: n.ready ? 'KubeletReady' : 'KubeletNotReady',
          message: n.ready ? 'kubelet is posting ready status' : 'container runtime network not ready',
        },
      ],
      addresses: n.addresses,
      capacity: { pods: ALLOCATABLE_PODS },
      allocatable: { pods: ALLOCATABLE_PODS },
      nodeInfo: {
        kernelVersion: n.kernelVersion ?? '',
        osImage: n.osImage ?? '',
        containerRuntimeVersion: n.containerRuntime ?? 'docker://19.3.5',
        kubeletVersion: n.kubeletVersion ?? KUBERNETES_VERSION,
        kubeProxyVersion: n.kubeletVersion ?? KUBERNETES_VERSION,
        operatingSystem: n.os ?? 'linux',
        architecture: 'amd64',
      },
    },
  };
}

function ownerReferences(p: ClusterPod) {
  if (!p.owner) return {};
  const o = p.owner;
  return {
    ownerReferences: [
      {
        apiVersion: 'apps/v1',
        kind: o.kind,
        name: o.name,
        uid: fakeUid(`${p.namespace}/${o.kind}/${o.name}`),
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  };
}

export function podObject(s: ClusterState, p: ClusterPod, now: number): Record<string, unknown> {
  const ready = podHealthy(s, p, now) ? 'True' : 'False';
  const node = p.nodeName === undefined ? undefined : s.nodes[p.nodeName];
  const hostIP = node?.addresses.find((a) => a.type === 'InternalIP')?.address;
  const started = seconds(p.startedAt ?? p.createdAt);
  return {
    metadata: {
      name: p.name,
      namespace: p.namespace,
      uid: p.uid,
      resourceVersion: p.resourceVersion ?? '1',
      creationTimestamp: seconds(p.createdAt),
      labels: p.labels,
      ...ownerReferences(p),
    },
    spec: {
      volumes: p.emptyDir ? [{ name: 'scratch', emptyDir: {} }] : [],
      containers: [{ name: 'app', image: 'registry.lab/app:1' }],
      ...(p.nodeSelector ? { nodeSelector: p.nodeSelector } : {}),
      ...(p.nodeName === undefined ? {} : { nodeName: p.nodeName }),
      schedulerName: 'default-scheduler',
    },
    status: {
      phase: p.nodeName === undefined ? 'Pending' : 'Running',
      conditions: [
        { type: 'Ready', status: ready },
        { type: 'PodScheduled', status: p.nodeName === undefined ? 'False' : 'True' },
      ],
      ...(hostIP ? { hostIP } : {}),
      ...(p.podIP ? { podIP: p.podIP } : {}),
      ...(p.nodeName === undefined
        ? {}
        : {
            containerStatuses: [
              {
                name: 'app',
                ready: ready === 'True',
                restartCount: 0,
                image: 'registry.lab/app:1',
                state: { running: { startedAt: started } },
              },
            ],
          }),
    },
  };
}

export function pdbObject(s: ClusterState, b: ClusterPdb, now: number): Record<string, unknown> {
  const st = pdbStatus(s, b, now);
  return {
    metadata: {
      name: b.name,
      namespace: b.namespace,
      uid: fakeUid(`pdb/${b.namespace}/${b.name}/${b.createdAt}`),
      resourceVersion: b.resourceVersion ?? '1',
      generation: 1,
      creationTimestamp: seconds(b.createdAt),
    },
    spec: {
      ...(b.minAvailable !== undefined ? { minAvailable: b.minAvailable } : {}),
      ...(b.maxUnavailable !== undefined ? { maxUnavailable: b.maxUnavailable } : {}),
      selector: { matchLabels: b.selector },
    },
    status: {
      observedGeneration: 1,
      disruptionsAllowed: st.disruptionsAllowed,
      currentHealthy: st.currentHealthy,
      desiredHealthy: st.desiredHealthy,
      expectedPods: st.expectedPods,
    },
  };
}
