// Each step against the in-test model of a node (windows-model.ts): check mode reports the change
// and calls nothing that writes, apply makes it and the probe after it is a noop, the third run is
// a noop again (fake-node.ts threeRuns). Also: what each apply called, and its outputs.
import test from 'ava';
import { Secret } from '../../../runner/core/secret.js';
import {
  autoUpdate,
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
  registryValue,
  timeZone,
  windowsCapability,
  windowsFeature,
  windowsService,
} from '../../../tasks/windows/index.js';
import { FakeWindows, plan, threeRuns } from './fake-node.js';
import { fixture } from './fixtures.js';
import { WindowsModel } from './windows-model.js';

function node(setup: (m: WindowsModel) => void = () => {}): { m: WindowsModel; n: FakeWindows } {
  const m = new WindowsModel();
  setup(m);
  return { m, n: new FakeWindows(m.handlers()) };
}

const MSU = 'C:\\k\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu';

test('hotfix: installs with wusa (3010: rebootRequired), then noop while the reboot is pending', async (t) => {
  const { m, n } = node((m) => {
    m.files.set(MSU.toLowerCase(), Buffer.from('msu'));
    m.wusa = () => ({ exitCode: 3010, lists: false });
  });
  const r = await threeRuns(n, hotfix({ kb: 'kb4549949', msuPath: MSU }));
  t.is(r.first.action, 'create');
  t.deepEqual(r.applyCalls, ['Test-PlayPath', 'Install-PlayHotfix']);
  t.deepEqual(r.outputs, { rebootRequired: true });
  t.is(m.wusaRecords.get('KB4549949'), 3010);
  t.regex(
    (await plan(n, hotfix({ kb: 'KB4549949', msuPath: MSU }))).change.warnings![0]!,
    /completes with the next reboot/,
  );
});

test('hotfix: not applicable counts as satisfied only when asked; a missing .msu fails before wusa', async (t) => {
  const { n } = node((m) => {
    m.files.set(MSU.toLowerCase(), Buffer.from('msu'));
    m.wusa = () => ({ exitCode: -2145124329, lists: false });
  });
  const strict = hotfix({ kb: 'KB4549949', msuPath: MSU });
  const p = await plan(n, strict);
  await t.throwsAsync(strict.apply(n, p.change, p.actual), {
    message: /not applicable to this host, 0x80240017 \(-2145124329\).*notApplicable: 'satisfied'/,
  });
  const r = await threeRuns(
    new FakeWindows(
      node((m) => {
        m.files.set(MSU.toLowerCase(), Buffer.from('msu'));
        m.wusa = () => ({ exitCode: -2145124329, lists: false });
      }).m.handlers(),
    ),
    hotfix({ kb: 'KB4549949', msuPath: MSU, notApplicable: 'satisfied' }),
  );
  t.deepEqual(r.outputs, { rebootRequired: false });

  const { n: bare } = node();
  const h = hotfix({ kb: 'KB4549949', msuPath: MSU });
  const q = await plan(bare, h);
  t.regex(q.change.warnings![0]!, /is not on the host: apply will fail/);
  await t.throwsAsync(h.apply(bare, q.change, q.actual), {
    message: /update package C:\\k\\windows10\.0-kb4549949.*\.msu is not on the host: copy it there first/,
  });
  t.deepEqual(bare.namesSince(0), ['Get-PlayHotfix', 'Test-PlayPath']);
});

test('windowsFeature and windowsCapability: installed; a pending feature reports rebootRequired on later runs too', async (t) => {
  const { n } = node((m) => {
    m.features.set('Containers', 'Available');
    m.capabilities.set('OpenSSH.Server~~~~0.0.1.0', 'NotPresent');
  });
  const f = await threeRuns(n, windowsFeature({ name: 'Containers' }));
  t.deepEqual(f.outputs, { rebootRequired: true });
  const c = await threeRuns(n, windowsCapability({ name: 'OpenSSH.Server~~~~0.0.1.0' }));
  t.deepEqual(c.outputs, { rebootRequired: false });
  t.deepEqual(c.applyCalls, ['Add-PlayWindowsCapability']);
});

