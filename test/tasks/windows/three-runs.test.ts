// Each step against the simulated Windows node (lab/windows/, in process: sim-node.ts): check mode
// reports the change and calls nothing that writes, apply makes it and the probe after it is a noop,
// the third run is a noop again (step-runs.ts threeRuns). Also: what each apply called, and its
// outputs. What the node is like (a DISM that says not applicable, a daemon down) is model state.
import test from 'ava';
import { Secret } from '../../../runner/core/secret.js';
import { dockerDaemonConfig, dockerImage, fileContent, hotfix, windowsService } from '../../../tasks/windows/index.js';
import { readFile, writeFile } from '../../../lab/windows/file-store.js';
import { getValue } from '../../../lab/windows/registry-store.js';
import { DAEMON_JSON } from '../../../lab/windows/services.js';
import type { MsuRecord, NodeState } from '../../../lab/windows/node-state.js';
import { callsOf } from './calls-literal.js';
import { addService, simulatedNode, withDocker } from './sim-node.js';
import { plan, threeRuns } from './step-runs.js';

/** KB4549949's package (lab/windows/defaults.ts knows it: build 17763.1158), copied to C:\k. */
const MSU_NAME = 'windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu';
const MSU = `C:\\k\\${MSU_NAME}`;
const withMsu = (s: NodeState) => writeFile(s, MSU, Buffer.from('MSCF simulated update package KB4549949\n'));
const serviceOf = (s: NodeState, name: string) => s.services[name.toLowerCase()];
/** KB4549949's catalogue entry changed (a copy: a fresh node's entries are shared constants of defaults.ts). */
const msuEntry = (s: NodeState, more: Partial<MsuRecord>) => {
  const key = MSU_NAME.toLowerCase();
  s.msuCatalogue[key] = { ...s.msuCatalogue[key]!, ...more };
};

test('hotfix: installs with DISM (3010: rebootRequired), then noop while the reboot is pending', async (t) => {
  // This package is one Get-HotFix does not list before the reboot that completes it (docs/domain.md#hotfix-to-a-pinned-build).
  const { node, n } = simulatedNode(t, (s) => {
    withMsu(s);
    msuEntry(s, { listedBeforeReboot: false });
  });
  const r = await threeRuns(n, hotfix({ kb: 'kb4549949', msuPath: MSU }));
  t.is(r.first.action, 'create');
  t.deepEqual(r.applyCalls, ['Test-PlayPath', 'Install-PlayHotfix']);
  // The package identity the install recorded (a rollback removes the update by it).
  t.deepEqual(r.outputs, {
    rebootRequired: true,
    packageName: 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1158.1.7',
  });
  t.is(getValue(node.state, 'HKLM:\\SOFTWARE\\Play\\Hotfixes', 'KB4549949')?.data, '3010');
  t.regex(
    (await plan(n, hotfix({ kb: 'KB4549949', msuPath: MSU }))).change.warnings![0]!,
    /completes with the next reboot/,
  );
});

test('hotfix: not applicable counts as satisfied only when asked; a missing .msu fails before DISM', async (t) => {
  // DISM says 0x800f081e for this package (lab/windows/README.md, hotfixes).
  const notApplicable = (s: NodeState) => {
    withMsu(s);
    msuEntry(s, { notApplicable: true });
  };
  const { n } = simulatedNode(t, notApplicable);
  const strict = hotfix({ kb: 'KB4549949', msuPath: MSU });
  const p = await plan(n, strict);
  await t.throwsAsync(strict.apply(n, p.change, p.actual, strict.desired), {
    message: /not applicable to this host, 0x800F081E \(-2146498530\).*notApplicable: 'satisfied'/,
  });
  const r = await threeRuns(
    simulatedNode(t, notApplicable).n,
    hotfix({ kb: 'KB4549949', msuPath: MSU, notApplicable: 'satisfied' }),
  );
  t.deepEqual(r.outputs, { rebootRequired: false, packageName: null });

  const { n: bare } = simulatedNode(t);
  const h = hotfix({ kb: 'KB4549949', msuPath: MSU });
  const q = await plan(bare, h);
  t.regex(q.change.warnings![0]!, /is not on the host: apply will fail/);
  await t.throwsAsync(h.apply(bare, q.change, q.actual, h.desired), {
    message: /update package C:\\k\\windows10\.0-kb4549949.*\.msu is not on the host: copy it there first/,
  });
  t.deepEqual(bare.namesSince(0), ['Get-PlayHotfix', 'Test-PlayPath']);
});

