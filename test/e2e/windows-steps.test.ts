// Every Windows step of tasks/windows/index.ts, three runs each over real SSH against a simulated
// Windows node (lab/windows, a TEST DOUBLE answering the steps' PowerShell contract from a model):
// check reports the change and leaves the model untouched, apply makes it (verified in the model),
// a second run is a noop. The runner is the real one (compileGraph, prebuildSteps, runGraph).
// Long because it holds one three-run test per Windows step, side by side.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { definePlaybook } from '../../runner/playbook/define.js';
import { DOWNLOADS } from '../../lab/windows/defaults.js';
import { readFile, writeFile } from '../../lab/windows/file-store.js';
import { getKey, getValue } from '../../lab/windows/registry-store.js';
import type { NodeState, ServiceRecord } from '../../lab/windows/node-state.js';
import { L2BRIDGE } from '../helpers/hns-fixtures.js';
import {
  CBR0_HOST_ENDPOINT,
  KUBELET_NSSM_RECORD,
  KUBELET_NSSM_SERVICE,
  NV_DOMAIN_VALUE,
  SSHD_FIREWALL_RULE,
  SSHD_FIREWALL_RULE_ON_NODE,
} from '../helpers/windows-fixtures.js';
import {
  autoUpdate,
  DAEMON_JSON,
  dockerDaemonConfig,
  dockerEngine,
  dockerImage,
  fileContent,
  firewallRule,
  hnsHostEndpoint,
  hnsNetwork,
  hotfix,
  nssmService,
  ntpServers,
  osBuild,
  reboot,
  registryValue,
  timeZone,
  windowsCapability,
  windowsFeature,
  windowsService,
  type DockerImageOutputs,
  type WindowsServiceOutputs,
} from '../../tasks/windows/index.js';
import { runOne, runPlaybook, startWindowsNode, threeRuns } from '../helpers/simulated-windows-node.js';

const MSU = `${DOWNLOADS}\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu`;

/** A service record as sc.exe would have left it, for seeding. */
function seedService(s: NodeState, name: string, binPath: string, dependencies: string[] = [], running = true): void {
  const exe = /^"([^"]+)"|^(\S+)/.exec(binPath)!;
  writeFile(s, exe[1] ?? exe[2]!, Buffer.from(`simulated ${name}\n`));
  const svc: ServiceRecord = {
    name,
    displayName: name,
    binPath,
    type: 'own',
    startMode: 'Auto',
    account: 'LocalSystem',
    dependencies,
    state: running ? 'Running' : 'Stopped',
    pid: running ? s.nextPid : 0,
    win32ExitCode: running ? 0 : 1077,
    pausable: false,
  };
  if (running) s.nextPid += 4;
  s.services[name.toLowerCase()] = svc;
}

/** Docker 19.03.5 installed and running, Containers installed (a node after the reboot of docs/domain.md#step-5-docker). */
function withDocker(s: NodeState): void {
  s.features['containers']!.installState = 'Installed';
  s.docker = { install: 'installed', version: '19.03.5' };
  writeFile(s, 'C:\\Program Files\\Docker\\docker.exe', Buffer.from('simulated docker.exe\n'));
  seedService(s, 'docker', '"C:\\Program Files\\Docker\\dockerd.exe" --run-service');
}