test('dockerEngine: a fresh install needs a reboot; the daemon down afterwards is a warning, not drift', async (t) => {
  const client = fixture('docker-version.txt').split('\nServer:')[0]!;
  const { m, n } = node((m) => {
    m.dockerAfterInstall = { text: `${client}\n${fixture('docker-error-during-connect.txt')}`, restartNeeded: true };
  });
  const r = await threeRuns(n, dockerEngine({ version: '19.03.0' }));
  t.deepEqual(r.outputs, { rebootRequired: true });
  t.regex((await plan(n, dockerEngine())).change.warnings![0]!, /daemon did not answer: error during connect/);
  m.docker.text = fixture('docker-version.txt').replace(/19\.03\.0/g, '19.03.5');
  const up = await plan(n, dockerEngine({ version: '19.03.0' }));
  t.deepEqual(up.change, {
    action: 'update',
    fields: ['version'],
    before: { version: '19.03.5' },
    after: { version: '19.03.0' },
  });
});

test('dockerImage (docs/domain.md step 10, the pause image): check reports create, apply pulls, the next run is a noop; outputs the id', async (t) => {
  const pause = 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973';
  const id = `sha256:${'4e'.repeat(32)}`;
  const { m, n } = node((m) => {
    m.registryImages.set(pause, id);
  });
  const r = await threeRuns(n, dockerImage({ reference: pause }));
  t.deepEqual(r.first, { action: 'create', fields: ['image'], before: null, after: { image: pause } });
  t.deepEqual(r.applyCalls, ['Invoke-PlayDockerPull']);
  t.deepEqual(r.outputs, { id });
  t.is(m.images.get(pause), id);
  t.deepEqual(
    n.calls.filter((c) => c.fn === 'Invoke-PlayDockerPull').map((c) => c.args),
    [{ reference: pause }],
  );

  const missing = dockerImage({ reference: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.1158' });
  const p = await plan(n, missing);
  await t.throwsAsync(missing.apply(n, p.change, p.actual), {
    message:
      /^docker image repo\.mylan\.k8s:8888\/q1winpause:10\.0\.17763\.1158: docker pull failed \(exit 1\): Error response from daemon: manifest for .* not found: manifest unknown/,
  });
});

test('dockerImage: with the daemon down the plan is still a create, with a warning; the pull fails naming the step and docker', async (t) => {
  const pause = 'registry.lab.test:5000/pause:1809';
  const { n } = node((m) => {
    m.dockerRunning = false;
    m.registryImages.set(pause, `sha256:${'0'.repeat(64)}`);
  });
  const step = dockerImage({ reference: pause });
  const p = await plan(n, step);
  t.like(p.change, {
    action: 'create',
    fields: ['image'],
    warnings: ['docker is not running on the host: the pull will fail unless docker is started first'],
  });
  t.deepEqual(p.actual, { daemonRunning: false, image: null });
  await t.throwsAsync(step.apply(n, p.change, p.actual), {
    message:
      /^docker image registry\.lab\.test:5000\/pause:1809: docker pull failed \(exit 1\): error during connect: .*docker daemon is not running\.$/,
  });
});

test('dockerDaemonConfig: written once; reformatting or reordering is not drift; invalid JSON is; output changed', async (t) => {
  const { m, n } = node();
  const config = { bridge: 'none', 'insecure-registries': ['repo.mylan.k8s:8888', 'repo.mylan.k8s:9999'] };
  const r = await threeRuns(n, dockerDaemonConfig({ config }));
  t.deepEqual(r.outputs, { changed: true });
  t.is(m.files.get('c:\\programdata\\docker\\config\\daemon.json')!.toString(), `${JSON.stringify(config, null, 2)}\n`);
  m.files.set(
    'c:\\programdata\\docker\\config\\daemon.json',
    Buffer.from('{"insecure-registries":["repo.mylan.k8s:8888","repo.mylan.k8s:9999"],\r\n "bridge":"none"}'),
  );
  t.is((await plan(n, dockerDaemonConfig({ config }))).change.action, 'noop');
  m.files.set('c:\\programdata\\docker\\config\\daemon.json', Buffer.from('\uFEFF{"bridge":"none"}'));
  const bad = await plan(n, dockerDaemonConfig({ config }));
  t.like(bad.change, { action: 'update', fields: ['config'] });
  t.regex(String(bad.change.before!.config), /^not valid JSON/);
});

test('fileContent: a secret is written but never shown; a file changed behind the plan is not overwritten', async (t) => {
  const { m, n } = node();
  const secret = new Secret('token: s3cr3t-value\n', 'env:TOKEN');
  const step = fileContent({ path: 'C:/k/token.yaml', content: secret });
  const r = await threeRuns(n, step);
  t.deepEqual(r.first.after, { content: '********' });
  t.is(r.first.textDiff, undefined);
  t.is(m.files.get('c:\\k\\token.yaml')!.toString(), 'token: s3cr3t-value\n');
  t.false(
    n.programs.some((p) => p.includes('s3cr3t-value')),
    'the content travels base64 in the program',
  );
  t.true(
    n.calls.some((c) => c.fn === 'Get-PlayFile' && c.args.maxBytes === 0),
    'secret content is not fetched',
  );

  const text = fileContent({ path: 'C:\\k\\cni\\config\\l2bridge.conf', content: 'a\n' });
  const p = await plan(n, text);
  m.files.set('c:\\k\\cni\\config\\l2bridge.conf', Buffer.from('someone else\n'));
  await t.throwsAsync(text.apply(n, p.change, p.actual), { message: /changed since it was probed: not overwritten/ });
});

test('registryValue, firewallRule, timeZone, ntpServers, autoUpdate', async (t) => {
  const { m, n } = node();
  await threeRuns(
    n,
    registryValue({
      path: 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters',
      name: 'NV Domain',
      type: 'String',
      data: 'mylan.k8s',
    }),
  );
  t.deepEqual(m.registry.get('hklm:\\system\\currentcontrolset\\services\\tcpip\\parameters|nv domain'), {
    type: 'String',
    data: 'mylan.k8s',
  });
  await threeRuns(
    n,
    firewallRule({ name: 'sshd', displayName: 'OpenSSH Server (sshd)', protocol: 'TCP', localPort: 22 }),
  );
  await threeRuns(n, timeZone({ id: 'China Standard Time' }));
  const ntp = await threeRuns(n, ntpServers({ servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'] }));
  t.deepEqual(ntp.first.fields, ['servers', 'peers', 'w32time']);
  await threeRuns(n, autoUpdate({ enabled: false }));
  t.is(m.au.noAutoUpdate, 1);
});

test('hnsNetwork and hnsHostEndpoint (field note A): created, attached with forwarding; outputs the ids', async (t) => {
  const { m, n } = node();
  const net = await threeRuns(
    n,
    hnsNetwork({
      name: 'l2bridge',
      type: 'L2Bridge',
      addressPrefix: '10.160.11.0/24',
      gateway: '10.160.11.1',
      adapterName: 'eth1',
    }),
  );
  t.deepEqual(net.outputs, { id: m.networks.get('l2bridge')!.id });
  const ep = await threeRuns(
    n,
    hnsHostEndpoint({ name: 'cbr0', network: 'l2bridge', addressPrefix: '10.160.11.0/24', ipAddress: '10.160.11.2' }),
  );
  t.deepEqual(ep.applyCalls, ['New-PlayHnsEndpoint', 'Set-PlayHnsEndpointHost']);
  t.like(m.endpoints.get('cbr0'), { ipAddress: '10.160.11.2', gateway: '0.0.0.0', compartmentId: 1, forwarding: true });
  m.endpoints.get('cbr0')!.forwarding = false;
  const drift = await threeRuns(
    n,
    hnsHostEndpoint({ name: 'cbr0', network: 'l2bridge', addressPrefix: '10.160.11.0/24', ipAddress: '10.160.11.2' }),
  );
  t.deepEqual(drift.applyCalls, ['Set-PlayHnsEndpointHost']);
});

test('windowsService (field note A kubelet): created with sc.exe fields and started; the binPath arrives exactly', async (t) => {
  const { m, n } = node((m) => {
    m.services.set('docker', {
      name: 'docker',
      binPath: '"C:\\Program Files\\docker\\dockerd.exe" --run-service',
      displayName: 'Docker Engine',
      start: 'AUTO_START',
      deps: [],
      account: 'LocalSystem',
      state: 'RUNNING',
      pid: 1500,
    });
  });
  const binPath =
    '"C:\\Program Files\\k\\kubelet.exe" --resolv-conf="" --enforce-node-allocatable="" --windows-service';
  const r = await threeRuns(
    n,
    windowsService({
      name: 'kubelet',
      binPath,
      displayName: 'Kubernetes Node Agent',
      startMode: 'auto',
      dependencies: ['docker'],
      state: 'running',
    }),
  );
  t.deepEqual(r.applyCalls, ['Set-PlayService', 'Set-PlayServiceState']);
  t.like(m.services.get('kubelet'), {
    binPath,
    displayName: 'Kubernetes Node Agent',
    start: 'AUTO_START',
    deps: ['docker'],
    state: 'RUNNING',
  });
  t.like(r.outputs, { state: 'Running', pid: m.services.get('kubelet')!.pid, restartedDependents: [] });
});

test('windowsService: the account with a secret password; restart of docker restarts kubelet too', async (t) => {
  const { m, n } = node((m) => {
    m.services.set('docker', {
      name: 'docker',
      binPath: 'C:\\docker\\dockerd.exe --run-service',
      displayName: 'Docker Engine',
      start: 'AUTO_START',
      deps: [],
      account: 'LocalSystem',
      state: 'RUNNING',
      pid: 1500,
    });
    m.services.set('kubelet', {
      name: 'kubelet',
      binPath: 'C:\\k\\kubelet.exe',
      displayName: 'kubelet',
      start: 'AUTO_START',
      deps: ['docker'],
      account: 'LocalSystem',
      state: 'RUNNING',
      pid: 1600,
    });
  });
  const password = new Secret('Pa55-w0rd!', 'env:SVC_PASSWORD');
  await threeRuns(
    n,
    windowsService({ name: 'kubelet', binPath: 'C:\\k\\kubelet.exe', account: '.\\svc-kube', password }),
  );
  t.is(m.services.get('kubelet')!.account, '.\\svc-kube');
  t.is(
    n.calls.find((c) => c.fn === 'Set-PlayService')!.args.password,
    'Pa55-w0rd!',
    'revealed only inside the program',
  );

  const restart = windowsService({
    name: 'docker',
    binPath: 'C:\\docker\\dockerd.exe --run-service',
    state: 'running',
    restart: true,
  });
  t.false(restart.converges);
  const p = await plan(n, restart);
  t.deepEqual(p.change.fields, ['restart']);
  t.is(p.change.action, 'run');
  const out = await restart.apply(n, p.change, p.actual);
  t.like(out, { state: 'Running', restartedDependents: ['kubelet'] });
  t.not(m.services.get('kubelet')!.pid, 1600);
});

test('nssmService (field notes B and D): installed with parameters holding quotes; drift in AppParameters is an update', async (t) => {
  const { m, n } = node();
  const params = '--hostname-override=node009 --resolv-conf="" --enforce-node-allocatable="" --cni-bin-dir=c:\\k\\cni';
  const r = await threeRuns(
    n,
    nssmService({
      name: 'kubelet',
      application: 'C:\\k\\kubelet.exe',
      appParameters: params,
      appDirectory: 'C:\\k',
      dependOnService: ['docker'],
    }),
  );
  t.deepEqual(r.applyCalls, ['Set-PlayNssmService']);
  t.deepEqual(m.nssm.get('kubelet'), {
    Application: 'C:\\k\\kubelet.exe',
    AppParameters: params,
    AppDirectory: 'C:\\k',
    DependOnService: ['docker'],
  });
  m.nssm.get('kubelet')!.AppParameters = 'c:\\k\\kubeletstart.ps1';
  const d = await plan(n, nssmService({ name: 'kubelet', application: 'C:\\k\\kubelet.exe', appParameters: params }));
  t.deepEqual(d.change, {
    action: 'update',
    fields: ['appParameters'],
    before: { appParameters: 'c:\\k\\kubeletstart.ps1' },
    after: { appParameters: params },
  });
});
