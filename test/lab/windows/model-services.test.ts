// The simulated Windows node's services (a test double of the SCM, sc.exe and nssm): the texts of
// docs/field-notes.md#b-sc-qc-and-nssm-get, the dependency rules of stop/restart/start, sc create/config errors.
import { readFileSync } from 'node:fs';
import test from 'ava';
import { writeFile } from '../../../lab/windows/file-store.js';
import type { NodeState } from '../../../lab/windows/node-state.js';
import { model, run } from './helpers.js';

const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
/** The field notes show sc.exe's output with LF line ends and trailing blanks lost. */
const asInNotes = (raw: string) =>
  raw
    .split('\r\n')
    .map((l) => l.trimEnd())
    .join('\n');
const qc = async (node: ReturnType<typeof model>, name: string) =>
  asInNotes(((await run(node, 'Get-PlayService', { name })) as { qc: string }).qc);

/** Field note B's node: docker running, kubelet (nssm, depends on docker), kubeproxy (depends on kubelet). */
function seed000(s: NodeState): void {
  s.features['containers']!.installState = 'Installed';
  s.docker = { install: 'installed', version: '19.03.5' };
  writeFile(s, 'C:\\Program Files\\Docker\\dockerd.exe', Buffer.from('dockerd'));
  writeFile(s, 'C:\\k\\nssm.exe', Buffer.from('nssm'));
  writeFile(s, 'C:\\k\\kube-proxy.exe', Buffer.from('kube-proxy'));
  s.services['docker'] = {
    name: 'docker',
    displayName: 'Docker Engine',
    binPath: '"C:\\Program Files\\Docker\\dockerd.exe" --run-service',
    type: 'own',
    startMode: 'Auto',
    account: 'LocalSystem',
    dependencies: [],
    state: 'Stopped',
    pid: 0,
    win32ExitCode: 1077,
    pausable: false,
  };
}

async function kubeletNode(t: import('ava').ExecutionContext) {
  const node = model(t, seed000);
  await run(node, 'Set-PlayServiceState', { name: 'docker', action: 'start' });
  await run(node, 'Set-PlayNssmService', {
    name: 'kubelet',
    install: true,
    application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
    appParameters: 'c:\\k\\kubeletstart.ps1',
    dependOnService: ['docker'],
  });
  await run(node, 'Set-PlayService', { name: 'kubelet', create: false, displayName: 'Kubelet' });
  await run(node, 'Set-PlayServiceState', { name: 'kubelet', action: 'start' });
  await run(node, 'Set-PlayService', {
    name: 'kubeproxy',
    create: true,
    binPath: 'C:\\k\\kube-proxy.exe --windows-service',
    dependencies: ['kubelet'],
    startMode: 'Auto',
  });
  await run(node, 'Set-PlayServiceState', { name: 'kubeproxy', action: 'start' });
  return node;
}

test("sc qc and sc queryex of field note B's kubelet are the field note's text, line for line", async (t) => {
  const node = await kubeletNode(t);
  node.state.services['kubelet']!.pid = 4044; // the note's PID; ours are allocated
  const r = (await run(node, 'Get-PlayService', { name: 'kubelet' })) as {
    qc: string;
    queryex: string;
    dependents: string[];
  };
  t.is(asInNotes(r.qc), fixture('seed000-sc-qc-kubelet.txt'));
  t.is(asInNotes(r.queryex), fixture('seed000-sc-queryex-kubelet.txt'));
  // Raw, as sc.exe prints it: CRLF, and the blank after an empty field.
  t.true(r.qc.startsWith('[SC] QueryServiceConfig SUCCESS\r\n\r\nSERVICE_NAME: kubelet\r\n'));
  t.true(r.qc.includes('        LOAD_ORDER_GROUP   : \r\n'));
  t.deepEqual(r.dependents, ['kubeproxy']);
  // nssm prints UTF-16LE lines ending in CRLF (decoded by the steps' function).
  t.deepEqual(await run(node, 'Get-PlayNssmService', { name: 'KUBELET' }), {
    Application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe\r\n',
    AppParameters: 'c:\\k\\kubeletstart.ps1\r\n',
    AppDirectory: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\r\n',
    DependOnService: 'docker\r\n',
  });
  const docker = (await run(node, 'Get-PlayService', { name: 'docker' })) as {
    qc: string;
    queryex: string;
    dependents: string[];
  };
  t.deepEqual(
    docker.dependents,
    ['kubeproxy', 'kubelet'],
    'transitive, in stop order, as ServiceController.DependentServices lists them',
  );
  t.regex(docker.queryex, /STATE +: 4 {2}RUNNING\r\n {32}\(STOPPABLE, NOT_PAUSABLE, ACCEPTS_SHUTDOWN\)/);
  t.is(await run(node, 'Get-PlayService', { name: 'nosuch' }), null);
});