test('hotfix -> reboot (ifPending) -> osBuild: the pinned revision after the reboot, verified in the model', async (t) => {
  const node = await startWindowsNode(t);
  const pin = () => osBuild({ version: '10.0.17763', revision: 1158 });
  const drift = await runOne(node, pin(), 'check');
  t.like(drift, {
    status: 'changed',
    action: 'update',
    fields: ['revision'],
    before: { revision: 973 },
    after: { revision: 1158 },
  });
  const refused = await runOne(node, pin());
  t.is(refused.status, 'failed');
  t.regex(refused.error!, /runs 10\.0\.17763\.973, not 10\.0\.17763\.1158.*install the hotfix/);

  await threeRuns(
    t,
    node,
    () => hotfix({ kb: 'kb4549949', msuPath: MSU }),
    () => {
      t.deepEqual(node.state.pending, [{ kind: 'hotfix', kb: 'KB4549949', revision: 1158 }]);
      t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Play\\Hotfixes', 'KB4549949'), { data: '3010' });
      t.is(node.state.os.revision, 973, 'the build changes only with the reboot');
    },
  );
  t.like(await runOne(node, pin(), 'check'), {
    status: 'changed',
    warnings: ['a reboot is pending on this host: the build may change when it reboots'],
  });

  const bootBefore = node.state.os.lastBootUpTime;
  const { apply } = await threeRuns(
    t,
    node,
    () => reboot({ required: false, ifPending: true }),
    () => {
      t.is(node.sim.node.reboots, 1);
      t.not(node.state.os.lastBootUpTime, bootBefore);
      t.is(node.state.os.revision, 1158);
      t.deepEqual(node.state.pending, []);
      t.true(node.state.hotfixes.some((h) => h.kb === 'KB4549949'));
      t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion', 'UBR'), { data: 1158 });
    },
  );
  t.is(apply.action, 'run');
  t.like(await runOne(node, pin()), { status: 'ok', action: 'noop' });
  t.like(await runOne(node, hotfix({ kb: 'KB4549949', msuPath: MSU })), { status: 'ok', action: 'noop' });
  t.regex(
    readFileSync(node.knownHosts, 'utf8'),
    /ssh-ed25519 /,
    'the first run recorded the host key; later runs verified it',
  );
});

test('windowsFeature Containers (pending a reboot) and windowsCapability OpenSSH.Server (at once)', async (t) => {
  const node = await startWindowsNode(t);
  const { again } = await threeRuns(
    t,
    node,
    () => windowsFeature({ name: 'Containers' }),
    () => {
      t.is(node.state.features['containers']!.installState, 'InstallPending');
      t.deepEqual(node.state.pending, [{ kind: 'feature', name: 'Containers' }]);
    },
  );
  t.regex(again.warnings![0]!, /Containers is installed and completes with the next reboot/);
  await threeRuns(
    t,
    node,
    () => windowsCapability({ name: 'OpenSSH.Server~~~~0.0.1.0' }),
    () => {
      t.is(node.state.capabilities['openssh.server~~~~0.0.1.0']!.state, 'Installed');
      t.truthy(node.state.services['sshd'], 'the capability brought its service');
    },
  );
});

test('dockerEngine: a fresh install of 19.03.0 (Containers pending, daemon down: a warning, not drift)', async (t) => {
  const node = await startWindowsNode(t);
  const { again } = await threeRuns(
    t,
    node,
    () => dockerEngine({ version: '19.03.0' }),
    () => {
      t.deepEqual(node.state.docker, { install: 'installed', version: '19.03.0' });
      t.like(node.state.services['docker'], { state: 'Stopped', startMode: 'Auto' });
      t.is(node.state.features['containers']!.installState, 'InstallPending');
    },
  );
  t.regex(again.warnings!.join('\n'), /daemon did not answer: error during connect/);
});

