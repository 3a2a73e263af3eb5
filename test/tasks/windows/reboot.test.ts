// The reboot state machine against a scripted transport and a fake clock: the connection drops and
// is refused while the host is away, LastBootUpTime must change, services must run, all within the
// timeout. That is a script of transport events, not a Windows model: ScriptedRemote answers in
// sequence (the simulated node reboots on real timers and has no transport to fail in process).
// HNS network creation, which drops the connection on a real node, runs on the simulated node
// (sim-node.ts) behind BlinkingRemote, which turns the node's drop into the transport's errors.
import test from 'ava';
import { createNetwork } from '../../../lab/windows/hns-store.js';
import type { SimulatedWindowsRemote } from '../../../lab/windows/powershell/call.js';
import { scQueryex } from '../../../lab/windows/sc-text.js';
import type { ServiceRecord, ServiceRunState } from '../../../lab/windows/node-state.js';
import { UnreachableError } from '../../../runner/core/errors.js';
import { PsCall } from '../../../runner/core/ps-call.js';
import type { Script } from '../../../runner/core/quote.js';
import type { ExecResult } from '../../../runner/core/step.js';
import { ConnectionLostError, HandshakeError } from '../../../runner/transport/errors.js';
import { hnsNetwork, reboot } from '../../../tasks/windows/index.js';
import { dismOutcome, exitCodeText } from '../../../tasks/windows/hotfix.js';
import { simulatedNode } from './sim-node.js';
import { plan, type RecordingRemote } from './step-runs.js';
import { L2BRIDGE } from '../../helpers/hns-fixtures.js';

/**
 * A Remote that answers each call from a function of its name: a value is the call's result, an
 * UnreachableError (a transport error) rejects as the transport does, any other error is the
 * function's own failure (exit 1, its message on stderr).
 */
class ScriptedRemote implements RecordingRemote {
  readonly name = 'node009';
  readonly calls: { fn: string; args: unknown }[] = [];

  constructor(readonly answers: Record<string, (args: any) => unknown>) {}

  async run(script: Script): Promise<ExecResult> {
    if (!(script instanceof PsCall)) throw new Error(`a Windows step sent a ${script.shell} script`);
    this.calls.push({ fn: script.fn.name, args: script.args });
    const answer = this.answers[script.fn.name];
    if (!answer) throw new Error(`the script has no answer for ${script.fn.name}`);
    try {
      return { stdout: JSON.stringify(answer(script.args) ?? null), stderr: '', code: 0 };
    } catch (e) {
      if (e instanceof UnreachableError) throw e;
      return { stdout: '', stderr: (e as Error).message, code: 1 };
    }
  }

  namesSince(from: number): string[] {
    return this.calls.slice(from).map((c) => c.fn);
  }
}

/**
 * The simulated node as the transport sees it when its NIC blinks (lab/windows/README.md, HNS): the
 * call during which the node dropped its connections never answers (ConnectionLostError), and the
 * next `refusals` connection attempts fail their handshake; then calls get through again.
 */
class BlinkingRemote implements RecordingRemote {
  #dropped = false;
  #refusing = 0;

