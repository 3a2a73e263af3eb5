// onboard-windows: a Windows Server 2019 node joins the cluster behind the Linux ToR gateways (seed 001
// §2, DOMAIN.md steps 3-12): time, Windows Update off, the pinned hotfix and its reboot, Containers and
// Docker, the node binaries and kubeconfig in C:\k, kubelet as a service, registration read on a master
// (the control group), the HNS L2Bridge network and cbr0 endpoint on the node's pod CIDR, the CNI config,
// kube-proxy as a service, and the node's pod gateway VIP on the tor hosts (keepalived, as tor-gateway).
// Every value comes from inventory vars and task outputs (see VARS below); nothing of a cluster is a
// constant here. Left out: NIC renaming/addressing and the destructive clean-up (DOMAIN steps 1-2), the
// pause image build (step 10), nssm (step 13).
import { readFileSync } from 'node:fs';
import { NOOP, type Change } from '../runner/core/change.js';
import { InputError } from '../runner/core/errors.js';
import { Secret } from '../runner/core/secret.js';
import type { Step } from '../runner/core/step.js';
import { definePlaybook, type HostView, type TaskContext } from '../runner/playbook/define.js';
import { boolVar, hostVar, listVar, optionalStringVar, showValue, stringVar } from '../runner/playbook/host-vars.js';
import { UnknownOutput } from '../runner/run/context.js';
import {
  keepalivedConf, kubectlNodeRegistered, kubectlValue, pkg, sysctl, vipFor,
  type KubectlNodeRegisteredOutputs, type KubectlValueOutputs,
} from '../tasks/linux/index.js';
import { parseCidr, parseIPv4 } from '../tasks/linux/ipv4.js';
import { probeCall } from '../tasks/windows/calls.js';
import {
  autoUpdate, dockerDaemonConfig, dockerEngine, fileContent, firewallRule, hnsHostEndpoint, hnsNetwork, hotfix, ntpServers,
  osBuild, reboot, timeZone, windowsFeature, windowsService,
  type ComponentOutputs, type DockerEngineOutputs, type HotfixOutputs, type OsInfo,
} from '../tasks/windows/index.js';
import { GET_OS_INFO } from '../tasks/windows/ps-os.js';
import { KEEPALIVED_CONF, keepalivedService, NODE_GROUP, TOR_DEFAULTS, TOR_GROUP, torGatewayConfig } from './tor-gateway.js';

/** Where the masters are: the kubectl fact tasks run on this group's hosts (var `kubectl` on them). */
export const CONTROL_GROUP = 'control';

/** Windows install layout of the field notes (seed 001 §2.3), not cluster values. */
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
const DOCKERD = '"C:\\Program Files\\Docker\\dockerd.exe" --run-service';
const NETWORK = 'l2bridge';
const ENDPOINT = 'cbr0';

// ---- vars ----

function ipv4(h: HostView, name: string): string {
  const v = stringVar(h, name);
  if (parseIPv4(v) === null) throw new InputError(`${name} of ${h.name} must be an IPv4 address, got ${showValue(v)}`);
  return v;
}

function cidr(h: HostView, name: string): string {
  const v = stringVar(h, name);
  const c = parseCidr(v);
  if (c === null || c.address !== c.network) throw new InputError(`${name} of ${h.name} must be a network in CIDR form like 10.160.0.0/12, got ${showValue(v)}`);
  return v;
}

/** A value for a command-line flag: one word, no quotes (it goes into a service's binPath). */
function flagWord(h: HostView, name: string, fallback?: string): string {
  const v = stringVar(h, name, fallback);
  if (!/^[^\s"'`]+$/.test(v)) throw new InputError(`${name} of ${h.name} must be one word without quotes or spaces (it is a kubelet/kube-proxy flag), got ${showValue(v)}`);
  return v;
}

/** The node's name in the cluster: node_name, else the inventory name, lower case (kubelet lower-cases it). */
export function nodeName(h: HostView): string {
  const n = stringVar(h, 'node_name', h.name).toLowerCase();
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(n)) throw new InputError(`node name ${showValue(n)} of ${h.name} is not a valid Kubernetes node name (set node_name)`);
  return n;
}

function localText(h: HostView, name: string): string {
  const path = stringVar(h, name);
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`${name} of ${h.name}: ${path} cannot be read: ${(e as Error).message}`);
  }
}