test('hotfix: a failing DISM fails the step with its code and text; the extracted files are removed', async (t) => {
  // The node told to fail DISM (lab/windows/README.md, faults): 0x800f0922 CBS_E_INSTALLERS_FAILED.
  const { node, n } = simulatedNode(t, (s) => {
    withMsu(s);
    s.failDism = -2146498270;
  });
  const h = hotfix({ kb: 'KB4549949', msuPath: MSU });
  const p = await plan(n, h);
  await t.throwsAsync(h.apply(n, p.change, p.actual, h.desired), {
    message:
      /DISM failed to add KB4549949 from C:\\k\\.*\.msu: exit 0x800F0922 \(-2146498270\): CBS_E_INSTALLERS_FAILED.*DISM failed\. No operation was performed/,
  });
  const temp = (k: string) => k.includes('\\appdata\\local\\temp\\');
  t.deepEqual([...Object.keys(node.state.files), ...Object.keys(node.state.directories)].filter(temp), []);
  t.deepEqual(node.state.pending, []);
  t.is(getValue(node.state, 'HKLM:\\SOFTWARE\\Play\\Hotfixes', 'KB4549949')?.data, '-2146498270');
});

test('dockerImage (docs/domain.md step 10, the pause image): check reports create, apply pulls, the next run is a noop; outputs the id', async (t) => {
  const pause = 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973';
  const id = `sha256:${'4e'.repeat(32)}`;
  const { node, n } = simulatedNode(t, (s) => {
    withDocker(s);
    s.dockerRegistry[pause] = { id, http: false };
  });
  const r = await threeRuns(n, dockerImage({ reference: pause }));
  t.deepEqual(r.first, { action: 'create', fields: ['image'], before: null, after: { image: pause } });
  t.deepEqual(r.applyCalls, ['Invoke-PlayDockerPull']);
  t.deepEqual(r.outputs, { id });
  t.is(node.state.dockerImages.find((i) => i.reference === pause)?.id, id);
  t.deepEqual(
    n.calls.filter((c) => c.fn === 'Invoke-PlayDockerPull').map((c) => c.args),
    [{ reference: pause }],
  );

  const missing = dockerImage({ reference: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.1158' });
  const p = await plan(n, missing);
  await t.throwsAsync(missing.apply(n, p.change, p.actual, missing.desired), {
    message:
      /^docker image repo\.mylan\.k8s:8888\/q1winpause:10\.0\.17763\.1158: docker pull failed \(exit 1\): Error response from daemon: manifest for .* not found: manifest unknown/,
  });
});

test('dockerImage: with the daemon down the plan is still a create, with a warning; the pull fails naming the step and docker', async (t) => {
  // The lab registry holds the pause image (lab/windows/defaults.ts); the docker service is stopped.
  const pause = 'registry.lab.test:5000/pause:1809';
  const { n } = simulatedNode(t, (s) => withDocker(s, { running: false }));
  const step = dockerImage({ reference: pause });
  const p = await plan(n, step);
  t.like(p.change, {
    action: 'create',
    fields: ['image'],
    warnings: ['docker is not running on the host: the pull will fail unless docker is started first'],
  });
  t.deepEqual(p.actual, { daemonRunning: false, image: null });
  await t.throwsAsync(step.apply(n, p.change, p.actual, step.desired), {
    message:
      /^docker image registry\.lab\.test:5000\/pause:1809: docker pull failed \(exit 1\): error during connect: .*docker daemon is not running\.$/,
  });
});

test('dockerDaemonConfig: written once; reformatting or reordering is not drift; invalid JSON is; output changed', async (t) => {
  const { node, n } = simulatedNode(t);
  const config = { bridge: 'none', 'insecure-registries': ['repo.mylan.k8s:8888', 'repo.mylan.k8s:9999'] };
  const r = await threeRuns(n, dockerDaemonConfig({ config }));
  t.deepEqual(r.outputs, { changed: true });
  t.is(readFile(node.state, DAEMON_JSON)!.toString(), `${JSON.stringify(config, null, 2)}\n`);
  writeFile(
    node.state,
    DAEMON_JSON,
    Buffer.from('{"insecure-registries":["repo.mylan.k8s:8888","repo.mylan.k8s:9999"],\r\n "bridge":"none"}'),
  );
  t.is((await plan(n, dockerDaemonConfig({ config }))).change.action, 'noop');
  writeFile(node.state, DAEMON_JSON, Buffer.from('\uFEFF{"bridge":"none"}'));
  const bad = await plan(n, dockerDaemonConfig({ config }));
  t.like(bad.change, { action: 'update', fields: ['config'] });
  t.regex(String(bad.change.before!.config), /^not valid JSON/);
});

test('fileContent: a secret is written but never shown; a file changed behind the plan is not overwritten', async (t) => {
  const { node, n } = simulatedNode(t);
  const secret = new Secret('token: s3cr3t-value\n', 'env:TOKEN');
  const step = fileContent({ path: 'C:/k/token.yaml', content: secret });
  const r = await threeRuns(n, step);
  t.deepEqual(r.first.after, { content: '********' });
  t.is(r.first.textDiff, undefined);
  t.is(readFile(node.state, 'C:\\k\\token.yaml')!.toString(), 'token: s3cr3t-value\n');
  t.false(
    n.programs.some((p) => p.includes('s3cr3t-value')),
    'the content travels base64 in the program',
  );
  t.true(
    n.calls.some((c) => c.fn === 'Get-PlayFile' && (c.args as { maxBytes: number }).maxBytes === 0),
    'secret content is not fetched',
  );

  const text = fileContent({ path: 'C:\\k\\cni\\config\\l2bridge.conf', content: 'a\n' });
  const p = await plan(n, text);
  writeFile(node.state, 'C:\\k\\cni\\config\\l2bridge.conf', Buffer.from('someone else\n'));
  await t.throwsAsync(text.apply(n, p.change, p.actual, text.desired), {
    message: /changed since it was probed \(sha256 [0-9a-f]{64}, planned for absent\): not overwritten/,
  });
});

test('windowsService (field note A kubelet): created with sc.exe fields and started; the binPath arrives exactly', async (t) => {
  const { node, n } = simulatedNode(t, (s) => {
    withDocker(s, { binPath: '"C:\\Program Files\\docker\\dockerd.exe" --run-service' });
    writeFile(s, 'C:\\Program Files\\k\\kubelet.exe', Buffer.from('simulated kubelet.exe\n'));
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
  const kubelet = serviceOf(node.state, 'kubelet')!;
  t.like(kubelet, {
    binPath,
    displayName: 'Kubernetes Node Agent',
    startMode: 'Auto',
    dependencies: ['docker'],
    state: 'Running',
  });
  t.like(r.outputs, { state: 'Running', pid: kubelet.pid, restartedDependents: [] });
});

test('windowsService: the account with a secret password; restart of docker restarts kubelet too', async (t) => {
  const { node, n } = simulatedNode(t, (s) => {
    withDocker(s, { binPath: 'C:\\docker\\dockerd.exe --run-service' });
    addService(s, {
      name: 'kubelet',
      binPath: 'C:\\k\\kubelet.exe',
      startMode: 'Auto',
      dependencies: ['docker'],
      state: 'Running',
    });
  });
  const password = new Secret('Pa55-w0rd!', 'env:SVC_PASSWORD');
  await threeRuns(
    n,
    windowsService({ name: 'kubelet', binPath: 'C:\\k\\kubelet.exe', account: '.\\svc-kube', password }),
  );
  t.is(serviceOf(node.state, 'kubelet')!.account, '.\\svc-kube');
  t.is(
    n.programs.flatMap(callsOf).find((c) => c.fn === 'Set-PlayService')!.args.password,
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
  const pid = serviceOf(node.state, 'kubelet')!.pid;
  const out = await restart.apply(n, p.change, p.actual, restart.desired);
  t.like(out, { state: 'Running', restartedDependents: ['kubelet'] });
  t.not(serviceOf(node.state, 'kubelet')!.pid, pid);
});
