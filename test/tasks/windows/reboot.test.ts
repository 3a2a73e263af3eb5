// The reboot state machine against a scripted node and a fake clock: the connection drops and is
// refused while the host is away, LastBootUpTime must change, services must run, all within the
// timeout; and the calls that can drop the connection (reboot, HNS network creation) survive it.
import test from 'ava';
import { UnreachableError } from '../../../runner/core/errors.js';
import { ConnectionLostError, HandshakeError } from '../../../runner/transport/errors.js';
import { hnsNetwork, reboot } from '../../../tasks/windows/index.js';
import { exitCodeText, wusaOutcome } from '../../../tasks/windows/hotfix.js';
import { FakeWindows, plan } from './fake-node.js';
import { queryexText, WindowsModel, type Svc } from './windows-model.js';

function clock() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
    elapsed: () => now - 1_000_000,
  };
}

const OLD = '2020-05-08T00:36:41.0000000Z';
const NEW = '2020-05-09T02:00:03.5000000Z';
const os = (boot: string) => ({
  caption: 'Windows Server 2019',
  version: '10.0.17763',
  build: 17763,
  revision: 1158,
  lastBootUpTime: boot,
  pendingReboot: boot === OLD,
});
const docker = (state: Svc['state']): Svc => ({
  name: 'docker',
  binPath: 'dockerd.exe',
  displayName: 'Docker',
  start: 'AUTO_START',
  deps: [],
  account: 'LocalSystem',
  state,
  pid: 7,
});

/** A node that answers `script` in order for Get-PlayOsInfo (an Error is thrown as is) and docker's states after that. */
function scripted(
  osAnswers: (string | Error)[],
  dockerStates: Svc['state'][] = ['RUNNING'],
  restart: () => unknown = () => ({ scheduled: true }),
) {
  const seen: string[] = [];
  const node = new FakeWindows({
    'Get-PlayOsInfo': () => {
      const next = osAnswers.length > 1 ? osAnswers.shift()! : osAnswers[0]!;
      seen.push(next instanceof Error ? next.name : next);
      if (next instanceof Error) throw next;
      return os(next);
    },
    'Restart-PlayComputer': restart,
    'Get-PlayService': () => ({
      qc: '',
      queryex: queryexText(docker(dockerStates.length > 1 ? dockerStates.shift()! : dockerStates[0]!)),
      dependents: [],
    }),
  });
  return { node, seen };
}

test('reboot: waits through the drop and the refusals for a new boot time and running services', async (t) => {
  const c = clock();
  const { node, seen } = scripted(
    [
      OLD, // the plan's probe
      OLD, // first poll: the restart has not happened yet
      new ConnectionLostError('node009', 'host node009: the connection was lost'),
      new HandshakeError('node009', 'refused', 'connect ECONNREFUSED'),
      new HandshakeError('node009', 'timeout', 'no handshake within 20 s'),
      NEW,
    ],
    ['STOPPED', 'RUNNING'],
  );
  const step = reboot({ required: true, timeoutSec: 600, waitForServices: ['docker'] }, c);
  const p = await plan(node, step);
  t.is(p.change.action, 'run');
  const out = await step.apply(node, p.change, p.actual);
  t.deepEqual(out, { rebooted: true, lastBootUpTime: NEW });
  t.deepEqual(seen, [OLD, OLD, 'ConnectionLostError', 'HandshakeError', 'HandshakeError', NEW, NEW]);
  t.deepEqual(
    node.calls.filter((x) => x.fn === 'Restart-PlayComputer').map((x) => x.args),
    [{ delaySeconds: 5 }],
  );
  t.deepEqual(c.sleeps, [2000, 2000, 4000, 8000, 15000, 15000]);
  t.false(step.converges);
});

test('reboot: a restart that drops the connection before it answers is still waited for', async (t) => {
  const c = clock();
  const { node } = scripted([OLD, new UnreachableError('node009', 'connection reset'), NEW], ['RUNNING'], () => {
    throw new ConnectionLostError('node009', 'the connection was lost while the command ran');
  });
  const step = reboot({ required: true }, c);
  const p = await plan(node, step);
  t.deepEqual(await step.apply(node, p.change, p.actual), { rebooted: true, lastBootUpTime: NEW });
});

test('reboot: the boot time never changes -> fails at the timeout, saying so', async (t) => {
  const c = clock();
  const { node } = scripted([OLD]);
  const step = reboot({ required: true, timeoutSec: 120 }, c);
  const p = await plan(node, step);
  await t.throwsAsync(step.apply(node, p.change, p.actual), {
    message: /did not come back ready before the timeout; when last polled, it was still up since 2020-05-08T00:36:41/,
  });
  t.true(c.elapsed() <= 120_000, `${c.elapsed()}`);
  t.true(c.elapsed() >= 110_000, `${c.elapsed()}`);
});