function kubectlOf(runsOn: HostView): string {
  const k = stringVar(runsOn, 'kubectl', 'kubectl');
  if (/\s/.test(k) || k.startsWith('-')) throw new InputError(`kubectl of ${runsOn.name} must be the path of kubectl, got ${showValue(k)}`);
  return k;
}

// ---- pure pieces (tested) ----

/** The pod gateway (the ToR VIP, `.1` unless pod_gateway says otherwise) and the host endpoint (`.2`). */
export function podAddresses(h: HostView, podCidr: string): { gateway: string; endpoint: string } {
  const c = parseCidr(podCidr);
  if (c === null || c.address !== c.network || c.prefix > 29) throw new InputError(`pod CIDR of ${h.name} must be a network like 10.160.11.0/24, got ${showValue(podCidr)}`);
  const gateway = optionalStringVar(h, 'pod_gateway') ?? vipFor(podCidr).address;
  const endpoint = optionalStringVar(h, 'pod_endpoint') ?? vipFor(podCidr).address.replace(/\d+$/, (last) => String(Number(last) + 1));
  return { gateway, endpoint };
}

/** C:\k\cni\config\l2bridge.conf (DOMAIN step 9). */
export function cniConfig(o: { dnsIp: string; dnsSearch: readonly string[]; clusterPodCidr: string; serviceCidr: string }): Record<string, unknown> {
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
 * kubelet's service command line (DOMAIN steps 7 and 11), given the kube-dns service IP. The vars are
 * checked at once (before any host is touched); the returned function takes the IP read on a master.
 */
export function kubeletBinPath(h: HostView): (dnsIp: string) => string {
  const gates = optionalStringVar(h, 'kubelet_feature_gates');
  const before = [
    PATHS.kubelet, '--windows-service',
    `--hostname-override=${nodeName(h)}`,
    `--node-ip=${ipv4(h, 'cluster_ip')}`,
    `--kubeconfig=${PATHS.kubeconfig}`,
    `--pod-infra-container-image=${flagWord(h, 'pause_image')}`,
    '--network-plugin=cni', `--cni-bin-dir=${PATHS.cniBin}`, `--cni-conf-dir=${PATHS.cniConf}`,
  ];
  const after = [
    `--cluster-domain=${flagWord(h, 'cluster_domain', 'cluster.local')}`,
    '--resolv-conf=', '--cgroups-per-qos=false', '--enforce-node-allocatable=',
    '--image-pull-progress-deadline=30m',
    ...(gates ? [`--feature-gates=${flagWord(h, 'kubelet_feature_gates')}`] : []),
    '--logtostderr=false', `--log-dir=${PATHS.logs}`,
  ];
  return (dnsIp) => {
    if (parseIPv4(dnsIp) === null) throw new Error(`the kube-dns service IP read for ${h.name} is not an IPv4 address: ${showValue(dnsIp)}`);
    return [...before, `--cluster-dns=${dnsIp}`, ...after].join(' ');
  };
}

/** kube-proxy's service command line (DOMAIN step 12). */
export function kubeProxyBinPath(h: HostView): string {
  return [
    PATHS.kubeProxy, '--windows-service',
    '--proxy-mode=kernelspace',
    `--hostname-override=${nodeName(h)}`,
    `--kubeconfig=${PATHS.kubeconfig}`,
    `--network-name=${NETWORK}`,
    `--bind-address=${ipv4(h, 'cluster_ip')}`,
    `--cluster-cidr=${cidr(h, 'cluster_pod_cidr')}`,
    '--logtostderr=false', `--log-dir=${PATHS.logs}`,
  ].join(' ');
}

/**
 * Pod CIDRs for the tor hosts' VIPs, by node: the registration outputs of this run's nodes (the
 * target's must be known: it throws UnknownOutput until then), other nodes' outputs when already
 * known; Windows nodes without either keep their pod_cidr var (torGatewayConfig reads those).
 */
/** Pod CIDRs by node name from `kubectl get nodes -o json` (nodes without one are left out). */
export function clusterPodCidrs(json: string): Record<string, string> {
  let list: { items?: { metadata?: { name?: unknown }; spec?: { podCIDR?: unknown } }[] };
  try {
    list = JSON.parse(json);
  } catch {
    throw new Error(`kubectl get nodes -o json did not return JSON: ${json.slice(0, 200)}`);
  }
  const out: Record<string, string> = {};
  for (const item of list.items ?? []) {
    const name = item.metadata?.name, cidr = item.spec?.podCIDR;
    if (typeof name === 'string' && typeof cidr === 'string' && cidr !== '') out[name] = cidr;
  }
  return out;
}

/**
 * The pod CIDRs the tor hosts must serve: every Windows node of the inventory that the cluster knows
 * (read on the control host after this node registered, so onboarding one node never drops the VIP
 * of a node onboarded earlier), and the nodes registered in this run as far as already known. Whichever
 * node's config is written last on a tor host has seen every registration of the run before it.
 */
export function registeredPodCidrs(ctx: TaskContext<'register' | 'clusterNodes'>): Record<string, string> {
  const inCluster = clusterPodCidrs(ctx.output<KubectlValueOutputs>('clusterNodes').value);
  const cidrs: Record<string, string> = {};
  for (const h of ctx.inventory) {
    if (h.groups.includes(NODE_GROUP) && inCluster[h.name.toLowerCase()] !== undefined) cidrs[h.name] = inCluster[h.name.toLowerCase()]!;
  }
  cidrs[ctx.host.name] = ctx.output<KubectlNodeRegisteredOutputs>('register').podCidr;
  for (const h of ctx.inventory) {
    if (h.name === ctx.host.name || !h.groups.includes(NODE_GROUP)) continue;
    try {
      cidrs[h.name] = ctx.output<KubectlNodeRegisteredOutputs>('register', h.name).podCidr;
    } catch (e) {
      if (!(e instanceof UnknownOutput)) throw e;
    }
  }
  return cidrs;
}

/**
 * The tor hosts' VRRP vars (password, router ids, priorities, ...) checked before any host is touched,
 * although the VIPs can only be computed once the node has registered: everything torGatewayConfig
 * checks except the VIP set.
 */
function checkTorVars(ctx: Pick<TaskContext, 'runsOn' | 'inventory' | 'group'>): void {
  try {
    torGatewayConfig(ctx);
  } catch (e) {
    if (e instanceof InputError && /^(no pod gateway to serve|pod gateways \()/.test(e.message)) return;
    throw e;
  }
}

/** A read-only step for an optional task the inventory did not ask for: probes the OS, never changes. */
function notAsked(what: string): Step<{ asked: false }, OsInfo, object> {
  return Object.freeze({
    kind: 'windows.notAsked',
    title: `${what}: not asked by the inventory`,
    desired: Object.freeze({ asked: false as const }),
    probe: () => probeCall(GET_OS_INFO, {}, (v) => v as unknown as OsInfo),
    diff: (): Change => NOOP,
    async apply(): Promise<void> {},
  });
}

const dockerService = (restart: boolean) => windowsService({ name: 'docker', binPath: DOCKERD, state: 'running', restart });

type T =
  | 'timezone' | 'ntp' | 'autoUpdate' | 'sshdFirewall' | 'hotfix' | 'containers' | 'docker' | 'reboot' | 'osBuild'
  | 'daemonJson' | 'dockerRestart' | 'dockerRunning' | 'kubeletExe' | 'kubeProxyExe' | 'cniPlugin' | 'kubeconfig'
  | 'dnsIp' | 'kubelet' | 'register' | 'clusterNodes' | 'hnsNetwork' | 'hnsEndpoint' | 'cniConfig' | 'kubeProxy'
  | 'torForwarding' | 'torPackage' | 'torConfig' | 'torRestart' | 'torService';

export default definePlaybook<T>({
  name: 'onboard-windows',
  description: 'Windows nodes join the cluster: hotfix, Docker, kubelet and kube-proxy services, HNS L2Bridge, CNI, and their pod gateway VIPs on the ToR hosts',
  tasks: {
    // ---- the node: OS (DOMAIN steps 3-4, hotfix) ----
    timezone: { on: NODE_GROUP, description: 'time zone', step: ({ host }) => timeZone({ id: stringVar(host, 'time_zone') }) },
    ntp: { on: NODE_GROUP, description: 'NTP servers', step: ({ host }) => ntpServers({ servers: listVar(host, 'ntp_servers', true) }) },
    autoUpdate: { on: NODE_GROUP, description: 'Windows automatic updates off (the build stays pinned)', step: autoUpdate({ enabled: false }) },
    sshdFirewall: {
      on: NODE_GROUP,
      description: 'firewall rule for sshd, TCP 22 (var sshd_firewall_rule: true)',
      step: ({ host }) => (boolVar(host, 'sshd_firewall_rule', false)
        ? firewallRule({ name: 'sshd', displayName: 'OpenSSH Server (sshd)', protocol: 'TCP', localPort: 22 })
        : notAsked('firewall rule sshd')),
    },
    hotfix: {
      on: NODE_GROUP,
      description: 'the hotfix of the pinned build (hotfix_kb, hotfix_msu on the node)',
      step: ({ host }) => hotfix({ kb: stringVar(host, 'hotfix_kb'), msuPath: stringVar(host, 'hotfix_msu') }),
    },
    // ---- Docker (step 5) ----
    containers: { on: NODE_GROUP, description: 'Containers feature', step: windowsFeature({ name: 'Containers' }) },
    docker: {
      on: NODE_GROUP,
      needs: ['containers'],
      description: 'Docker from DockerMsftProvider (docker_version)',
      step: ({ host }) => dockerEngine(optionalStringVar(host, 'docker_version') ? { version: stringVar(host, 'docker_version') } : {}),
    },
    reboot: {
      on: NODE_GROUP,
      needs: ['hotfix', 'containers', 'docker'],
      description: 'reboot when the hotfix, the feature or Docker asks for it (or one is pending)',
      timeoutSec: 900,
      step: ({ output }) => reboot({
        required: output<HotfixOutputs>('hotfix').rebootRequired || output<ComponentOutputs>('containers').rebootRequired
          || output<DockerEngineOutputs>('docker').rebootRequired,
        ifPending: true,
        timeoutSec: 600,
      }),
    },
    osBuild: {
      on: NODE_GROUP,
      needs: ['reboot'],
      description: 'the node runs the pinned build (os_version, os_revision)',
      step: ({ host }) => {
        const rev = hostVar(host, 'os_revision');
        const revision = typeof rev === 'string' && /^\d+$/.test(rev) ? Number(rev) : rev;
        if (typeof revision !== 'number' || !Number.isInteger(revision)) throw new InputError(`os_revision of ${host.name} must be an integer, got ${showValue(rev)}`);
        return osBuild({ version: stringVar(host, 'os_version'), revision });
      },
    },
    daemonJson: {
      on: NODE_GROUP,
      needs: ['reboot'],
      description: 'daemon.json: bridge none, insecure registries (docker_insecure_registries)',
      step: ({ host }) => dockerDaemonConfig({ config: { bridge: 'none', 'insecure-registries': listVar(host, 'docker_insecure_registries', false) } }),
    },
    dockerRestart: { on: NODE_GROUP, triggeredBy: ['daemonJson'], description: 'restart docker when daemon.json changed', step: dockerService(true) },
    dockerRunning: { on: NODE_GROUP, needs: ['reboot', 'dockerRestart'], description: 'docker running', step: dockerService(false) },
    // ---- C:\k (step 6) ----
    kubeletExe: { on: NODE_GROUP, description: 'kubelet.exe (local_kubelet_exe)', step: ({ host }) => fileContent({ path: PATHS.kubelet, localFile: stringVar(host, 'local_kubelet_exe') }) },
    kubeProxyExe: { on: NODE_GROUP, description: 'kube-proxy.exe (local_kube_proxy_exe)', step: ({ host }) => fileContent({ path: PATHS.kubeProxy, localFile: stringVar(host, 'local_kube_proxy_exe') }) },
    cniPlugin: { on: NODE_GROUP, description: 'CNI win-bridge.exe (local_cni_win_bridge)', step: ({ host }) => fileContent({ path: `${PATHS.cniBin}\\win-bridge.exe`, localFile: stringVar(host, 'local_cni_win_bridge') }) },
    kubeconfig: {
      on: NODE_GROUP,
      description: 'kubeconfig, a secret (local_kubeconfig)',
      step: ({ host }) => {
        const text = localText(host, 'local_kubeconfig');
        if (!/^\s*server:\s*\S+/m.test(text)) throw new InputError(`local_kubeconfig of ${host.name} (${stringVar(host, 'local_kubeconfig')}) names no API server (no 'server:' line)`);
        return fileContent({ path: PATHS.kubeconfig, content: new Secret(text, `file:${stringVar(host, 'local_kubeconfig')}`) });
      },
    },
    // ---- registration (steps 7, 11) ----
    dnsIp: {
      on: NODE_GROUP,
      delegateTo: CONTROL_GROUP,
      description: 'the kube-dns service IP, read on a master',
      step: ({ runsOn }) => kubectlValue({ kubectl: kubectlOf(runsOn), args: ['get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'] }),
    },
    clusterNodes: {
      on: NODE_GROUP,
      delegateTo: CONTROL_GROUP,
      needs: ['register'],
      description: 'the pod CIDRs of every node the cluster knows, read on a master after this node registered',
      step: ({ runsOn }) => kubectlValue({ kubectl: kubectlOf(runsOn), args: ['get', 'nodes', '-o', 'json'] }),
    },
    kubelet: {
      on: NODE_GROUP,
      needs: ['dockerRunning', 'osBuild', 'kubeletExe', 'cniPlugin', 'kubeconfig', 'dnsIp'],
      description: 'kubelet service: flags of the field notes, depends on docker, automatic, running',
      step: ({ host, output }) => {
        const binPath = kubeletBinPath(host); // vars checked before the output is read (and before any host is touched)
        return windowsService({
          name: 'kubelet',
          binPath: binPath(output<KubectlValueOutputs>('dnsIp').value),
          displayName: 'Kubernetes Node Agent',
          startMode: 'auto',
          dependencies: ['docker'],
          state: 'running',
        });
      },
    },
    register: {
      on: NODE_GROUP,
      delegateTo: CONTROL_GROUP,
      needs: ['kubelet'],
      description: 'wait until the node is registered with a pod CIDR, read on a master',
      timeoutSec: 330,
      step: ({ host, runsOn }) => kubectlNodeRegistered({ kubectl: kubectlOf(runsOn), node: nodeName(host), timeoutSec: 300 }),
    },
    // ---- networking (steps 8, 9, 12) ----
    hnsNetwork: {
      on: NODE_GROUP,
      needs: ['register'],
      description: 'HNS L2Bridge network on the pod CIDR, gateway .1 (cluster_adapter)',
      step: ({ host, output }) => {
        const adapterName = stringVar(host, 'cluster_adapter', 'eth1');
        const podCidr = output<KubectlNodeRegisteredOutputs>('register').podCidr;
        return hnsNetwork({ name: NETWORK, type: 'L2Bridge', addressPrefix: podCidr, gateway: podAddresses(host, podCidr).gateway, adapterName });
      },
    },
    hnsEndpoint: {
      on: NODE_GROUP,
      needs: ['register', 'hnsNetwork'],
      description: 'host endpoint cbr0 (.2), attached to compartment 1 with forwarding',
      step: ({ host, output }) => {
        const podCidr = output<KubectlNodeRegisteredOutputs>('register').podCidr;
        return hnsHostEndpoint({ name: ENDPOINT, network: NETWORK, addressPrefix: podCidr, ipAddress: podAddresses(host, podCidr).endpoint });
      },
    },
    cniConfig: {
      on: NODE_GROUP,
      needs: ['dnsIp', 'hnsEndpoint'],
      description: 'CNI config l2bridge.conf (cluster_pod_cidr, service_cidr, dns_search)',
      step: ({ host, output }) => {
        const vars = { dnsSearch: listVar(host, 'dns_search', false), clusterPodCidr: cidr(host, 'cluster_pod_cidr'), serviceCidr: cidr(host, 'service_cidr') };
        const dnsIp = output<KubectlValueOutputs>('dnsIp').value;
        if (parseIPv4(dnsIp) === null) throw new Error(`the kube-dns service IP read for ${host.name} is not an IPv4 address: ${showValue(dnsIp)}`);
        return fileContent({ path: PATHS.cniConfFile, format: 'json', content: `${JSON.stringify(cniConfig({ dnsIp, ...vars }), null, 2)}\n` });
      },
    },
    kubeProxy: {
      on: NODE_GROUP,
      needs: ['kubelet', 'kubeProxyExe', 'hnsEndpoint', 'cniConfig'],
      description: 'kube-proxy service: kernelspace on l2bridge, depends on docker and kubelet (kube_proxy_account)',
      step: ({ host }) => {
        const account = optionalStringVar(host, 'kube_proxy_account');
        return windowsService({
          name: 'kubeproxy',
          binPath: kubeProxyBinPath(host),
          displayName: 'Kubernetes Proxy',
          startMode: 'auto',
          dependencies: ['docker', 'kubelet'],
          ...(account ? { account } : {}),
          state: 'running',
        });
      },
    },
    // ---- the node's pod gateway on the tor hosts (ToR steps), delegated ----
    torForwarding: {
      on: NODE_GROUP,
      delegateTo: TOR_GROUP,
      needs: ['kubeProxy'],
      description: 'net.ipv4.ip_forward = 1 on the tor hosts',
      step: sysctl({ key: 'net.ipv4.ip_forward', value: 1, file: TOR_DEFAULTS.sysctl_file }),
    },
    // The tor side comes after the node's side: a node whose kube-proxy did not come up gets no VIP.
    torPackage: { on: NODE_GROUP, delegateTo: TOR_GROUP, needs: ['kubeProxy'], description: 'keepalived installed on the tor hosts', step: pkg({ name: 'keepalived' }) },
    torConfig: {
      on: NODE_GROUP,
      delegateTo: TOR_GROUP,
      needs: ['register', 'clusterNodes', 'torPackage'],
      description: 'keepalived.conf: the VIPs of every registered Windows node',
      step: (ctx) => {
        checkTorVars(ctx);
        return keepalivedConf({ path: KEEPALIVED_CONF, config: torGatewayConfig(ctx, registeredPodCidrs(ctx)) });
      },
    },
    torRestart: {
      on: NODE_GROUP,
      delegateTo: TOR_GROUP,
      triggeredBy: ['torConfig'],
      description: 'restart keepalived when its config changed',
      step: ({ runsOn }) => keepalivedService(runsOn, true),
    },
    torService: {
      on: NODE_GROUP,
      delegateTo: TOR_GROUP,
      needs: ['torForwarding', 'torRestart'],
      description: 'keepalived running on the tor hosts',
      step: ({ runsOn }) => keepalivedService(runsOn, false),
    },
  },
});