test("stopping a service that running services depend on fails with the steps' function's message (naming the running dependents) and stops nothing", async (t) => {
  const node = await kubeletNode(t);
  const pids = ['docker', 'kubelet', 'kubeproxy'].map((n) => node.state.services[n]!.pid);
  const e = await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'kubelet', action: 'stop' }));
  t.is(e!.message, 'kubelet cannot be stopped while services that depend on it run: kubeproxy (stop them first)');
  t.deepEqual(
    ['docker', 'kubelet', 'kubeproxy'].map((n) => node.state.services[n]!.pid),
    pids,
  );
  t.true(['docker', 'kubelet', 'kubeproxy'].every((n) => node.state.services[n]!.state === 'Running'));
  // Once the dependent is stopped, the stop goes through; stopping a stopped service is a no-op.
  t.like(await run(node, 'Set-PlayServiceState', { name: 'kubeproxy', action: 'stop' }), { state: 'Stopped', pid: 0 });
  t.like(await run(node, 'Set-PlayServiceState', { name: 'kubelet', action: 'stop' }), {
    state: 'Stopped',
    pid: 0,
    restartedDependents: [],
  });
  t.like(await run(node, 'Set-PlayServiceState', { name: 'kubelet', action: 'stop' }), { state: 'Stopped' });
  t.regex(
    ((await run(node, 'Get-PlayService', { name: 'kubelet' })) as { queryex: string }).queryex,
    /STATE +: 1 {2}STOPPED\r\n +WIN32_EXIT_CODE +: 0 {2}\(0x0\)/,
  );
});

test('a restart stops the running dependents first, transitively, starts them again after, and reports them', async (t) => {
  const node = await kubeletNode(t);
  const before = Object.fromEntries(['docker', 'kubelet', 'kubeproxy'].map((n) => [n, node.state.services[n]!.pid]));
  const r = (await run(node, 'Set-PlayServiceState', { name: 'docker', action: 'restart' })) as {
    state: string;
    pid: number;
    restartedDependents: string[];
  };
  t.is(r.state, 'Running');
  t.deepEqual(r.restartedDependents, ['kubelet', 'kubeproxy'], 'in start order: what others depend on first');
  for (const n of ['docker', 'kubelet', 'kubeproxy']) {
    t.is(node.state.services[n]!.state, 'Running');
    t.not(node.state.services[n]!.pid, before[n], `${n} has a new process`);
  }
  t.true(
    node.state.services['kubelet']!.pid < node.state.services['kubeproxy']!.pid,
    'kubelet started before kubeproxy',
  );
  // A stopped dependent stays stopped and is not reported.
  await run(node, 'Set-PlayServiceState', { name: 'kubeproxy', action: 'stop' });
  t.deepEqual(
    (
      (await run(node, 'Set-PlayServiceState', { name: 'docker', action: 'restart' })) as {
        restartedDependents: string[];
      }
    ).restartedDependents,
    ['kubelet'],
  );
  t.is(node.state.services['kubeproxy']!.state, 'Stopped');
});

test("start starts dependencies first; disabled, missing dependencies and missing binaries fail with the SCM reason (inside .NET's exception)", async (t) => {
  const node = await kubeletNode(t);
  for (const n of ['kubeproxy', 'kubelet', 'docker'])
    await run(node, 'Set-PlayServiceState', { name: n, action: 'stop' });
  t.like(await run(node, 'Set-PlayServiceState', { name: 'kubeproxy', action: 'start' }), { state: 'Running' });
  t.is(node.state.services['docker']!.state, 'Running', 'the dependency chain came up');
  await run(node, 'Set-PlayService', { name: 'w', create: true, binPath: 'C:\\k\\missing.exe' });
  t.is(
    (await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'w', action: 'start' })))!.message,
    'w cannot start: The system cannot find the file specified. (Win32 error 2)',
  );
  await run(node, 'Set-PlayService', { name: 'v', create: true, binPath: 'C:\\k\\nssm.exe', dependencies: ['w'] });
  t.is(
    (await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'v', action: 'start' })))!.message,
    'v cannot start: The dependency service or group failed to start. (Win32 error 1068)',
  );
  await run(node, 'Set-PlayService', { name: 'v', create: false, dependencies: ['nosuch'] });
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'v', action: 'start' })))!.message,
    /^v cannot start: The dependency service does not exist or has been marked for deletion\. \(Win32 error 1075\)$/,
  );
  await run(node, 'Set-PlayService', { name: 'v', create: false, dependencies: [], startMode: 'Disabled' });
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'v', action: 'start' })))!.message,
    /^v cannot start: The service cannot be started, either because it is disabled .*\(Win32 error 1058\)$/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'nosuch', action: 'start' })))!.message,
    /^Cannot find any service with service name 'nosuch'\.$/,
  );
});

