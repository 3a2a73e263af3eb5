// onboard-windows: a Windows Server 2019 node joins the cluster behind the Linux ToR gateways
// (docs/domain.md#onboarding-a-windows-node, steps 1-12): when the inventory asks, the destructive network clean-up, the NICs by MAC
// and the DNS suffixes; time, Windows Update off, the pinned hotfix and its reboot, Containers and
// Docker, the node binaries and kubeconfig in C:\k, kubelet as a service, registration read on a master
// (the control group), the HNS L2Bridge network and cbr0 endpoint on the node's pod CIDR, the CNI config,
// kube-proxy as a service, and the node's pod gateway VIP on the tor hosts (keepalived, as tor-gateway).
// Every value comes from inventory vars and task outputs (onboard/node-values.ts reads them); nothing of
// a cluster is a constant here. Left out: building and pushing the pause image (done once per cluster
// on a build host; the node pre-pulls it), nssm (step 13: the services are sc.exe services).
// Long (about 400 lines) because it is the one place the onboarding's 33 tasks are declared, in order; their
// values are computed in onboard/ and shared/.
import {
  boolVar,
  definePlaybook,
  hostVar,
  InputError,
  listVar,
  optionalStringVar,
  parseIPv4,
  Secret,
  showValue,
  stringVar,
} from '../runner/index.js';
import { keepalivedConf, kubectlNodeRegistered, kubectlValue, pkg, sysctl } from '../tasks/linux/index.js';
import {
  autoUpdate,
  dnsClient,
  dockerDaemonConfig,
  dockerEngine,
  dockerImage,
  fileContent,
  firewallRule,
  hnsHostEndpoint,
  hnsNetwork,
  hotfix,
  netAdapters,
  networkCleanup,
  notAsked,
  ntpServers,
  osBuild,
  reboot,
  timeZone,
  windowsFeature,
  windowsService,
} from '../tasks/windows/index.js';
import {
  cidr,
  cleanupToken,
  cniConfig,
  dnsClientOptions,
  ENDPOINT,
  flagWord,
  kubeletBinPath,
  kubeProxyBinPath,
  localText,
  NETWORK,
  nicOptions,
  nodeName,
  PATHS,
  podAddresses,
} from './onboard/node-values.js';
import { registeredPodCidrs } from './onboard/pod-cidrs.js';
import { CONTROL_GROUP, GET_NODES_ARGS, kubectlOf } from './shared/cluster.js';
import {
  checkTorVars,
  KEEPALIVED_CONF,
  keepalivedService,
  NODE_GROUP,
  TOR_DEFAULTS,
  TOR_GROUP,
  torGatewayConfig,
} from './shared/tor-gateway.js';

export { registeredPodCidrs } from './onboard/pod-cidrs.js';
export { clusterPodCidrs } from './shared/cluster.js';
export {
  cniConfig,
  dnsClientOptions,
  K_DIR,
  kubeletBinPath,
  kubeProxyBinPath,
  nicOptions,
  nodeName,
  PATHS,
  podAddresses,
} from './onboard/node-values.js';

/** Where the masters are: the kubectl fact tasks run on this group's hosts (var `kubectl` on them). */
export { CONTROL_GROUP } from './shared/cluster.js';

const DOCKERD = '"C:\\Program Files\\Docker\\dockerd.exe" --run-service';
// Automatic and running, as every service onboarding installs: a docker set to Manual does not start
// on boot (the field notes' "docker service didn't start"), so drift reports it and a run repairs it.
const dockerService = (restart: boolean) =>
  windowsService({ name: 'docker', binPath: DOCKERD, startMode: 'auto', state: 'running', restart });

