// The onboard-windows playbook's plan without any host: the real playbook compiled against a lab-like
// inventory written here (three tor hosts, two Windows nodes, a control host), its steps built as
// `play` builds them before connecting. The task order (control -> node -> tor), the values computed
// from vars, and bad input refused before any host is touched (the CLI turns these into exit 65).
// Long because it is tables: the whole plan of the playbook, compared whole, and its refusals.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { InputError } from '../../runner/core/errors.js';
import type { AnyStep } from '../../runner/core/step.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { compileGraph, type TaskGraph } from '../../runner/playbook/compile.js';
import type { HostView } from '../../runner/playbook/define.js';
import { UnknownOutput } from '../../runner/run/context.js';
import { prebuildSteps } from '../../runner/run/run-graph.js';
import onboard, {
  clusterPodCidrs,
  cniConfig,
  kubeletBinPath,
  kubeProxyBinPath,
  podAddresses,
  registeredPodCidrs,
} from '../../playbooks/onboard-windows.js';
import { onboardVars } from './fixtures/onboard-lab.js';

process.env.PLAY_T_ONB_VRRP = 'lab-pass';
process.env.PLAY_T_ONB_WINPW = 'win-pass';
delete process.env.PLAY_T_ONB_UNSET;

type Vars = Record<string, unknown>;
const dirs: string[] = [];
test.after.always('remove the temp directories', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'play-onb-plan-'));
  dirs.push(d);
  return d;
};

interface Spec {
  windowsVars?: (vars: Vars) => void;
  node010?: Vars;
  torVars?: Vars;
  control?: Vars | null;
}

function inventoryFile(spec: Spec = {}): string {
  const dir = tmp();
  const windowsVars: Vars = {
    ansible_user: 'Administrator',
    ansible_shell_type: 'powershell',
    ansible_password: "{{ lookup('env', 'PLAY_T_ONB_WINPW') }}",
    ...onboardVars(dir),
  };
  spec.windowsVars?.(windowsVars);
  const children: Vars = {
    tor: {
      vars: {
        vrrp_interface: 'eth1',
        vrrp_virtual_router_id: 188,
        vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_ONB_VRRP') }}",
        ...spec.torVars,
      },
      hosts: {
        tor1: { ansible_host: '198.18.0.11' },
        tor2: { ansible_host: '198.18.0.12' },
        tor3: { ansible_host: '198.18.0.13' },
      },
    },
    windows: {
      vars: windowsVars,
      hosts: {
        node009: { ansible_host: '198.18.1.9', cluster_ip: '198.18.1.9' },
        node010: { ansible_host: '198.18.1.10', cluster_ip: '198.18.1.10', ...spec.node010 },
      },
    },
  };
  if (spec.control !== null)
    children.control = {
      hosts: { control1: { ansible_host: '198.18.0.5', kubectl: '/opt/play-lab/bin/kubectl', ...spec.control } },
    };
  const path = join(dir, 'inventory.yaml');
  writeFileSync(path, YAML.stringify({ all: { vars: { ansible_user: 'root' }, children } }));
  return path;
}

function build(spec: Spec = {}, limit = 'node009'): { graph: TaskGraph; steps: Map<string, AnyStep> } {
  const inventory = loadInventory(inventoryFile(spec));
  const graph = compileGraph(onboard, inventory, { limit });
  return { graph, steps: prebuildSteps(graph, inventory, {}) };
}

function refused(t: any, spec: Spec, pattern: RegExp, limit = 'node009'): void {
  const e = t.throws(() => build(spec, limit), { instanceOf: InputError });
  t.regex(e.message, pattern);
}