test('dockerDaemonConfig: daemon.json written byte for byte; a triggered docker restart restarts kubelet and kubeproxy and reports them', async (t) => {
  const node = await startWindowsNode(t, {
    seed: (s) => {
      withDocker(s);
      seedService(s, 'kubelet', 'C:\\k\\kubelet.exe --windows-service', ['docker']);
      seedService(s, 'kubeproxy', 'C:\\k\\kube-proxy.exe --windows-service', ['kubelet']);
    },
  });
  const first = { bridge: 'none', 'insecure-registries': ['repo.mylan.k8s:8888'] };
  await threeRuns(
    t,
    node,
    () => dockerDaemonConfig({ config: first }),
    () => {
      t.is(readFile(node.state, DAEMON_JSON)!.toString('utf8'), `${JSON.stringify(first, null, 2)}\n`);
    },
  );

  const config = { ...first, 'insecure-registries': ['repo.mylan.k8s:8888', 'repo.mylan.k8s:9999'] };
  let restarted: WindowsServiceOutputs | null = null;
  const pb = definePlaybook({
    name: 'docker-config',
    description: '',
    tasks: {
      config: { on: 'windows', step: dockerDaemonConfig({ config }) },
      restart: {
        on: 'windows',
        triggeredBy: ['config'],
        step: windowsService({
          name: 'docker',
          binPath: '"C:\\Program Files\\Docker\\dockerd.exe" --run-service',
          state: 'running',
          restart: true,
        }),
      },
    },
  }).andThen({
    seen: {
      on: 'windows',
      triggeredBy: ['restart'],
      step: (ctx) => {
        restarted = ctx.output('restart');
        return timeZone({ id: 'UTC' });
      },
    },
  });
  const before = node.snapshot();
  const check = await runPlaybook([node], pb, { mode: 'check' });
  t.like(check.hosts.node009!.steps[0], { task: 'config', status: 'changed' });
  t.like(check.hosts.node009!.steps[1], { task: 'restart', status: 'skipped' });
  t.regex(check.hosts.node009!.steps[1]!.error!, /^would run: triggered by config/);
  t.is(node.snapshot(), before);

  const pids = ['docker', 'kubelet', 'kubeproxy'].map((n) => node.state.services[n]!.pid);
  const run = await runPlaybook([node], pb);
  const [cfg, restart] = run.hosts.node009!.steps;
  t.like(cfg, { status: 'changed', action: 'update' });
  t.like(restart, { status: 'changed', action: 'run', fields: ['restart'] });
  t.regex(String(restart!.before!.restart), /dependents kubeproxy, kubelet/);
  t.like(restarted, { state: 'Running', restartedDependents: ['kubelet', 'kubeproxy'] });
  t.is(readFile(node.state, DAEMON_JSON)!.toString('utf8'), `${JSON.stringify(config, null, 2)}\n`);
  ['docker', 'kubelet', 'kubeproxy'].forEach((n, i) => {
    t.is(node.state.services[n]!.state, 'Running');
    t.not(node.state.services[n]!.pid, pids[i], `${n} got a new process`);
  });

  const again = await runPlaybook([node], pb);
  t.deepEqual(
    again.hosts.node009!.steps.map((s) => s.status),
    ['ok', 'skipped', 'skipped'],
  );
  t.regex(again.hosts.node009!.steps[1]!.error!, /^not triggered: config did not change/);
  t.is(again.hosts.node009!.status, 'ok');
});