  constructor(
    readonly remote: SimulatedWindowsRemote,
    readonly refusals: number,
    readonly refusal = () => new HandshakeError('node009', 'timeout', 'no handshake'),
  ) {
    remote.node.on('drop-connections', () => (this.#dropped = true));
  }

  get name(): string {
    return this.remote.name;
  }
  get calls() {
    return this.remote.calls;
  }
  namesSince(from: number): string[] {
    return this.remote.namesSince(from);
  }

  async run(script: Script): Promise<ExecResult> {
    if (this.#refusing > 0) {
      this.#refusing--;
      throw this.refusal();
    }
    const result = await this.remote.run(script);
    if (!this.#dropped) return result;
    this.#dropped = false;
    this.#refusing = this.refusals;
    throw new ConnectionLostError('node009', 'the connection was lost while the command ran');
  }
}

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
const docker = (state: ServiceRunState): ServiceRecord => ({
  name: 'docker',
  displayName: 'Docker Engine',
  binPath: '"C:\\Program Files\\Docker\\dockerd.exe" --run-service',
  type: 'own',
  startMode: 'Auto',
  account: 'LocalSystem',
  dependencies: [],
  state,
  pid: state === 'Running' ? 7 : 0,
  win32ExitCode: 0,
  pausable: false,
});

/** A node that answers `script` in order for Get-PlayOsInfo (an Error is thrown as is) and docker's states after that. */
function scripted(
  osAnswers: (string | Error)[],
  dockerStates: ServiceRunState[] = ['Running'],
  restart: () => unknown = () => ({ scheduled: true }),
) {
  const seen: string[] = [];
  const node = new ScriptedRemote({
    'Get-PlayOsInfo': () => {
      const next = osAnswers.length > 1 ? osAnswers.shift()! : osAnswers[0]!;
      seen.push(next instanceof Error ? next.name : next);
      if (next instanceof Error) throw next;
      return os(next);
    },
    'Restart-PlayComputer': restart,
    'Get-PlayService': () => ({
      qc: '',
      queryex: scQueryex(docker(dockerStates.length > 1 ? dockerStates.shift()! : dockerStates[0]!)),
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
    ['Stopped', 'Running'],
  );
  const step = reboot({ required: true, timeoutSec: 600, waitForServices: ['docker'] }, c);
  const p = await plan(node, step);
  t.is(p.change.action, 'run');
  const out = await step.apply(node, p.change, p.actual, step.desired);
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
  const { node } = scripted([OLD, new UnreachableError('node009', 'connection reset'), NEW], ['Running'], () => {
    throw new ConnectionLostError('node009', 'the connection was lost while the command ran');
  });
  const step = reboot({ required: true }, c);
  const p = await plan(node, step);
  t.deepEqual(await step.apply(node, p.change, p.actual, step.desired), { rebooted: true, lastBootUpTime: NEW });
});

test('reboot: the boot time never changes -> fails at the timeout, saying so', async (t) => {
  const c = clock();
  const { node } = scripted([OLD]);
  const step = reboot({ required: true, timeoutSec: 120 }, c);
  const p = await plan(node, step);
  await t.throwsAsync(step.apply(node, p.change, p.actual, step.desired), {
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
  await t.throwsAsync(step.apply(node, p.change, p.actual, step.desired), {
    message: /when last polled, it was unreachable \(connect ECONNREFUSED/,
  });

  const c2 = clock();
  const { node: n2 } = scripted([OLD, new HandshakeError('node009', 'hostkey', 'the host key of node009 changed')]);
  const s2 = reboot({ required: true, timeoutSec: 600 }, c2);
  const p2 = await plan(n2, s2);
  await t.throwsAsync(s2.apply(n2, p2.change, p2.actual, s2.desired), {
    message: /came back but cannot be reconnected to: the host key of node009 changed/,
  });
  t.true(c2.elapsed() < 10_000);
});

test('reboot: back but a service never runs -> not ready, named', async (t) => {
  const c = clock();
  const { node } = scripted([OLD, NEW], ['Stopped']);
  const step = reboot({ required: true, timeoutSec: 60, waitForServices: ['docker'] }, c);
  const p = await plan(node, step);
  await t.throwsAsync(step.apply(node, p.change, p.actual, step.desired), {
    message: /back \(up since 2020-05-09T02:00:03.5000000Z\) but not ready: docker \(stopped\)/,
  });
});

test('reboot: readings of one boot a second apart are the same boot', async (t) => {
  const c = clock();
  const { node } = scripted([OLD, '2020-05-08T00:36:41.9000000Z', NEW]);
  const step = reboot({ required: true }, c);
  const p = await plan(node, step);
  t.deepEqual(await step.apply(node, p.change, p.actual, step.desired), { rebooted: true, lastBootUpTime: NEW });
});

test('hnsNetwork: New-PlayHnsNetwork losing the connection is maybe applied; the host answering again ends the wait', async (t) => {
  const { node, n } = simulatedNode(t);
  const blinking = new BlinkingRemote(n, 2);
  const c = clock();
  const step = hnsNetwork(L2BRIDGE, c);
  const p = await plan(blinking, step);
  t.deepEqual(await step.apply(blinking, p.change, p.actual, step.desired), {});
  t.deepEqual(c.sleeps, [500, 1000, 2000]);
  const after = await plan(blinking, step);
  t.is(after.change.action, 'noop');
  t.deepEqual(step.outputs!(step.desired, after.actual), {
    id: node.state.hns.networks.find((x) => x.name === 'l2bridge')!.id,
  });
});

test('hnsNetwork: a host that stays away is unreachable; other errors and replacements are not maybe', async (t) => {
  const down = new BlinkingRemote(
    simulatedNode(t).n,
    Number.POSITIVE_INFINITY,
    () => new HandshakeError('node009', 'refused', 'ECONNREFUSED'),
  );
  const c = clock();
  const step = hnsNetwork(L2BRIDGE, c);
  const p = await plan(down, step);
  await t.throwsAsync(step.apply(down, p.change, p.actual, step.desired), {
    instanceOf: UnreachableError,
    message: /ECONNREFUSED/,
  });
  t.true(c.elapsed() <= 90_000);

  // No NIC is named eth1 on this node: HNS refuses the network.
  const { n: failing } = simulatedNode(t, (s) => (s.adapters[1]!.name = 'Ethernet 2'));
  const q = await plan(failing, step);
  await t.throwsAsync(step.apply(failing, q.change, q.actual, step.desired), {
    message: /New-PlayHnsNetwork failed \(exit 1\): HNS POST \/networks failed: Element not found\./,
  });

  const { n: other } = simulatedNode(t, (s) =>
    createNetwork(s, { ...L2BRIDGE, addressPrefix: '10.160.12.0/24', gateway: '10.160.12.1' }),
  );
  const r = await plan(other, step);
  await t.throwsAsync(step.apply(other, r.change, r.actual, step.desired), { message: /set allowReplace: true/ });
  t.deepEqual(other.namesSince(0), ['Get-PlayHnsNetwork']);
});

test("DISM's exit codes: what each means for the hotfix step", (t) => {
  const d = { kb: 'KB4549949', msuPath: 'C:\\k\\kb.msu', localMsu: null, notApplicable: 'fail' as const };
  t.deepEqual(dismOutcome(d, 0), { rebootRequired: false });
  t.deepEqual(dismOutcome(d, 3010), { rebootRequired: true });
  t.deepEqual(dismOutcome({ ...d, notApplicable: 'satisfied' }, -2146498530), { rebootRequired: false });
  t.regex(String(dismOutcome(d, -2146498530)), /not applicable to this host, 0x800F081E \(-2146498530\)/);
  t.regex(String(dismOutcome(d, 87)), /exit 0x00000057 \(87\)$/);
  t.regex(
    String(dismOutcome(d, -2146498270, 'Error: 0x800f0922\r\n\r\nDISM failed. No operation was performed.\r\n')),
    /exit 0x800F0922 \(-2146498270\): CBS_E_INSTALLERS_FAILED.* \(DISM: Error: 0x800f0922 DISM failed\. No operation was performed\.\)$/,
  );
  t.is(exitCodeText(-2147024891), '0x80070005 (-2147024891)');
});
