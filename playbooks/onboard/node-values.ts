// The onboarding's values, read from inventory vars (checked before any host is touched: a bad one
// is an InputError naming the host and the var) and computed from them: the C:\k layout, the pod
// addresses, the CNI config, the kubelet and kube-proxy command lines, the NICs. Pure: no I/O but
// reading the local files the vars name.
import { readFileSync } from 'node:fs';
import {
  type HostView,
  hostVar,
  InputError,
  listVar,
  optionalStringVar,
  parseCidr,
  parseIPv4,
  showValue,
  stringVar,
} from '../../runner/index.js';
import { vipFor } from '../../tasks/linux/index.js';
import type { DnsClientOptions, NetAdapterSpec, NetAdaptersOptions } from '../../tasks/windows/index.js';

/** Windows install layout of the field notes (docs/domain.md#step-6-binaries-and-kubeconfig), not cluster values. */
export const K_DIR = 'C:\\k';
export const PATHS = Object.freeze({
  kubelet: `${K_DIR}\\kubelet.exe`,
  kubeProxy: `${K_DIR}\\kube-proxy.exe`,
  kubeconfig: `${K_DIR}\\kubeconfig.conf`,
  cniBin: `${K_DIR}\\cni\\bin`,
  cniConf: `${K_DIR}\\cni\\config`,
  cniConfFile: `${K_DIR}\\cni\\config\\l2bridge.conf`,
  logs: `${K_DIR}\\logs`,
});
export const NETWORK = 'l2bridge';
export const ENDPOINT = 'cbr0';

// ---- vars ----

export function ipv4(h: HostView, name: string): string {
  const v = stringVar(h, name);
  if (parseIPv4(v) === null) throw new InputError(`${name} of ${h.name} must be an IPv4 address, got ${showValue(v)}`);
  return v;
}

export function cidr(h: HostView, name: string): string {
  const v = stringVar(h, name);
  const c = parseCidr(v);
  if (c === null || c.address !== c.network)
    throw new InputError(`${name} of ${h.name} must be a network in CIDR form like 10.160.0.0/12, got ${showValue(v)}`);
  return v;
}

/** A value for a command-line flag: one word, no quotes (it goes into a service's binPath). */
export function flagWord(h: HostView, name: string, fallback?: string): string {
  const v = stringVar(h, name, fallback);
  if (!/^[^\s"'`]+$/.test(v))
    throw new InputError(
      `${name} of ${h.name} must be one word without quotes or spaces (it is a kubelet/kube-proxy flag), got ${showValue(v)}`,
    );
  return v;
}

/** The node's name in the cluster: node_name, else the inventory name, lower case (kubelet lower-cases it). */
export function nodeName(h: HostView): string {
  const n = stringVar(h, 'node_name', h.name).toLowerCase();
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(n))
    throw new InputError(`node name ${showValue(n)} of ${h.name} is not a valid Kubernetes node name (set node_name)`);
  return n;
}

export function localText(h: HostView, name: string): string {
  const path = stringVar(h, name);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`${name} of ${h.name}: ${path} cannot be read: ${(e as Error).message}`);
  }
}

// ---- pure pieces (tested) ----

/** The pod gateway (the ToR VIP, `.1` unless pod_gateway says otherwise) and the host endpoint (`.2`). */
export function podAddresses(h: HostView, podCidr: string): { gateway: string; endpoint: string } {
  const c = parseCidr(podCidr);
  if (c === null || c.address !== c.network || c.prefix > 29)
    throw new InputError(`pod CIDR of ${h.name} must be a network like 10.160.11.0/24, got ${showValue(podCidr)}`);
  const gateway = optionalStringVar(h, 'pod_gateway') ?? vipFor(podCidr).address;
  const endpoint =
    optionalStringVar(h, 'pod_endpoint') ?? vipFor(podCidr).address.replace(/\d+$/, (last) => String(Number(last) + 1));
  return { gateway, endpoint };
}