export default definePlaybook({
  name: 'onboard-windows',
  drift: true,
  description:
    'Windows nodes join the cluster: hotfix, Docker, kubelet and kube-proxy services, HNS L2Bridge, CNI, and their pod gateway VIPs on the ToR hosts',
  tasks: {
    // ---- the node: optional, only when the inventory asks (docs/domain.md#onboarding-a-windows-node, steps 1-2) ----
    networkCleanup: {
      on: NODE_GROUP,
      tags: ['network'],
      description: 'destructive: remove stale HNS networks and ghost adapters, once per token (var network_cleanup)',
      step: ({ host }) => {
        const token = cleanupToken(host);
        return token === undefined
          ? notAsked('network clean-up', { rebootRequired: false })
          : networkCleanup({ token });
      },
    },
    nics: {
      on: NODE_GROUP,
      tags: ['network'],
      needs: ['networkCleanup'],
      description: 'NICs found by MAC: names, addresses, gateway, DNS servers (var nics)',
      step: ({ host }) => {
        const options = nicOptions(host);
        return options === null ? notAsked('network adapters') : netAdapters(options);
      },
    },
    dnsClient: {
      on: NODE_GROUP,
      tags: ['network', 'dns'],
      description: 'DNS suffixes (vars dns_domain, dns_suffix_search_list)',
      step: ({ host }) => {
        const options = dnsClientOptions(host);
        return options === null ? notAsked('DNS client suffixes') : dnsClient(options);
      },
    },
    // ---- the node: OS (docs/domain.md steps 3-4, docs/domain.md#hotfix-to-a-pinned-build) ----
    timezone: {
      on: NODE_GROUP,
      tags: ['time'],
      description: 'time zone',
      step: ({ host }) => timeZone({ id: stringVar(host, 'time_zone') }),
    },
    ntp: {
      on: NODE_GROUP,
      tags: ['time'],
      description: 'NTP servers',
      step: ({ host }) => ntpServers({ servers: listVar(host, 'ntp_servers', true) }),
    },
    autoUpdate: {
      on: NODE_GROUP,
      tags: ['os', 'hotfix'],
      description: 'Windows automatic updates off (the build stays pinned)',
      step: autoUpdate({ enabled: false }),
    },
    sshdFirewall: {
      on: NODE_GROUP,
      tags: ['os', 'ssh'],
      description: 'firewall rule for sshd, TCP 22 (var sshd_firewall_rule: true)',
      step: ({ host }) =>
        boolVar(host, 'sshd_firewall_rule', false)
          ? firewallRule({ name: 'sshd', displayName: 'OpenSSH Server (sshd)', protocol: 'TCP', localPort: 22 })
          : notAsked('firewall rule sshd'),
    },
    hotfix: {
      on: NODE_GROUP,
      tags: ['os', 'hotfix'],
      description: 'the hotfix of the pinned build (hotfix_kb, hotfix_msu on the node)',
      step: ({ host }) => hotfix({ kb: stringVar(host, 'hotfix_kb'), msuPath: stringVar(host, 'hotfix_msu') }),
    },
    // ---- Docker (step 5) ----
    containers: {
      on: NODE_GROUP,
      tags: ['docker'],
      description: 'Containers feature',
      step: windowsFeature({ name: 'Containers' }),
    },
    docker: {
      on: NODE_GROUP,
      tags: ['docker'],
      needs: ['containers'],
      description: 'Docker from DockerMsftProvider (docker_version)',
      step: ({ host }) =>
        dockerEngine(optionalStringVar(host, 'docker_version') ? { version: stringVar(host, 'docker_version') } : {}),
    },
  },
})
  // what reads the outputs above: the reboot they ask for, then the node's software
  .andThen({
    reboot: {
      on: NODE_GROUP,
      tags: ['os', 'hotfix', 'docker', 'reboot'],
      needs: ['networkCleanup', 'hotfix', 'containers', 'docker'],
      description: 'reboot when the clean-up, the hotfix, the feature or Docker asks for it (or one is pending)',
      timeoutSec: 900,
      step: ({ output }) =>
        reboot({
          required:
            output('hotfix').rebootRequired ||
            output('containers').rebootRequired ||
            output('docker').rebootRequired ||
            output('networkCleanup').rebootRequired,
          ifPending: true,
          timeoutSec: 600,
        }),
    },
    osBuild: {
      on: NODE_GROUP,
      tags: ['os', 'hotfix'],
      needs: ['reboot'],
      description: 'the node runs the pinned build (os_version, os_revision)',
      step: ({ host }) => {
        const rev = hostVar(host, 'os_revision');
        const revision = typeof rev === 'string' && /^\d+$/.test(rev) ? Number(rev) : rev;
        if (typeof revision !== 'number' || !Number.isInteger(revision))
          throw new InputError(`os_revision of ${host.name} must be an integer, got ${showValue(rev)}`);
        return osBuild({ version: stringVar(host, 'os_version'), revision });
      },
    },
    daemonJson: {
      on: NODE_GROUP,
      tags: ['docker'],
      needs: ['reboot'],
      description: 'daemon.json: bridge none, insecure registries (docker_insecure_registries)',
      step: ({ host }) =>
        dockerDaemonConfig({
          config: { bridge: 'none', 'insecure-registries': listVar(host, 'docker_insecure_registries', false) },
        }),
    },
    dockerRestart: {
      on: NODE_GROUP,
      tags: ['docker'],
      triggeredBy: ['daemonJson'],
      description: 'restart docker when daemon.json changed',
      step: dockerService(true),
    },
    dockerRunning: {
      on: NODE_GROUP,
      tags: ['docker'],
      needs: ['reboot', 'dockerRestart'],
      description: 'docker running',
      step: dockerService(false),
    },
    pauseImage: {
      on: NODE_GROUP,
      tags: ['docker', 'kubernetes'],
      needs: ['dockerRunning'],
      description:
        "the pause image pre-pulled (pause_image, built once per cluster FROM nanoserver of the node's build)",
      timeoutSec: 1800,
      step: ({ host }) => dockerImage({ reference: flagWord(host, 'pause_image') }),
    },
    // ---- C:\k (step 6) ----
    kubeletExe: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'kubelet'],
      description: 'kubelet.exe (local_kubelet_exe)',
      step: ({ host }) => fileContent({ path: PATHS.kubelet, localFile: stringVar(host, 'local_kubelet_exe') }),
    },
    kubeProxyExe: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'kube-proxy'],
      description: 'kube-proxy.exe (local_kube_proxy_exe)',
      step: ({ host }) => fileContent({ path: PATHS.kubeProxy, localFile: stringVar(host, 'local_kube_proxy_exe') }),
    },
    cniPlugin: {
      on: NODE_GROUP,
      tags: ['cni'],
      description: 'CNI win-bridge.exe (local_cni_win_bridge)',
      step: ({ host }) =>
        fileContent({ path: `${PATHS.cniBin}\\win-bridge.exe`, localFile: stringVar(host, 'local_cni_win_bridge') }),
    },
    kubeconfig: {
      on: NODE_GROUP,
      tags: ['kubernetes'],
      description: 'kubeconfig, a secret (local_kubeconfig)',
      step: ({ host }) => {
        const text = localText(host, 'local_kubeconfig');
        if (!/^\s*server:\s*\S+/m.test(text))
          throw new InputError(
            `local_kubeconfig of ${host.name} (${stringVar(host, 'local_kubeconfig')}) names no API server (no 'server:' line)`,
          );
        return fileContent({
          path: PATHS.kubeconfig,
          content: new Secret(text, `file:${stringVar(host, 'local_kubeconfig')}`),
        });
      },
    },
    // ---- registration (steps 7, 11) ----
    dnsIp: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'kubelet', 'cni'],
      delegateTo: CONTROL_GROUP,
      description: 'the kube-dns service IP, read on a master',
      step: ({ runsOn }) =>
        kubectlValue({
          kubectl: kubectlOf(runsOn),
          args: ['get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'],
        }),
    },
  })
  // kubelet reads the kube-dns IP above; the cluster's view of the node after it registered
  .andThen({
    clusterNodes: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'tor', 'keepalived'],
      delegateTo: CONTROL_GROUP,
      needs: ['register'],
      description: 'the pod CIDRs of every node the cluster knows, read on a master after this node registered',
      step: ({ runsOn }) => kubectlValue({ kubectl: kubectlOf(runsOn), args: GET_NODES_ARGS }),
    },
    kubelet: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'kubelet'],
      needs: ['dockerRunning', 'pauseImage', 'osBuild', 'kubeletExe', 'cniPlugin', 'kubeconfig', 'dnsIp'],
      description: 'kubelet service: flags of the field notes, depends on docker, automatic, running',
      step: ({ host, output }) => {
        const binPath = kubeletBinPath(host); // vars checked before the output is read (and before any host is touched)
        return windowsService({
          name: 'kubelet',
          binPath: binPath(output('dnsIp').value),
          displayName: 'Kubernetes Node Agent',
          startMode: 'auto',
          dependencies: ['docker'],
          state: 'running',
        });
      },
    },
    register: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'kubelet', 'network', 'cni'],
      delegateTo: CONTROL_GROUP,
      needs: ['kubelet'],
      description: 'wait until the node is registered with a pod CIDR, read on a master',
      timeoutSec: 330,
      step: ({ host, runsOn }) =>
        kubectlNodeRegistered({ kubectl: kubectlOf(runsOn), node: nodeName(host), timeoutSec: 300 }),
    },
  })
  // the node's network on the pod CIDR its registration gave it
  .andThen({
    // ---- networking (steps 8, 9, 12) ----
    hnsNetwork: {
      on: NODE_GROUP,
      tags: ['network', 'cni'],
      needs: ['register', 'nics'],
      description: 'HNS L2Bridge network on the pod CIDR, gateway .1 (cluster_adapter)',
      step: ({ host, output }) => {
        const adapterName = stringVar(host, 'cluster_adapter', 'eth1');
        const podCidr = output('register').podCidr;
        return hnsNetwork({
          name: NETWORK,
          type: 'L2Bridge',
          addressPrefix: podCidr,
          gateway: podAddresses(host, podCidr).gateway,
          adapterName,
        });
      },
    },
    hnsEndpoint: {
      on: NODE_GROUP,
      tags: ['network', 'cni'],
      needs: ['register', 'hnsNetwork'],
      description: 'host endpoint cbr0 (.2), attached to compartment 1 with forwarding',
      step: ({ host, output }) => {
        const podCidr = output('register').podCidr;
        return hnsHostEndpoint({
          name: ENDPOINT,
          network: NETWORK,
          addressPrefix: podCidr,
          ipAddress: podAddresses(host, podCidr).endpoint,
        });
      },
    },
    cniConfig: {
      on: NODE_GROUP,
      tags: ['cni'],
      needs: ['dnsIp', 'hnsEndpoint'],
      description: 'CNI config l2bridge.conf (cluster_pod_cidr, service_cidr, dns_search)',
      step: ({ host, output }) => {
        const vars = {
          dnsSearch: listVar(host, 'dns_search', false),
          clusterPodCidr: cidr(host, 'cluster_pod_cidr'),
          serviceCidr: cidr(host, 'service_cidr'),
        };
        const dnsIp = output('dnsIp').value;
        if (parseIPv4(dnsIp) === null)
          throw new Error(`the kube-dns service IP read for ${host.name} is not an IPv4 address: ${showValue(dnsIp)}`);
        return fileContent({
          path: PATHS.cniConfFile,
          format: 'json',
          content: `${JSON.stringify(cniConfig({ dnsIp, ...vars }), null, 2)}\n`,
        });
      },
    },
    kubeProxy: {
      on: NODE_GROUP,
      tags: ['kubernetes', 'kube-proxy'],
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
      tags: ['tor', 'sysctl'],
      delegateTo: TOR_GROUP,
      needs: ['kubeProxy'],
      description: 'net.ipv4.ip_forward = 1 on the tor hosts',
      step: sysctl({ key: 'net.ipv4.ip_forward', value: 1, file: TOR_DEFAULTS.sysctl_file }),
    },
    // The tor side comes after the node's side: a node whose kube-proxy did not come up gets no VIP.
    torPackage: {
      on: NODE_GROUP,
      tags: ['tor', 'keepalived'],
      delegateTo: TOR_GROUP,
      needs: ['kubeProxy'],
      description: 'keepalived installed on the tor hosts',
      step: pkg({ name: 'keepalived' }),
    },
    torConfig: {
      on: NODE_GROUP,
      tags: ['tor', 'keepalived'],
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
      tags: ['tor', 'keepalived'],
      delegateTo: TOR_GROUP,
      triggeredBy: ['torConfig'],
      description: 'restart keepalived when its config changed',
      step: ({ runsOn }) => keepalivedService(runsOn, true),
    },
    torService: {
      on: NODE_GROUP,
      tags: ['tor', 'keepalived'],
      delegateTo: TOR_GROUP,
      needs: ['torForwarding', 'torRestart'],
      description: 'keepalived running on the tor hosts',
      step: ({ runsOn }) => keepalivedService(runsOn, false),
    },
  });
