// Nodes as the API server returns them and as `kubectl get nodes` prints them, for the kubectl stand-in
// (lab/cluster/, a TEST DOUBLE).
import { type ClusterNode, KUBERNETES_VERSION } from './cluster-state.js';
import { humanDuration } from './format.js';

/** The labels a kubelet puts on its node (what a pod's nodeSelector matches). */
export function nodeLabels(n: ClusterNode): Record<string, string> {
  const os = n.os ?? 'linux';
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': os,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': os,
  };
  for (const role of n.roles ?? []) labels[`node-role.kubernetes.io/${role}`] = '';
  return labels;
}

export function nodeObject(n: ClusterNode): Record<string, unknown> {
  const os = n.os ?? 'linux';
  const labels = nodeLabels(n);
  const changed = n.updatedAt ?? n.registeredAt;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { creationTimestamp: n.registeredAt.replace(/\.\d+Z$/, 'Z'), labels, name: n.name },
    spec: {
      podCIDR: n.podCIDR,
      podCIDRs: [n.podCIDR],
      ...(n.unschedulable
        ? {
            taints: [
              {
                effect: 'NoSchedule',
                key: 'node.kubernetes.io/unschedulable',
                timeAdded: changed.replace(/\.\d+Z$/, 'Z'),
              },
            ],
            unschedulable: true,
          }
        : {}),
    },
    status: {
      addresses: n.addresses,
      conditions: [
        {
          lastHeartbeatTime: changed.replace(/\.\d+Z$/, 'Z'),
          lastTransitionTime: changed.replace(/\.\d+Z$/, 'Z'),
          message: n.ready ? 'kubelet is posting ready status' : 'kubelet stopped posting node status.',
          reason: n.ready ? 'KubeletReady' : 'NodeStatusUnknown',
          status: n.ready ? 'True' : 'False',
          type: 'Ready',
        },
      ],
      nodeInfo: {
        architecture: 'amd64',
        containerRuntimeVersion: n.containerRuntime ?? 'docker://19.3.5',
        kernelVersion: n.kernelVersion ?? '',
        kubeProxyVersion: n.kubeletVersion ?? KUBERNETES_VERSION,
        kubeletVersion: n.kubeletVersion ?? KUBERNETES_VERSION,
        operatingSystem: os,
        osImage: n.osImage ?? '',
      },
    },
  };
}

function nodeStatus(n: ClusterNode): string {
  return `${n.ready ? 'Ready' : 'NotReady'}${n.unschedulable ? ',SchedulingDisabled' : ''}`;
}

export function nodeRows(nodes: readonly ClusterNode[], wide: boolean, now: number): string[][] {
  const head = ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'];
  if (wide) head.push('INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME');
  return [
    head,
    ...nodes.map((n) => {
      const row = [
        n.name,
        nodeStatus(n),
        n.roles?.length ? n.roles.join(',') : '<none>',
        humanDuration(now - Date.parse(n.registeredAt)),
        n.kubeletVersion ?? KUBERNETES_VERSION,
      ];
      if (wide) {
        row.push(
          n.addresses.find((a) => a.type === 'InternalIP')?.address ?? '<none>',
          '<none>',
          n.osImage || '<unknown>',
          n.kernelVersion || '<unknown>',
          n.containerRuntime ?? 'docker://19.3.5',
        );
      }
      return row;
    }),
  ];
}
