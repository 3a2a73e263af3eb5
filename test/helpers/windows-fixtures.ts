// Test data, not product: the Windows values that a step folder's tests (or its remote function cases)
// and the Windows e2e tests both spell out, kept here so that the two sides cannot drift apart. The
// field notes are docs/field-notes.md; field note A's l2bridge network is L2BRIDGE in ./hns-fixtures.ts.
import type {
  FirewallRuleOptions,
  HnsHostEndpointOptions,
  NssmServiceOptions,
  RegistryValueOptions,
} from '../../tasks/windows/index.js';
import type { FirewallRuleRecord, NssmRecord } from '../../lab/windows/node-state.js';

/** The L2Bridge network cbr0 on eth0 that the remote function cases create before their calls. */
export const CBR0_L2BRIDGE = {
  name: 'cbr0',
  type: 'L2Bridge',
  addressPrefix: '10.244.9.0/24',
  gateway: '10.244.9.1',
  adapterName: 'eth0',
};

/** Field note A's host endpoint cbr0 on the l2bridge network (L2BRIDGE), as hnsHostEndpoint's options. */
export const CBR0_HOST_ENDPOINT: HnsHostEndpointOptions = {
  name: 'cbr0',
  network: 'l2bridge',
  addressPrefix: '10.160.11.0/24',
  ipAddress: '10.160.11.2',
};

/** Field note A: the OpenSSH server's inbound rule, as firewallRule's options. */
export const SSHD_FIREWALL_RULE: FirewallRuleOptions = {
  name: 'sshd',
  displayName: 'OpenSSH Server (sshd)',
  protocol: 'TCP',
  localPort: 22,
};

/** The rule SSHD_FIREWALL_RULE leaves on the node, all but its name. */
export const SSHD_FIREWALL_RULE_ON_NODE: Omit<FirewallRuleRecord, 'name'> = {
  displayName: 'OpenSSH Server (sshd)',
  enabled: true,
  direction: 'Inbound',
  protocol: 'TCP',
  localPort: '22',
  action: 'Allow',
};

/** Field note A: the primary DNS suffix (the registry's NV Domain), as registryValue's options. */
export const NV_DOMAIN_VALUE: RegistryValueOptions = {
  path: 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters',
  name: 'NV Domain',
  type: 'String',
  data: 'mylan.k8s',
};

/** Seeds 000/003 and field notes B and D: kubelet's parameters, quotes included, as nssm holds them. */
export const KUBELET_NSSM_PARAMETERS =
  '--hostname-override=node009 --resolv-conf="" --enforce-node-allocatable="" --cni-bin-dir=c:\\k\\cni';

/** kubelet under nssm with a dependency on docker, as nssmService's options. */
export const KUBELET_NSSM_SERVICE: NssmServiceOptions = {
  name: 'kubelet',
  application: 'C:\\k\\kubelet.exe',
  appParameters: KUBELET_NSSM_PARAMETERS,
  appDirectory: 'C:\\k',
  dependOnService: ['docker'],
};

/** What nssm holds for KUBELET_NSSM_SERVICE (its Parameters key). */
export const KUBELET_NSSM_RECORD: NssmRecord = {
  Application: 'C:\\k\\kubelet.exe',
  AppParameters: KUBELET_NSSM_PARAMETERS,
  AppDirectory: 'C:\\k',
};