test("dockerImage (docs/domain.md step 10): the pause image from the lab's plain-HTTP registry fails until docker is restarted to load daemon.json, then three runs", async (t) => {
  const pause = 'registry.lab.test:5000/pause:1809';
  const node = await startWindowsNode(t, { seed: withDocker });
  const id = node.state.dockerRegistry[pause]!.id;
  // Written while dockerd runs: the file changes, the daemon's settings do not (docs/domain.md#step-5-docker: a changed daemon.json needs a restart).
  await threeRuns(t, node, () =>
    dockerDaemonConfig({ config: { bridge: 'none', 'insecure-registries': ['registry.lab.test:5000'] } }),
  );
  const early = await runOne(node, dockerImage({ reference: pause }));
  t.like(early, { status: 'failed', action: 'create', fields: ['image'] });
  t.regex(
    early.error!,
    /^docker image registry\.lab\.test:5000\/pause:1809: docker pull failed \(exit \d+\): Error response from daemon: Get https:\/\/registry\.lab\.test:5000\/v2\/: http: server gave HTTP response to HTTPS client$/,
  );
  t.deepEqual(node.state.dockerImages, []);

  const restart = await runOne(
    node,
    windowsService({
      name: 'docker',
      binPath: '"C:\\Program Files\\Docker\\dockerd.exe" --run-service',
      state: 'running',
      restart: true,
    }),
  );
  t.is(restart.status, 'changed', restart.error ?? '');
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, ['registry.lab.test:5000']);

  const { check } = await threeRuns(
    t,
    node,
    () => dockerImage({ reference: pause }),
    () => {
      t.deepEqual(node.state.dockerImages, [{ reference: pause, id }]);
    },
  );
  t.like(check, {
    kind: 'windows.dockerImage',
    title: `docker image ${pause}`,
    action: 'create',
    fields: ['image'],
    before: null,
    after: { image: pause },
  });
  t.is(check.warnings, undefined, 'the daemon answered');

  // The output a later task reads: the image ID (from the probe, as the image is already there).
  let seen: DockerImageOutputs | null = null;
  const pb = definePlaybook({
    name: 'pause-image',
    description: '',
    tasks: {
      pause: { on: 'windows', step: dockerImage({ reference: pause }) },
    },
  }).andThen({
    after: {
      on: 'windows',
      needs: ['pause'],
      step: (ctx) => {
        seen = ctx.output('pause');
        return timeZone({ id: 'UTC' });
      },
    },
  });
  const run = await runPlaybook([node], pb);
  t.is(run.hosts.node009!.status, 'ok');
  t.deepEqual(seen, { id });
});

test('fileContent: the bytes arrive exactly', async (t) => {
  const node = await startWindowsNode(t);
  const content = '{\n  "cniVersion": "0.2.0",\n  "name": "l2bridge"\r\n}\n\u00e9\u4e2d';
  await threeRuns(
    t,
    node,
    () => fileContent({ path: 'C:/k/cni/config/l2bridge.conf', content }),
    () => {
      t.deepEqual(readFile(node.state, 'C:\\k\\cni\\config\\l2bridge.conf'), Buffer.from(content, 'utf8'));
    },
  );
});

test('registryValue: String, DWord and MultiString values', async (t) => {
  const node = await startWindowsNode(t);
  const tcpip = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';
  await threeRuns(
    t,
    node,
    () => registryValue(NV_DOMAIN_VALUE),
    () => {
      t.like(getValue(node.state, tcpip, 'NV Domain'), { type: 'String', data: 'mylan.k8s' });
    },
  );
  await threeRuns(
    t,
    node,
    () => registryValue({ path: 'HKLM:\\SOFTWARE\\Play\\Test', name: 'Count', type: 'DWord', data: 4294967295 }),
    () => {
      t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Play\\Test', 'Count'), { type: 'DWord', data: 4294967295 });
    },
  );
  await threeRuns(
    t,
    node,
    () => registryValue({ path: 'HKLM:\\SOFTWARE\\Play\\Test', name: 'List', type: 'MultiString', data: ['a', 'b c'] }),
    () => {
      t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Play\\Test', 'List'), { type: 'MultiString', data: ['a', 'b c'] });
    },
  );
});

test('firewallRule, timeZone, ntpServers, autoUpdate (field note A)', async (t) => {
  const node = await startWindowsNode(t);
  await threeRuns(
    t,
    node,
    () => firewallRule(SSHD_FIREWALL_RULE),
    () => {
      t.deepEqual(node.state.firewall['sshd'], { name: 'sshd', ...SSHD_FIREWALL_RULE_ON_NODE });
    },
  );
  await threeRuns(
    t,
    node,
    () => timeZone({ id: 'China Standard Time' }),
    () => t.is(node.state.timeZone, 'China Standard Time'),
  );
  const servers = 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers';
  const { apply } = await threeRuns(
    t,
    node,
    () => ntpServers({ servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'] }),
    () => {
      const values = Object.fromEntries(
        Object.values(getKey(node.state, servers)!.values).map((v) => [v.name, v.data]),
      );
      t.deepEqual(values, { '(default)': '1', '1': 'ntp1.mylan.k8s', '2': 'ntp2.mylan.k8s' });
      const w32 = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\W32Time\\Parameters';
      t.like(getValue(node.state, w32, 'NtpServer'), { data: 'ntp1.mylan.k8s ntp2.mylan.k8s' });
      t.like(getValue(node.state, w32, 'Type'), { data: 'NTP' });
      t.like(node.state.services['w32time'], { startMode: 'Auto', state: 'Running' });
    },
  );
  t.deepEqual(apply.fields, ['servers', 'peers', 'w32time']);
  await threeRuns(
    t,
    node,
    () => autoUpdate({ enabled: false }),
    () => {
      t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU', 'NoAutoUpdate'), {
        type: 'DWord',
        data: 1,
      });
      t.is(node.state.services['wuauserv']!.state, 'Running');
    },
  );
});

