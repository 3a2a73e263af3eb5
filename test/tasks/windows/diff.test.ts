// The pure diffs of the Windows steps, as tables: desired options, an actual state, the change compared whole.
// Long because it is a table: rows for every Windows step's diff.
import test from 'ava';
import { diffTests, type DiffRow } from './diff-rows.js';
import { Secret } from '../../../runner/core/secret.js';
import * as w from '../../../tasks/windows/index.js';
import { parseScQc, parseScQueryex } from '../../../tasks/windows/parse/sc-output.js';
import { fixture } from './fixtures.js';

// Each row's change whole (a row with `warning` compares its warnings by that pattern instead).

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
const rows: DiffRow[] = [
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

diffTests(rows);

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