/** C:\k\cni\config\l2bridge.conf (docs/domain.md#step-9-cni-config). */
export function cniConfig(o: {
  dnsIp: string;
  dnsSearch: readonly string[];
  clusterPodCidr: string;
  serviceCidr: string;
}): Record<string, unknown> {
  return {
    cniVersion: '0.2.0',
    name: NETWORK,
    type: 'win-bridge',
    capabilities: { portMappings: true },
    dns: { Nameservers: [o.dnsIp], Search: [...o.dnsSearch] },
    AdditionalArgs: [
      { Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', ExceptionList: [o.clusterPodCidr, o.serviceCidr] } },
      { Name: 'EndpointPolicy', Value: { Type: 'ROUTE', DestinationPrefix: o.serviceCidr, NeedEncap: true } },
    ],
  };
}

/**
 * kubelet's service command line (docs/domain.md#step-11-kubelet-service, and step 7), given the kube-dns service IP. The vars are
 * checked at once (before any host is touched); the returned function takes the IP read on a master.
 */
export function kubeletBinPath(h: HostView): (dnsIp: string) => string {
  const gates = optionalStringVar(h, 'kubelet_feature_gates');
  const before = [
    PATHS.kubelet,
    '--windows-service',
    `--hostname-override=${nodeName(h)}`,
    `--node-ip=${ipv4(h, 'cluster_ip')}`,
    `--kubeconfig=${PATHS.kubeconfig}`,
    `--pod-infra-container-image=${flagWord(h, 'pause_image')}`,
    '--network-plugin=cni',
    `--cni-bin-dir=${PATHS.cniBin}`,
    `--cni-conf-dir=${PATHS.cniConf}`,
  ];
  const after = [
    `--cluster-domain=${flagWord(h, 'cluster_domain', 'cluster.local')}`,
    '--resolv-conf=',
    '--cgroups-per-qos=false',
    '--enforce-node-allocatable=',
    '--image-pull-progress-deadline=30m',
    ...(gates ? [`--feature-gates=${flagWord(h, 'kubelet_feature_gates')}`] : []),
    '--logtostderr=false',
    `--log-dir=${PATHS.logs}`,
  ];
  return (dnsIp) => {
    if (parseIPv4(dnsIp) === null)
      throw new Error(`the kube-dns service IP read for ${h.name} is not an IPv4 address: ${showValue(dnsIp)}`);
    return [...before, `--cluster-dns=${dnsIp}`, ...after].join(' ');
  };
}

/** kube-proxy's service command line (docs/domain.md#step-12-kube-proxy-service). */
export function kubeProxyBinPath(h: HostView): string {
  return [
    PATHS.kubeProxy,
    '--windows-service',
    '--proxy-mode=kernelspace',
    `--hostname-override=${nodeName(h)}`,
    `--kubeconfig=${PATHS.kubeconfig}`,
    `--network-name=${NETWORK}`,
    `--bind-address=${ipv4(h, 'cluster_ip')}`,
    `--cluster-cidr=${cidr(h, 'cluster_pod_cidr')}`,
    '--logtostderr=false',
    `--log-dir=${PATHS.logs}`,
  ].join(' ');
}

// ---- optional steps (docs/domain.md#step-1-network-clean-up, step 2): only when the inventory asks ----

const NIC_KEYS = ['mac', 'name', 'ipv4', 'gateway', 'dns_servers'];

/**
 * The `nics` var (a list of { mac, name?, ipv4?, gateway?, dns_servers? }) as netAdapters options,
 * or null when the inventory does not list NICs. The address play connects to is kept (the step
 * refuses to remove it), and the cluster NIC's addresses must include cluster_ip: kubelet's
 * --node-ip and kube-proxy's --bind-address would otherwise name an address the node does not have.
 */
export function nicOptions(h: HostView): NetAdaptersOptions | null {
  const v = hostVar(h, 'nics');
  if (v === undefined || v === null) return null;
  if (!Array.isArray(v) || v.length === 0)
    throw new InputError(
      `nics of ${h.name} must be a list of { mac, name, ipv4, gateway, dns_servers }, got ${showValue(v)}`,
    );
  const adapters = v.map((nic, i) => {
    if (nic === null || typeof nic !== 'object' || Array.isArray(nic))
      throw new InputError(
        `nics[${i}] of ${h.name} must be a mapping with mac and optionally name, ipv4, gateway, dns_servers, got ${showValue(nic)}`,
      );
    const o = nic as Record<string, unknown>;
    const unknown = Object.keys(o).find((k) => !NIC_KEYS.includes(k));
    if (unknown)
      throw new InputError(`nics[${i}].${unknown} of ${h.name} is not a NIC setting (${NIC_KEYS.join(', ')})`);
    if (typeof o.mac === 'number') {
      throw new InputError(
        `nics[${i}].mac of ${h.name} is the number ${o.mac}: YAML reads an unquoted MAC with colons as a base-60 number; quote it, or write it with dashes (00-15-5D-00-00-01)`,
      );
    }
    const { dns_servers: dnsServers, ...rest } = o;
    return { ...rest, ...(dnsServers !== undefined ? { dnsServers } : {}) } as NetAdapterSpec;
  });
  const clusterNic = adapters.find((a) => a.name === stringVar(h, 'cluster_adapter', 'eth1'));
  if (clusterNic?.ipv4 !== undefined) {
    const ip = ipv4(h, 'cluster_ip');
    const list = typeof clusterNic.ipv4 === 'string' ? [clusterNic.ipv4] : clusterNic.ipv4;
    if (!list.some((x) => x.split('/')[0] === ip))
      throw new InputError(
        `nics of ${h.name}: the cluster NIC ${clusterNic.name} gets ${list.join(', ')}, which does not include cluster_ip ${ip}`,
      );
  }
  const host = optionalStringVar(h, 'ansible_host');
  return { adapters, ...(host !== undefined && parseIPv4(host) !== null ? { keepAddress: host } : {}) };
}

/** dns_domain (the primary DNS suffix, NV Domain) and dns_suffix_search_list, or null when neither is set. */
export function dnsClientOptions(h: HostView): DnsClientOptions | null {
  const domain = optionalStringVar(h, 'dns_domain');
  const search =
    hostVar(h, 'dns_suffix_search_list') === undefined ? undefined : listVar(h, 'dns_suffix_search_list', true);
  if (domain === undefined && search === undefined) return null;
  return {
    ...(domain !== undefined ? { primaryDomain: domain } : {}),
    ...(search !== undefined ? { suffixSearchList: search } : {}),
  };
}

/**
 * network_cleanup: the token the destructive clean-up runs once for (unset or false: never). YAML
 * reads an unquoted 2026-11-21 as a date and 7 as a number: both are fine tokens, taken as written.
 */
export function cleanupToken(h: HostView): string | undefined {
  const v = hostVar(h, 'network_cleanup');
  if (v === undefined || v === null || v === false) return undefined;
  if (v instanceof Date) return v.toISOString().replace(/T00:00:00\.000Z$/, '');
  if (typeof v === 'number') return String(v);
  return stringVar(h, 'network_cleanup');
}
