// The pure diffs of the Windows steps, as tables: desired options, an actual state, the change compared whole.
// Long because it is a table: rows for every Windows step's diff.
import test from 'ava';
import type { Change } from '../../../runner/core/change.js';
import { Secret } from '../../../runner/core/secret.js';
import type { AnyStep } from '../../../runner/core/step.js';
import * as w from '../../../tasks/windows/index.js';
import { parseScQc, parseScQueryex } from '../../../tasks/windows/parse/sc-output.js';
import { fixture } from './fixtures.js';

// Each row's change whole (a row with `warning` compares its warnings by that pattern instead).
type Row = { name: string; step: AnyStep; actual: unknown; expect: Omit<Change, 'warnings'> & { warning?: RegExp } };

const NA = -2146498530; // DISM's 0x800f081e CBS_E_NOT_APPLICABLE
const hf = (o: object = {}) => w.hotfix({ kb: 'KB4549949', msuPath: 'C:\\k\\kb.msu', ...o });
const os = (revision: number, pendingReboot = false) => ({
  caption: 'Windows Server 2019',
  version: '10.0.17763',
  build: 17763,
  revision,
  lastBootUpTime: '2020-05-08T00:36:41.0000000Z',
  pendingReboot,
});
const NET = {
  name: 'l2bridge',
  type: 'L2Bridge' as const,
  addressPrefix: '10.160.11.0/24',
  gateway: '10.160.11.1',
  adapterName: 'eth1',
};
const netActual = {
  id: 'n1',
  type: 'L2Bridge',
  addressPrefix: '10.160.11.0/24',
  gateway: '10.160.11.1',
  adapterName: 'eth1',
};
const EP = { name: 'cbr0', network: 'l2bridge', addressPrefix: '10.160.11.0/24', ipAddress: '10.160.11.2' };
const epActual = {
  id: 'e1',
  network: 'l2bridge',
  ipAddress: '10.160.11.2',
  gateway: '0.0.0.0',
  compartmentId: 1,
  forwarding: true,
};
const svcActual = (state = 'RUNNING') => ({
  config: parseScQc(fixture('sc-qc-kubelet.txt')),
  status: parseScQueryex(
    state === 'RUNNING'
      ? fixture('sc-queryex-kubelet.txt')
      : fixture('sc-queryex-kubelet.txt').replace('4  RUNNING', '1  STOPPED').replace(': 4044', ': 0'),
  ),
  dependents: ['kubeproxy'],
});
const SVC = { name: 'kubelet', binPath: 'C:\\k\\nssm.exe' };
const file = (text: string) => ({
  sha256: require256(text),
  size: Buffer.byteLength(text),
  content: Buffer.from(text),
});
function require256(text: string): string {
  return w.fileContent({ path: 'C:\\x', content: text }).desired.sha256;
}
const PAUSE = 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973';
const rows: Row[] = [
  {
    name: 'hotfix missing',
    step: hf(),
    actual: { installed: false, installedOn: null, dismExitCode: null, msuPresent: true },
    expect: { action: 'create', fields: ['installed'], before: { installed: false }, after: { installed: true } },
  },
  {
    name: 'hotfix missing, no .msu on the host',
    step: hf(),
    actual: { installed: false, installedOn: null, dismExitCode: null, msuPresent: false },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: false },
      after: { installed: true },
      warning: /C:\\k\\kb\.msu is not on the host: apply will fail/,
    },
  },
  {
    name: 'hotfix installed',
    step: hf(),
    actual: { installed: true, installedOn: '2020-05-08', dismExitCode: null },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'hotfix pending reboot (3010)',
    step: hf(),
    actual: { installed: false, installedOn: null, dismExitCode: 3010 },
    expect: { action: 'noop', fields: [], before: null, after: null, warning: /next reboot/ },
  },
  {
    name: 'hotfix added by DISM (0) but not listed: DISM runs again (it is idempotent)',
    step: hf(),
    actual: { installed: false, installedOn: null, dismExitCode: 0, msuPresent: true },
    expect: { action: 'create', fields: ['installed'], before: { installed: false }, after: { installed: true } },
  },
  {
    name: 'hotfix not applicable, satisfied',
    step: hf({ notApplicable: 'satisfied' }),
    actual: { installed: false, installedOn: null, dismExitCode: NA },
    expect: { action: 'noop', fields: [], before: null, after: null, warning: /counted as satisfied/ },
  },
  {
    name: 'hotfix not applicable, fail',
    step: hf(),
    actual: { installed: false, installedOn: null, dismExitCode: NA },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: false },
      after: { installed: true },
      warning: /apply will fail again/,
    },
  },
  {
    name: 'hotfix failed before (code 5)',
    step: hf(),
    actual: { installed: false, installedOn: null, dismExitCode: 5 },
    expect: { action: 'create', fields: ['installed'], before: { installed: false }, after: { installed: true } },
  },
  {
    name: 'osBuild matches',
    step: w.osBuild({ version: '10.0.17763', revision: 1158 }),
    actual: os(1158),
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'osBuild older revision, reboot pending',
    step: w.osBuild({ version: '10.0.17763', revision: 1158 }),
    actual: os(973, true),
    expect: {
      action: 'update',
      fields: ['revision'],
      before: { revision: 973 },
      after: { revision: 1158 },
      warning: /reboot is pending/,
    },
  },
  {
    name: 'osBuild other version',
    step: w.osBuild({ version: '10.0.18363', revision: 1158 }),
    actual: os(1158),
    expect: {
      action: 'update',
      fields: ['version'],
      before: { version: '10.0.17763' },
      after: { version: '10.0.18363' },
    },
  },
  {
    name: 'feature available',
    step: w.windowsFeature({ name: 'Containers' }),
    actual: { known: true, state: 'Available' },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: 'Available' },
      after: { installed: 'Installed' },
    },
  },
  {
    name: 'feature pending',
    step: w.windowsFeature({ name: 'Containers' }),
    actual: { known: true, state: 'InstallPending' },
    expect: { action: 'noop', fields: [], before: null, after: null, warning: /next reboot/ },
  },
  {
    name: 'feature unknown name',
    step: w.windowsFeature({ name: 'Containerz' }),
    actual: { known: false, state: 'Unknown' },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: 'unknown name' },
      after: { installed: 'Installed' },
      warning: /no feature named Containerz: apply will fail/,
    },
  },
  {
    name: 'capability installed',
    step: w.windowsCapability({ name: 'OpenSSH.Server~~~~0.0.1.0' }),
    actual: { known: true, state: 'Installed' },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'docker absent',
    step: w.dockerEngine(),
    actual: { serviceExists: false, clientVersion: null, engineVersion: null, problems: [] },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: 'absent' },
      after: { installed: 'latest' },
    },
  },
  {
    name: 'docker service without exe',
    step: w.dockerEngine({ version: '19.03.5' }),
    actual: { serviceExists: true, clientVersion: null, engineVersion: null, problems: [] },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: 'service without docker.exe' },
      after: { installed: '19.03.5' },
    },
  },
  {
    name: 'docker wanted version',
    step: w.dockerEngine({ version: '19.03.5' }),
    actual: { serviceExists: true, clientVersion: '19.03.5', engineVersion: '19.03.5', problems: [] },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'docker other version',
    step: w.dockerEngine({ version: '19.03.5' }),
    actual: { serviceExists: true, clientVersion: '19.03.0', engineVersion: '19.03.0', problems: [] },
    expect: { action: 'update', fields: ['version'], before: { version: '19.03.0' }, after: { version: '19.03.5' } },
  },
  {
    name: 'docker daemon down, any version',
    step: w.dockerEngine(),
    actual: { serviceExists: true, clientVersion: '19.03.0', engineVersion: null, problems: ['error during connect'] },
    expect: { action: 'noop', fields: [], before: null, after: null, warning: /did not answer: error during connect/ },
  },
  {
    name: 'docker image absent',
    step: w.dockerImage({ reference: PAUSE }),
    actual: { daemonRunning: true, image: null },
    expect: {
      action: 'create',
      fields: ['image'],
      before: null,
      after: { image: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973' },
    },
  },
  {
    name: 'docker image present',
    step: w.dockerImage({ reference: PAUSE }),
    actual: { daemonRunning: true, image: { id: `sha256:${'a'.repeat(64)}`, repoTags: [PAUSE] } },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'docker image, daemon down',
    step: w.dockerImage({ reference: PAUSE }),
    actual: { daemonRunning: false, image: null },
    expect: {
      action: 'create',
      fields: ['image'],
      before: null,
      after: { image: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973' },
      warning: /^docker is not running on the host: the pull will fail/,
    },
  },
  {
    name: 'daemon.json absent',
    step: w.dockerDaemonConfig({ config: { bridge: 'none' } }),
    actual: null,
    expect: {
      action: 'create',
      fields: ['config'],
      before: null,
      after: { config: '23 bytes, sha256 d16777f854d7' },
      textDiff:
        '--- /dev/null\n+++ C:\\ProgramData\\Docker\\config\\daemon.json\n@@ -0,0 +1,3 @@\n+{\n+  "bridge": "none"\n+}\n',
    },
  },
  {
    name: 'daemon.json other key order',
    step: w.dockerDaemonConfig({ config: { a: 1, b: [1, 2] } }),
    actual: file('{"b":[1,2],"a":1}'),
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'daemon.json array order matters',
    step: w.dockerDaemonConfig({ config: { b: [1, 2] } }),
    actual: file('{"b":[2,1]}'),
    expect: {
      action: 'update',
      fields: ['config'],
      before: { config: '11 bytes, sha256 fe90d89922d7' },
      after: { config: '30 bytes, sha256 e3b73ab2a886' },
      textDiff:
        '--- C:\\ProgramData\\Docker\\config\\daemon.json\n+++ C:\\ProgramData\\Docker\\config\\daemon.json\n@@ -1,6 +1,6 @@\n {\n   "b": [\n-    2,\n-    1\n+    1,\n+    2\n   ]\n }\n',
    },
  },
  {
    name: 'daemon.json invalid',
    step: w.dockerDaemonConfig({ config: { bridge: 'none' } }),
    actual: file('{bridge: none}'),
    expect: {
      action: 'update',
      fields: ['config'],
      before: { config: "not valid JSON (Expected property name or '}' in JSON at position 1)" },
      after: { config: '23 bytes, sha256 d16777f854d7' },
      textDiff:
        '--- C:\\ProgramData\\Docker\\config\\daemon.json\n+++ C:\\ProgramData\\Docker\\config\\daemon.json\n@@ -1 +1,3 @@\n-{bridge: none}\n\\ No newline at end of file\n+{\n+  "bridge": "none"\n+}\n',
    },
  },
  {
    name: 'text file same bytes',
    step: w.fileContent({ path: 'C:\\k\\a.txt', content: 'a\r\n' }),
    actual: file('a\r\n'),
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'text file line ends differ',
    step: w.fileContent({ path: 'C:\\k\\a.txt', content: 'a\r\n' }),
    actual: file('a\n'),
    expect: {
      action: 'update',
      fields: ['content'],
      before: { content: '2 bytes, sha256 87428fc52280' },
      after: { content: '3 bytes, sha256 8e4621379786' },
      textDiff: '--- C:\\k\\a.txt\n+++ C:\\k\\a.txt\n@@ -1 +1 @@\n-a\n+a\r\n',
    },
  },
  {
    name: 'secret file differs',
    step: w.fileContent({ path: 'C:\\k\\a.txt', content: new Secret('new', 'env:S') }),
    actual: { sha256: require256('old'), size: 3, content: null },
    expect: { action: 'update', fields: ['content'], before: { content: '********' }, after: { content: '********' } },
  },
  {
    name: 'registry absent',
    step: w.registryValue({ path: 'HKLM:\\X', name: 'a', type: 'DWord', data: 1 }),
    actual: null,
    expect: { action: 'create', fields: ['type', 'data'], before: null, after: { type: 'DWord', data: 1 } },
  },
  {
    name: 'registry data differs',
    step: w.registryValue({ path: 'HKLM:\\X', name: 'a', type: 'DWord', data: 1 }),
    actual: { type: 'DWord', data: 0 },
    expect: { action: 'update', fields: ['data'], before: { data: 0 }, after: { data: 1 } },
  },
  {
    name: 'registry type differs',
    step: w.registryValue({ path: 'HKLM:\\X', name: 'a', type: 'ExpandString', data: '%SystemRoot%' }),
    actual: { type: 'String', data: '%SystemRoot%' },
    expect: {
      action: 'update',
      fields: ['type', 'data'],
      before: { type: 'String', data: '%SystemRoot%' },
      after: { type: 'ExpandString', data: '%SystemRoot%' },
    },
  },
  {
    name: 'registry multistring same',
    step: w.registryValue({ path: 'HKLM:\\X', name: 'a', type: 'MultiString', data: ['a', 'b'] }),
    actual: { type: 'MultiString', data: ['a', 'b'] },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'firewall same ports, other order and case',
    step: w.firewallRule({ name: 'web', protocol: 'TCP', localPort: '443,80' }),
    actual: {
      displayName: 'web',
      enabled: true,
      direction: 'Inbound',
      protocol: 'tcp',
      localPort: '80,443',
      action: 'Allow',
    },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'firewall disabled',
    step: w.firewallRule({ name: 'web', protocol: 'TCP', localPort: 80 }),
    actual: {
      displayName: 'web',
      enabled: false,
      direction: 'Inbound',
      protocol: 'TCP',
      localPort: '80',
      action: 'Allow',
    },
    expect: { action: 'update', fields: ['enabled'], before: { enabled: false }, after: { enabled: true } },
  },
  {
    name: 'auto update on by default',
    step: w.autoUpdate({ enabled: false }),
    actual: { noAutoUpdate: null, auOptions: null },
    expect: {
      action: 'update',
      fields: ['enabled'],
      before: { enabled: 'enabled (NoAutoUpdate unset, AUOptions unset)' },
      after: { enabled: false },
    },
  },
  {
    name: 'auto update off',
    step: w.autoUpdate({ enabled: false }),
    actual: { noAutoUpdate: 1, auOptions: 4 },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'hns network absent',
    step: w.hnsNetwork(NET),
    actual: null,
    expect: {
      action: 'create',
      fields: ['type', 'addressPrefix', 'gateway', 'adapterName'],
      before: null,
      after: { type: 'L2Bridge', addressPrefix: '10.160.11.0/24', gateway: '10.160.11.1', adapterName: 'eth1' },
      warning: /eth1 blink/,
    },
  },
  {
    name: 'hns network same, other spelling',
    step: w.hnsNetwork(NET),
    actual: { ...netActual, type: 'l2bridge', adapterName: 'ETH1' },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'hns network other prefix',
    step: w.hnsNetwork(NET),
    actual: { ...netActual, addressPrefix: '10.160.12.0/24', gateway: '10.160.12.1' },
    expect: {
      action: 'replace',
      fields: ['addressPrefix', 'gateway'],
      before: { addressPrefix: '10.160.12.0/24', gateway: '10.160.12.1' },
      after: { addressPrefix: '10.160.11.0/24', gateway: '10.160.11.1' },
      warning: /apply will refuse/,
    },
  },
  {
    name: 'hns endpoint absent',
    step: w.hnsHostEndpoint(EP),
    actual: null,
    expect: {
      action: 'create',
      fields: ['endpoint', 'compartmentId', 'forwarding'],
      before: null,
      after: { endpoint: '10.160.11.2 on l2bridge, gateway 0.0.0.0', compartmentId: 1, forwarding: true },
    },
  },
  {
    name: 'hns endpoint empty gateway is 0.0.0.0',
    step: w.hnsHostEndpoint(EP),
    actual: { ...epActual },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'hns endpoint detached',
    step: w.hnsHostEndpoint(EP),
    actual: { ...epActual, compartmentId: null, forwarding: false },
    expect: {
      action: 'update',
      fields: ['compartmentId', 'forwarding'],
      before: { compartmentId: null, forwarding: false },
      after: { compartmentId: 1, forwarding: true },
    },
  },
  {
    name: 'hns endpoint other IP',
    step: w.hnsHostEndpoint(EP),
    actual: { ...epActual, ipAddress: '10.160.11.3' },
    expect: {
      action: 'replace',
      fields: ['endpoint', 'compartmentId', 'forwarding'],
      before: { endpoint: '10.160.11.3 on l2bridge, gateway 0.0.0.0', compartmentId: 1, forwarding: true },
      after: { endpoint: '10.160.11.2 on l2bridge, gateway 0.0.0.0', compartmentId: 1, forwarding: true },
    },
  },
  {
    name: 'service absent',
    step: w.windowsService({ ...SVC, startMode: 'auto', state: 'running' }),
    actual: null,
    expect: {
      action: 'create',
      fields: ['binPath', 'startMode', 'state'],
      before: null,
      after: { binPath: 'C:\\k\\nssm.exe', startMode: 'auto', state: 'running' },
    },
  },
  {
    name: 'service as in field note B',
    step: w.windowsService({
      ...SVC,
      displayName: 'Kubelet',
      startMode: 'auto',
      dependencies: ['Docker'],
      account: 'localsystem',
      state: 'running',
    }),
    actual: svcActual(),
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'service binPath and deps differ',
    step: w.windowsService({
      name: 'kubelet',
      binPath: 'C:\\k\\kubelet.exe --windows-service',
      dependencies: ['docker', 'containerd'],
    }),
    actual: svcActual(),
    expect: {
      action: 'update',
      fields: ['binPath', 'dependencies'],
      before: { binPath: 'C:\\k\\nssm.exe', dependencies: ['docker'] },
      after: { binPath: 'C:\\k\\kubelet.exe --windows-service', dependencies: ['docker', 'containerd'] },
    },
  },
  {
    name: 'service stopped, wanted running',
    step: w.windowsService({ ...SVC, state: 'running' }),
    actual: svcActual('STOPPED'),
    expect: { action: 'update', fields: ['state'], before: { state: 'stopped' }, after: { state: 'running' } },
  },
  {
    name: 'service restart when running',
    step: w.windowsService({ ...SVC, state: 'running', restart: true }),
    actual: svcActual(),
    expect: {
      action: 'run',
      fields: ['restart'],
      before: { restart: 'pid 4044, dependents kubeproxy' },
      after: { restart: 'restarted' },
    },
  },
  {
    name: 'service restart when stopped is a start',
    step: w.windowsService({ ...SVC, state: 'running', restart: true }),
    actual: svcActual('STOPPED'),
    expect: { action: 'update', fields: ['state'], before: { state: 'stopped' }, after: { state: 'running' } },
  },
  {
    name: 'nssm absent',
    step: w.nssmService({
      name: 'kubelet',
      application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      appParameters: 'c:\\k\\kubeletstart.ps1',
    }),
    actual: null,
    expect: {
      action: 'create',
      fields: ['application', 'appParameters'],
      before: null,
      after: {
        application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        appParameters: 'c:\\k\\kubeletstart.ps1',
      },
    },
  },
  {
    name: 'nssm as in field note B (paths without regard to case)',
    step: w.nssmService({
      name: 'kubelet',
      application: 'C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      appParameters: 'c:\\k\\kubeletstart.ps1',
    }),
    actual: {
      application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      appParameters: 'c:\\k\\kubeletstart.ps1',
      appDirectory: '',
      dependOnService: [],
    },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'reboot not required',
    step: w.reboot({ required: false }),
    actual: os(1158, true),
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
  {
    name: 'reboot if pending',
    step: w.reboot({ required: false, ifPending: true }),
    actual: os(1158, true),
    expect: {
      action: 'run',
      fields: ['reboot'],
      before: { reboot: 'up since 2020-05-08T00:36:41.0000000Z' },
      after: { reboot: 'rebooted (a reboot is pending on the host)' },
    },
  },
  {
    name: 'reboot required',
    step: w.reboot({ required: true }),
    actual: os(1158),
    expect: {
      action: 'run',
      fields: ['reboot'],
      before: { reboot: 'up since 2020-05-08T00:36:41.0000000Z' },
      after: { reboot: 'rebooted (required by an earlier step)' },
    },
  },
];

for (const r of rows) {
  test(`diff: ${r.name}`, (t) => {
    const change = r.step.diff(r.step.desired, r.actual);
    const { warning, ...expect } = r.expect;
    const { warnings, ...rest } = change;
    t.deepEqual(warning ? rest : change, expect);
    if (warning)
      t.true(
        (warnings ?? []).some((x) => warning.test(x)),
        JSON.stringify(warnings),
      );
  });
}

test('diff: json files show a diff of the values pretty-printed; secrets show none', (t) => {
  const step = w.dockerDaemonConfig({ config: { bridge: 'none', 'insecure-registries': ['repo.mylan.k8s:8888'] } });
  const change = step.diff(step.desired, file('{"bridge":"nat","insecure-registries":["repo.mylan.k8s:8888"]}'));
  t.is(
    change.textDiff,
    [
      '--- C:\\ProgramData\\Docker\\config\\daemon.json',
      '+++ C:\\ProgramData\\Docker\\config\\daemon.json',
      '@@ -1,5 +1,5 @@',
      ' {',
      '-  "bridge": "nat",',
      '+  "bridge": "none",',
      '   "insecure-registries": [',
      '     "repo.mylan.k8s:8888"',
      '   ]',
      '',
    ].join('\n'),
  );
  const secret = w.fileContent({
    path: 'C:\\k\\a.json',
    content: new Secret('{"token":"new"}', 'env:S'),
    format: 'json',
  });
  const hidden = secret.diff(secret.desired, { sha256: require256('{"token":"old"}'), size: 15, content: null });
  t.deepEqual(hidden, {
    action: 'update',
    fields: ['content'],
    before: { content: '********' },
    after: { content: '********' },
  });
  t.false(JSON.stringify(secret.desired).includes('new'));
});