// Long because it is a table: the whole plan of one node, compared whole.
test('--limit node009: its tasks on the node, on control1 (delegated) and on every tor host; control -> node -> tor', (t) => {
  const { graph } = build();
  t.deepEqual(
    graph.hosts.map((h) => h.name),
    ['tor1', 'tor2', 'tor3', 'node009', 'control1'],
  );
  const ids = graph.nodes.map((n) => n.id);
  t.false(
    ids.some((id) => id.includes('node010')),
    'node010 is outside the limit',
  );
  const at = (id: string) => {
    const i = ids.indexOf(id);
    t.true(i >= 0, `${id} is planned`);
    return i;
  };
  // control (the DNS IP) -> node (kubelet) -> control (registration) -> node (network) -> tor (VIP)
  const order = [
    'dnsIp@node009>control1',
    'kubelet@node009',
    'register@node009>control1',
    'hnsNetwork@node009',
    'hnsEndpoint@node009',
    'cniConfig@node009',
    'kubeProxy@node009',
    'torPackage@node009>tor1',
    'torConfig@node009>tor1',
    'torRestart@node009>tor1',
    'torService@node009>tor1',
  ];
  for (let i = 1; i < order.length; i++)
    t.true(at(order[i - 1]!) < at(order[i]!), `${order[i - 1]} before ${order[i]}`);
  const deps = (id: string) =>
    graph.nodes
      .find((n) => n.id === id)!
      .deps.map((d) => d.id)
      .sort();
  t.deepEqual(deps('register@node009>control1'), ['kubelet@node009']);
  // A delegated task's needs are per target: the config on any tor host waits for the package on all of them.
  t.deepEqual(deps('torConfig@node009>tor2'), [
    'clusterNodes@node009>control1',
    'register@node009>control1',
    'torPackage@node009>tor1',
    'torPackage@node009>tor2',
    'torPackage@node009>tor3',
  ]);
  t.deepEqual(deps('clusterNodes@node009>control1'), ['register@node009>control1']);
  t.deepEqual(
    deps('kubelet@node009'),
    [
      'cniPlugin@node009',
      'dnsIp@node009>control1',
      'dockerRunning@node009',
      'kubeconfig@node009',
      'kubeletExe@node009',
      'osBuild@node009',
      'pauseImage@node009',
    ].sort(),
  );
  for (const tor of ['tor1', 'tor2', 'tor3']) at(`torConfig@node009>${tor}`);
  // The reboot comes after everything that may ask for it; the build is checked after it.
  t.true(
    at('hotfix@node009') < at('reboot@node009') &&
      at('docker@node009') < at('reboot@node009') &&
      at('reboot@node009') < at('osBuild@node009'),
  );
});

test('steps built before any host is touched, from vars; those needing outputs wait for them', (t) => {
  const { steps } = build();
  t.like(steps.get('hotfix@node009')!.desired, { kb: 'KB4549949' });
  t.like(steps.get('osBuild@node009')!.desired, { version: '10.0.17763', revision: 1158 });
  t.like(steps.get('dnsIp@node009>control1')!.desired, {
    kubectl: '/opt/play-lab/bin/kubectl',
    args: ['get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'],
  });
  t.like(steps.get('register@node009>control1')!.desired, { kubectl: '/opt/play-lab/bin/kubectl', node: 'node009' });
  t.like(steps.get('kubeProxy@node009')!.desired, {
    name: 'kubeproxy',
    account: 'NT AUTHORITY\\NetworkService',
    dependencies: ['docker', 'kubelet'],
    startMode: 'auto',
    state: 'running',
  });
  t.true(steps.get('sshdFirewall@node009')!.kind === 'windows.firewallRule');
  t.is(String(steps.get('kubeconfig@node009')!.desired.content), '********', 'the kubeconfig is a secret');
  for (const waits of ['reboot', 'kubelet', 'hnsNetwork', 'hnsEndpoint', 'cniConfig'])
    t.false(steps.has(`${waits}@node009`), `${waits} needs outputs`);
  t.false(steps.has('torConfig@node009>tor1'), 'the VIPs need the registration');
  // Without sshd_firewall_rule, the optional task only looks.
  const plain = build({
    windowsVars: (v) => {
      delete v.sshd_firewall_rule;
    },
  }).steps.get('sshdFirewall@node009')!;
  t.is(plain.kind, 'windows.notAsked');
});