test('hnsNetwork (the connection drops, the step converges) and hnsHostEndpoint (field note A)', async (t) => {
  const node = await startWindowsNode(t);
  await threeRuns(
    t,
    node,
    () => hnsNetwork(L2BRIDGE),
    () => {
      t.like(node.state.hns.networks, [L2BRIDGE]);
      t.true(node.sim.stats.dropped >= 1, 'the creation dropped the connection');
    },
  );
  await threeRuns(
    t,
    node,
    () => hnsHostEndpoint(CBR0_HOST_ENDPOINT),
    () => {
      t.like(node.state.hns.endpoints, [
        { name: 'cbr0', networkName: 'l2bridge', ipAddress: '10.160.11.2', compartmentId: 1, forwarding: true },
      ]);
    },
  );
});

test('windowsService (field note A kubelet): binPath with quotes, start mode, dependency, account; started', async (t) => {
  const node = await startWindowsNode(t, {
    seed: (s) => {
      withDocker(s);
      writeFile(s, 'C:\\Program Files\\k\\kubelet.exe', Buffer.from('kubelet'));
    },
  });
  const binPath =
    '"C:\\Program Files\\k\\kubelet.exe" --resolv-conf="" --enforce-node-allocatable="" --windows-service';
  const make = () =>
    windowsService({
      name: 'kubelet',
      binPath,
      displayName: 'Kubernetes Node Agent',
      startMode: 'auto',
      dependencies: ['docker'],
      account: 'NT AUTHORITY\\NetworkService',
      state: 'running',
    });
  const { apply } = await threeRuns(t, node, make, () => {
    t.like(node.state.services['kubelet'], {
      binPath,
      displayName: 'Kubernetes Node Agent',
      startMode: 'Auto',
      dependencies: ['docker'],
      account: 'NT AUTHORITY\\NetworkService',
      state: 'Running',
    });
  });
  t.is(apply.action, 'create');
  const stop = await runOne(
    node,
    windowsService({
      name: 'docker',
      binPath: '"C:\\Program Files\\Docker\\dockerd.exe" --run-service',
      state: 'stopped',
    }),
  );
  t.is(stop.status, 'failed');
  t.regex(
    stop.error!,
    /docker cannot be stopped while services that depend on it run: kubelet/,
    'field note B: a stop with running dependents fails, naming them',
  );
  t.is(node.state.services['docker']!.state, 'Running');
});

test('nssmService (seeds 000/003): installed with parameters holding quotes and a dependency', async (t) => {
  const node = await startWindowsNode(t, {
    seed: (s) => {
      withDocker(s);
      writeFile(s, 'C:\\k\\nssm.exe', Buffer.from('nssm'));
      writeFile(s, 'C:\\k\\kubelet.exe', Buffer.from('kubelet'));
    },
  });
  await threeRuns(
    t,
    node,
    () => nssmService(KUBELET_NSSM_SERVICE),
    () => {
      t.deepEqual(node.state.nssm['kubelet'], KUBELET_NSSM_RECORD);
      t.like(node.state.services['kubelet'], { binPath: 'C:\\k\\nssm.exe', dependencies: ['docker'] });
    },
  );
});