test('sc create and sc config: duplicates, unknown services, circular dependencies and accounts fail as on Windows', async (t) => {
  const node = await kubeletNode(t);
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayService', { name: 'KUBELET', create: true, binPath: 'x.exe' })))!.message,
    /CreateService FAILED 1073/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayService', { name: 'nosuch', create: false, startMode: 'Auto' })))!.message,
    /OpenService FAILED 1060/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayService', { name: 'docker', create: false, dependencies: ['kubeproxy'] })))!
      .message,
    /ChangeServiceConfig FAILED 1059:\r\n\r\nCircular/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayService', { name: 'kubeproxy', create: false, account: '.\\svc-kube' })))!
      .message,
    /Win32_Service\.Change returned 22/,
  );
  await run(node, 'Set-PlayService', { name: 'kubeproxy', create: false, account: 'NT AUTHORITY\\NetworkService' });
  await run(node, 'Set-PlayService', {
    name: 'kubeproxy',
    create: false,
    account: '.\\svc-kube',
    password: 'n0t-kept',
  });
  t.regex(await qc(node, 'kubeproxy'), /SERVICE_START_NAME : \.\\svc-kube\n$/);
  t.false(JSON.stringify(node.state).includes('n0t-kept'), 'the password is not in the model or its state file');
  await run(node, 'Set-PlayService', { name: 'kubeproxy', create: false, dependencies: ['docker', 'kubelet'] });
  t.regex(await qc(node, 'kubeproxy'), /DEPENDENCIES {7}: docker\n {27}: kubelet\n/);
});

test('nssm: needs nssm.exe, refuses a second install, reports a service it does not manage as null', async (t) => {
  const node = await kubeletNode(t);
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayNssmService', { name: 'kubelet', install: true, application: 'x.exe' })))!
      .message,
    /^nssm install kubelet failed \(exit 5\): Error creating service!\r\nCreateService\(\): The specified service already exists\.$/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayNssmService', { name: 'nosuch', install: false, appParameters: 'x' })))!
      .message,
    /Can't open service!/,
  );
  t.is(await run(node, 'Get-PlayNssmService', { name: 'kubeproxy' }), null);
  t.regex(
    (await t.throwsAsync(
      run(node, 'Set-PlayNssmService', { name: 'kubelet', install: false, dependOnService: ['kubeproxy'] }),
    ))!.message,
    /^nssm set kubelet failed \(exit 3\): .*\r\nChangeServiceConfig\(\): Circular service dependency was specified\.$/,
  );
  await run(node, 'Set-PlayNssmService', {
    name: 'kubelet',
    install: false,
    appParameters: '--feature-gates="HyperVContainer=true"',
    dependOnService: ['docker'],
  });
  t.like(await run(node, 'Get-PlayNssmService', { name: 'kubelet' }), {
    AppParameters: '--feature-gates="HyperVContainer=true"\r\n',
    DependOnService: 'docker\r\n',
  });
  await run(node, 'Set-PlayNssmService', { name: 'kubelet', install: false, dependOnService: ['docker', 'W32Time'] });
  t.like(await run(node, 'Get-PlayNssmService', { name: 'kubelet' }), { DependOnService: 'docker\r\nW32Time\r\n' });
  t.regex(await qc(node, 'kubelet'), /DEPENDENCIES {7}: docker\n {27}: W32Time\n/);
  delete node.state.files['c:\\k\\nssm.exe'];
  t.is(
    (await t.throwsAsync(run(node, 'Set-PlayNssmService', { name: 'kubelet2', install: true, application: 'x.exe' })))!
      .message,
    'nssm.exe was not found (neither on the PATH nor as C:\\k\\nssm.exe)',
  );
  // A service whose binPath no longer runs nssm is not an nssm service.
  await run(node, 'Set-PlayService', {
    name: 'kubelet',
    create: false,
    binPath: 'C:\\k\\kubelet.exe --windows-service',
  });
  t.is(await run(node, 'Get-PlayNssmService', { name: 'kubelet' }), null);
});