test('the flags of the field notes, every value from vars and the DNS IP read on a master', (t) => {
  const h: HostView = {
    name: 'node009',
    groups: ['windows'],
    os: 'windows',
    vars: { ...onboardVars(tmp()), cluster_ip: '198.18.1.9', kubelet_feature_gates: 'HyperVContainer=true' },
  };
  const kubelet = kubeletBinPath(h)('198.18.240.10');
  t.is(
    kubelet,
    'C:\\k\\kubelet.exe --windows-service --hostname-override=node009 --node-ip=198.18.1.9 --kubeconfig=C:\\k\\kubeconfig.conf ' +
      '--pod-infra-container-image=registry.lab.test:5000/pause:1809 --network-plugin=cni --cni-bin-dir=C:\\k\\cni\\bin --cni-conf-dir=C:\\k\\cni\\config ' +
      '--cluster-dns=198.18.240.10 --cluster-domain=cluster.local --resolv-conf= --cgroups-per-qos=false --enforce-node-allocatable= ' +
      '--image-pull-progress-deadline=30m --feature-gates=HyperVContainer=true --logtostderr=false --log-dir=C:\\k\\logs',
  );
  t.throws(() => kubeletBinPath(h)('<none>'), {
    message: /kube-dns service IP read for node009 is not an IPv4 address/,
  });
  t.is(
    kubeProxyBinPath(h),
    'C:\\k\\kube-proxy.exe --windows-service --proxy-mode=kernelspace --hostname-override=node009 --kubeconfig=C:\\k\\kubeconfig.conf ' +
      '--network-name=l2bridge --bind-address=198.18.1.9 --cluster-cidr=198.19.0.0/16 --logtostderr=false --log-dir=C:\\k\\logs',
  );
  t.deepEqual(podAddresses(h, '10.160.11.0/24'), { gateway: '10.160.11.1', endpoint: '10.160.11.2' });
  t.deepEqual(
    cniConfig({
      dnsIp: '10.176.0.10',
      dnsSearch: ['mylan.k8s'],
      clusterPodCidr: '10.160.0.0/12',
      serviceCidr: '10.176.0.0/12',
    }),
    {
      cniVersion: '0.2.0',
      name: 'l2bridge',
      type: 'win-bridge',
      capabilities: { portMappings: true },
      dns: { Nameservers: ['10.176.0.10'], Search: ['mylan.k8s'] },
      AdditionalArgs: [
        { Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', ExceptionList: ['10.160.0.0/12', '10.176.0.0/12'] } },
        { Name: 'EndpointPolicy', Value: { Type: 'ROUTE', DestinationPrefix: '10.176.0.0/12', NeedEncap: true } },
      ],
    },
  );
});

test("VIP pod CIDRs: nodes the cluster knows, the target's registration, others' registrations of the run when known", (t) => {
  const view = (name: string, groups = ['windows']): HostView => ({ name, groups, os: 'windows', vars: {} });
  const inventory = [view('node009'), view('node010'), view('node011'), view('node012'), view('tor1', ['tor'])];
  const registered: Record<string, string> = { node009: '198.19.1.0/24', node011: '198.19.3.0/24' };
  // node012 was onboarded by an earlier run: only the cluster knows its pod CIDR. master1 is no Windows node.
  const cluster = JSON.stringify({
    items: [
      { metadata: { name: 'node012' }, spec: { podCIDR: '198.19.4.0/24' } },
      { metadata: { name: 'master1' }, spec: { podCIDR: '198.19.0.0/24' } },
      { metadata: { name: 'node010' }, spec: {} },
    ],
  });
  const ctx = (target: string) =>
    ({
      host: view(target),
      runsOn: inventory[4]!,
      inventory,
      group: () => [],
      optionalOutput: () => undefined,
      output: (task: string, host = target) => {
        if (task === 'clusterNodes') return { value: cluster };
        if (!(host in registered)) throw new UnknownOutput('register', host);
        return { podCidr: registered[host] };
      },
    }) as Parameters<typeof registeredPodCidrs>[0];
  t.deepEqual(registeredPodCidrs(ctx('node009')), {
    node009: '198.19.1.0/24',
    node011: '198.19.3.0/24',
    node012: '198.19.4.0/24',
  });
  t.throws(
    () => registeredPodCidrs(ctx('node010')),
    { instanceOf: UnknownOutput },
    "the target's own registration must be known",
  );
  t.throws(() => clusterPodCidrs('error: no'), { message: /did not return JSON/ });
});

// Long because it is a table of bad inputs, each with its message.
test('bad input refused before any host is touched, naming the task, host and var', (t) => {
  refused(
    t,
    {
      windowsVars: (v) => {
        delete v.time_zone;
      },
    },
    /task 'timezone' for host node009: time_zone of node009 must be a non-empty string, got nothing/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.ntp_servers = [];
      },
    },
    /task 'ntp' for host node009: ntp_servers of node009 must not be empty/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.os_revision = 'latest';
      },
    },
    /task 'osBuild' for host node009: os_revision of node009 must be an integer, got "latest"/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.local_kubelet_exe = '/nonexistent/kubelet.exe';
      },
    },
    /task 'kubeletExe' for host node009: .*localFile.*cannot be read/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.local_kubeconfig = v.local_kubelet_exe;
      },
    },
    /task 'kubeconfig' for host node009: local_kubeconfig of node009 .* names no API server/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.pause_image = 'pause image"; calc';
      },
    },
    /task 'pauseImage' for host node009: pause_image of node009 must be one word/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.cluster_pod_cidr = '198.19.0.1/16';
      },
    },
    /task 'cniConfig' for host node009: cluster_pod_cidr of node009 must be a network in CIDR form/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.service_cidr = 'services';
      },
    },
    /task 'cniConfig' for host node009: service_cidr of node009 must be a network in CIDR form/,
  );
  refused(
    t,
    { node010: { cluster_ip: 'ten' } },
    /task 'kubelet' for host node010: cluster_ip of node010 must be an IPv4 address/,
    'windows',
  );
  t.notThrows(
    () => build({ node010: { cluster_ip: 'ten' } }),
    "a run limited to node009 does not build node010's steps",
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.hotfix_kb = 'latest';
      },
    },
    /task 'hotfix' for host node009: windows\.hotfix: option 'kb'/,
  );
  refused(
    t,
    { torVars: { vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_ONB_UNSET') }}" } },
    /task 'torConfig' for host node009: .*vrrp_auth_pass needs environment variable PLAY_T_ONB_UNSET/,
  );
  refused(
    t,
    { torVars: { vrrp_virtual_router_id: 300 } },
    /task 'torConfig' for host node009: vrrp_virtual_router_id of tor1 .* must be an integer 1-255/,
  );
  refused(
    t,
    { control: { kubectl: '--kubeconfig /etc/k' } },
    /task 'dnsIp' for host node009: kubectl of control1 must be the path of kubectl/,
  );
  const e = t.throws(() => build({ control: null }));
  t.regex(e!.message, /task 'dnsIp', delegateTo 'control'/);
});

