// What onboard-windows reads on the lab's windows group: the vars for the lab's simulated cluster
// (lab/cluster) and simulated nodes (their hotfix catalogue), and small local stand-ins for the node
// binaries and the kubeconfig (the nodes are simulators). `play lab up` writes them into the lab's
// inventory, so `play onboard-windows --limit node009` runs against the lab as it is.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { LAB_CLUSTER } from './cluster/cluster-state.js';
import { writeIfChanged } from './write.js';

/** Writes the local files into dir (0600); returns the windows group vars that name them. */
export function onboardVars(dir: string): Record<string, unknown> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeIfChanged(path, text, 0o600);
    return path;
  };
  return {
    time_zone: 'China Standard Time',
    ntp_servers: ['ntp1.lab.test', 'ntp2.lab.test'],
    sshd_firewall_rule: true,
    hotfix_kb: 'KB4549949',
    hotfix_msu:
      'C:\\Users\\Administrator\\Downloads\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu',
    os_version: '10.0.17763',
    os_revision: 1158,
    docker_insecure_registries: ['registry.lab.test:5000'],
    local_kubelet_exe: file('kubelet.exe', 'MZ stand-in for kubelet.exe v1.18.6\n'),
    local_kube_proxy_exe: file('kube-proxy.exe', 'MZ stand-in for kube-proxy.exe v1.18.6\n'),
    local_cni_win_bridge: file('win-bridge.exe', 'MZ stand-in for win-bridge.exe v0.8.5\n'),
    local_kubeconfig: file(
      'kubeconfig.conf',
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- cluster:',
        '    certificate-authority-data: TEFCLUNB',
        '    server: https://198.18.0.5:6443',
        '  name: lab',
        'users:',
        '- name: admin',
        '  user:',
        '    token: lab-token-not-a-secret-elsewhere',
        '',
      ].join('\n'),
    ),
    pause_image: 'registry.lab.test:5000/pause:1809',
    cluster_pod_cidr: LAB_CLUSTER.clusterCIDR,
    service_cidr: LAB_CLUSTER.serviceCIDR,
    dns_search: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'],
    kube_proxy_account: 'NT AUTHORITY\\NetworkService',
  };
}