test('reboot: down for good -> the timeout says the host was unreachable; a changed host key ends the wait at once', async (t) => {
  const c = clock();
  const { node } = scripted([OLD, new HandshakeError('node009', 'refused', 'connect ECONNREFUSED 198.18.0.9:22')]);
  const step = reboot({ required: true, timeoutSec: 60 }, c);
  const p = await plan(node, step);
  await t.throwsAsync(step.apply(node, p.change, p.actual), {
    message: /when last polled, it was unreachable \(connect ECONNREFUSED/,
  });

  const c2 = clock();
  const { node: n2 } = scripted([OLD, new HandshakeError('node009', 'hostkey', 'the host key of node009 changed')]);
  const s2 = reboot({ required: true, timeoutSec: 600 }, c2);
  const p2 = await plan(n2, s2);
  await t.throwsAsync(s2.apply(n2, p2.change, p2.actual), {
    message: /came back but cannot be reconnected to: the host key of node009 changed/,
  });
  t.true(c2.elapsed() < 10_000);
});

test('reboot: back but a service never runs -> not ready, named', async (t) => {
  const c = clock();
  const { node } = scripted([OLD, NEW], ['STOPPED']);
  const step = reboot({ required: true, timeoutSec: 60, waitForServices: ['docker'] }, c);
  const p = await plan(node, step);
  await t.throwsAsync(step.apply(node, p.change, p.actual), {
    message: /back \(up since 2020-05-09T02:00:03.5000000Z\) but not ready: docker \(stopped\)/,
  });
});

test('reboot: readings of one boot a second apart are the same boot', async (t) => {
  const c = clock();
  const { node } = scripted([OLD, '2020-05-08T00:36:41.9000000Z', NEW]);
  const step = reboot({ required: true }, c);
  const p = await plan(node, step);
  t.deepEqual(await step.apply(node, p.change, p.actual), { rebooted: true, lastBootUpTime: NEW });
});

test('hnsNetwork: New-PlayHnsNetwork losing the connection is maybe applied; the host answering again ends the wait', async (t) => {
  const m = new WindowsModel();
  const handlers = m.handlers();
  let blinks = 2;
  const node = new FakeWindows({
    ...handlers,
    'New-PlayHnsNetwork': (a) => {
      handlers['New-PlayHnsNetwork']!(a);
      throw new ConnectionLostError('node009', 'the connection was lost while the command ran');
    },
    'Get-PlayHnsNetwork': (a) => {
      if (node.calls.some((x) => x.fn === 'New-PlayHnsNetwork') && blinks-- > 0)
        throw new HandshakeError('node009', 'timeout', 'no handshake');
      return handlers['Get-PlayHnsNetwork']!(a);
    },
  });
  const c = clock();
  const step = hnsNetwork(
    {
      name: 'l2bridge',
      type: 'L2Bridge',
      addressPrefix: '10.160.11.0/24',
      gateway: '10.160.11.1',
      adapterName: 'eth1',
    },
    c,
  );
  const p = await plan(node, step);
  t.deepEqual(await step.apply(node, p.change, p.actual), {});
  t.deepEqual(c.sleeps, [500, 1000, 2000]);
  const after = await plan(node, step);
  t.is(after.change.action, 'noop');
  t.deepEqual(step.outputs!(step.desired, after.actual), { id: m.networks.get('l2bridge')!.id });
});

test('hnsNetwork: a host that stays away is unreachable; other errors and replacements are not maybe', async (t) => {
  const down = new FakeWindows({
    'Get-PlayHnsNetwork': () => {
      if (down.calls.length > 1) throw new HandshakeError('node009', 'refused', 'ECONNREFUSED');
      return null;
    },
    'New-PlayHnsNetwork': () => {
      throw new ConnectionLostError('node009', 'lost');
    },
  });
  const c = clock();
  const step = hnsNetwork(
    {
      name: 'l2bridge',
      type: 'L2Bridge',
      addressPrefix: '10.160.11.0/24',
      gateway: '10.160.11.1',
      adapterName: 'eth1',
    },
    c,
  );
  const p = await plan(down, step);
  await t.throwsAsync(step.apply(down, p.change, p.actual), { instanceOf: UnreachableError, message: /ECONNREFUSED/ });
  t.true(c.elapsed() <= 90_000);

  const failing = new FakeWindows({
    'Get-PlayHnsNetwork': () => null,
    'New-PlayHnsNetwork': () => {
      throw new Error('HNS POST /networks failed: Element not found.');
    },
  });
  const q = await plan(failing, step);
  await t.throwsAsync(step.apply(failing, q.change, q.actual), {
    message: /New-PlayHnsNetwork failed \(exit 1\): HNS POST \/networks failed: Element not found\./,
  });

  const m = new WindowsModel();
  m.networks.set('l2bridge', {
    id: 'n1',
    name: 'l2bridge',
    type: 'L2Bridge',
    addressPrefix: '10.160.12.0/24',
    gateway: '10.160.12.1',
    adapterName: 'eth1',
  });
  const other = new FakeWindows(m.handlers());
  const r = await plan(other, step);
  await t.throwsAsync(step.apply(other, r.change, r.actual), { message: /set allowReplace: true/ });
  t.deepEqual(other.namesSince(0), ['Get-PlayHnsNetwork']);
});

test('wusa exit codes: what each means for the hotfix step', (t) => {
  const d = { kb: 'KB4549949', msuPath: 'C:\\k\\kb.msu', notApplicable: 'fail' as const };
  t.deepEqual(wusaOutcome(d, 0), { rebootRequired: false });
  t.deepEqual(wusaOutcome(d, 3010), { rebootRequired: true });
  t.deepEqual(wusaOutcome(d, 1641), { rebootRequired: true });
  t.deepEqual(wusaOutcome(d, 2359302), { rebootRequired: false });
  t.deepEqual(wusaOutcome({ ...d, notApplicable: 'satisfied' }, -2145124329), { rebootRequired: false });
  t.regex(String(wusaOutcome(d, -2145124329)), /not applicable to this host, 0x80240017 \(-2145124329\)/);
  t.regex(String(wusaOutcome(d, 87)), /exit 0x00000057 \(87\)$/);
  t.regex(
    String(wusaOutcome(d, -2147023838)),
    /exit 0x80070422 \(-2147023838\): the Windows Update service \(wuauserv\) is disabled/,
  );
  t.is(exitCodeText(2359302), '0x00240006 (2359302)');
});