// Long because it is a table: each optional step's plan with and without its var, compared whole.
test('optional steps (docs/domain.md steps 1-2) only when the inventory asks: clean-up, NICs by MAC, DNS suffixes', (t) => {
  const plain = build().steps;
  for (const task of ['networkCleanup', 'nics', 'dnsClient'])
    t.is(plain.get(`${task}@node009`)!.kind, 'windows.notAsked', `${task} not asked`);

  const nics = [
    { mac: '00-15-00-00-00-01', name: 'eth0', ipv4: '198.18.1.9/24', gateway: '198.18.1.1' },
    {
      mac: '00-15-00-00-00-02',
      name: 'eth1',
      ipv4: ['198.18.1.9/23'],
      dns_servers: ['100.100.126.205', '100.100.126.206'],
    },
  ];
  const asked = build({
    windowsVars: (v) =>
      Object.assign(v, {
        network_cleanup: '2026-11-21',
        nics,
        dns_domain: 'mylan.k8s',
        dns_suffix_search_list: ['mylan.k8s'],
      }),
  });
  t.like(asked.steps.get('networkCleanup@node009')!.desired, {
    token: '2026-11-21',
    removeHnsNetworks: true,
    removeGhostAdapters: true,
  });
  t.deepEqual(asked.steps.get('nics@node009')!.desired, {
    adapters: [
      { mac: '00-15-00-00-00-01', name: 'eth0', ipv4: ['198.18.1.9/24'], gateway: '198.18.1.1' },
      {
        mac: '00-15-00-00-00-02',
        name: 'eth1',
        ipv4: ['198.18.1.9/23'],
        dnsServers: ['100.100.126.205', '100.100.126.206'],
      },
    ],
    keepAddress: '198.18.1.9',
  });
  t.deepEqual(asked.steps.get('dnsClient@node009')!.desired, {
    primaryDomain: 'mylan.k8s',
    suffixSearchList: ['mylan.k8s'],
  });
  // The clean-up comes first and its reboot is the one reboot; the NICs are named before HNS binds eth1.
  const ids = asked.graph.nodes.map((n) => n.id);
  const deps = (id: string) => asked.graph.nodes.find((n) => n.id === id)!.deps.map((d) => d.id);
  t.true(ids.indexOf('networkCleanup@node009') < ids.indexOf('nics@node009'));
  t.true(deps('reboot@node009').includes('networkCleanup@node009'));
  t.true(deps('hnsNetwork@node009').includes('nics@node009'));

  refused(
    t,
    {
      windowsVars: (v) => {
        v.nics = [{ mac: '00-15-00-00-00-02', name: 'eth1', ipv4: '10.9.9.9/24' }];
      },
    },
    /task 'nics' for host node009: nics of node009: the cluster NIC eth1 gets 10\.9\.9\.9\/24, which does not include cluster_ip 198\.18\.1\.9/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.nics = [{ mac: '00-15-00-00-00-02', dns: ['1.1.1.1'] }];
      },
    },
    /nics\[0\]\.dns of node009 is not a NIC setting \(mac, name, ipv4, gateway, dns_servers\)/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.nics = 'eth1';
      },
    },
    /nics of node009 must be a list/,
  );
  // Written unquoted (YAML 1.2 sees a string), read with PyYAML's rules as Ansible does: sexagesimal.
  refused(
    t,
    {
      windowsVars: (v) => {
        v.nics = [{ mac: '00:15:00:00:00:02' }];
      },
    },
    /nics\[0\]\.mac of node009 is the number 194400002: YAML reads an unquoted MAC with colons as a base-60 number; quote it/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.nics = [{ mac: 'eth1' }];
      },
    },
    /task 'nics' for host node009: windows\.netAdapters: option 'adapters\[0\]\.mac'/,
  );
  refused(
    t,
    {
      windowsVars: (v) => {
        v.dns_suffix_search_list = [];
      },
    },
    /task 'dnsClient' for host node009: dns_suffix_search_list of node009 must not be empty/,
  );
});

test("inventory/example.yaml (the field notes' cluster) plans onboard-windows --limit node009 with the seed's values", (t) => {
  // The local files it names live next to a copy of it.
  const dir = tmp();
  const inv = YAML.parse(readFileSync(new URL('../../inventory/example.yaml', import.meta.url), 'utf8'));
  const vars = inv.all.children.cluster.children.windows.vars;
  for (const key of ['local_kubelet_exe', 'local_kube_proxy_exe', 'local_cni_win_bridge']) vars[key] = join(dir, key);
  vars.local_kubeconfig = join(dir, 'kubeconfig.conf');
  for (const key of ['local_kubelet_exe', 'local_kube_proxy_exe', 'local_cni_win_bridge'])
    writeFileSync(vars[key], 'MZ');
  writeFileSync(
    vars.local_kubeconfig,
    'apiVersion: v1\nclusters:\n- cluster:\n    server: https://100.100.126.201:6443\n',
  );
  const path = join(dir, 'example.yaml');
  writeFileSync(path, YAML.stringify(inv));
  process.env.VRRP_AUTH_PASS ??= 'example';
  const inventory = loadInventory(path);
  const graph = compileGraph(onboard, inventory, { limit: 'node009' });
  const steps = prebuildSteps(graph, inventory, {});
  t.deepEqual(graph.hosts.map((h) => h.name).sort(), ['master1', 'node009', 'tor1', 'tor2', 'tor3']);
  t.like(steps.get('nics@node009')!.desired, { keepAddress: '172.16.126.216' });
  t.deepEqual(
    (steps.get('nics@node009')!.desired as any).adapters.map((a: any) => a.name),
    ['eth0', 'eth1'],
  );
  t.like(steps.get('dnsClient@node009')!.desired, { primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] });
  t.is(steps.get('networkCleanup@node009')!.kind, 'windows.notAsked', 'the clean-up is never asked by default');
  t.like(steps.get('pauseImage@node009')!.desired, { reference: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973' });
  t.like(steps.get('osBuild@node009')!.desired, { version: '10.0.17763', revision: 1158 });
  t.like(steps.get('kubeProxy@node009')!.desired, { account: 'NT AUTHORITY\\NetworkService' });
  t.regex(
    (steps.get('kubeProxy@node009')!.desired as any).binPath,
    /--bind-address=100\.100\.126\.216 --cluster-cidr=10\.160\.0\.0\/12/,
  );
  t.like(steps.get('dnsIp@node009>master1')!.desired, { kubectl: '/usr/bin/kubectl' });
});
