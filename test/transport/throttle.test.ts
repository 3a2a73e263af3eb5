import test from 'ava';
import { HandshakeError, type HandshakeFailure } from '../../runner/transport/errors.js';
import { attemptsFor, HandshakeThrottle } from '../../runner/transport/handshake-throttle.js';
import { sleep } from '../helpers/wait.js';

const fail = (failure: HandshakeFailure) => new HandshakeError('linux1', failure, `host linux1: ${failure}`);

test('at most 10 handshakes at once overall, 2 per endpoint', async (t) => {
  const throttle = new HandshakeThrottle();
  let now = 0,
    peak = 0;
  const perEndpoint = new Map<string, number>();
  let peakEndpoint = 0;
  const attempt = (ep: string) => async () => {
    now++;
    peak = Math.max(peak, now);
    perEndpoint.set(ep, (perEndpoint.get(ep) ?? 0) + 1);
    peakEndpoint = Math.max(peakEndpoint, perEndpoint.get(ep)!);
    await sleep(15);
    perEndpoint.set(ep, perEndpoint.get(ep)! - 1);
    now--;
  };
  // 30 hosts, plus 6 handshakes to one endpoint.
  await Promise.all([
    ...Array.from({ length: 30 }, (_, i) => throttle.run(`198.18.0.${i}:22`, attempt(`198.18.0.${i}:22`))),
    ...Array.from({ length: 6 }, () => throttle.run('198.18.0.200:22', attempt('198.18.0.200:22'))),
  ]);
  t.is(peak, 10);
  t.is(throttle.global.peak, 10);
  t.is(peakEndpoint, 2);
  t.is(throttle.peakPerEndpoint, 2);
});

test('retry budget per failure: dropped 5 attempts, refused 3, the rest 1', (t) => {
  t.is(attemptsFor(fail('dropped'), 5), 5);
  t.is(attemptsFor(fail('refused'), 5), 3);
  for (const f of ['auth', 'hostkey', 'timeout', 'unreachable', 'config', 'protocol'] as const)
    t.is(attemptsFor(fail(f), 5), 1, f);
  t.is(attemptsFor(new Error('other'), 5), 1);
});

const cases: [HandshakeFailure, number][] = [
  ['dropped', 5],
  ['refused', 3],
  ['auth', 1],
  ['hostkey', 1],
  ['timeout', 1],
  ['unreachable', 1],
];
for (const [failure, attempts] of cases) {
  test(`a handshake failing with '${failure}' is attempted ${attempts} time(s)`, async (t) => {
    const throttle = new HandshakeThrottle({ baseDelayMs: 1 });
    let calls = 0;
    const e = await t.throwsAsync(
      throttle.run('198.18.0.1:22', async () => {
        calls++;
        throw fail(failure);
      }),
      { instanceOf: HandshakeError },
    );
    t.is(calls, attempts);
    t.is(throttle.retries, attempts - 1);
    t.is(e!.message, attempts > 1 ? `host linux1: ${failure} (${attempts} attempts)` : `host linux1: ${failure}`);
  });
}

test('a transient failure followed by success returns the result', async (t) => {
  const throttle = new HandshakeThrottle({ baseDelayMs: 1 });
  let calls = 0;
  const r = await throttle.run('198.18.0.1:22', async (n) => {
    calls++;
    if (n < 3) throw fail('dropped');
    return 'ready';
  });
  t.is(r, 'ready');
  t.is(calls, 3);
});

test('backoff doubles from the base, jittered to 50-100 %, capped', (t) => {
  const high = new HandshakeThrottle({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 1 });
  t.deepEqual(
    [1, 2, 3, 4, 5].map((n) => high.backoffMs(n)),
    [100, 200, 400, 800, 1000],
  );
  const low = new HandshakeThrottle({ baseDelayMs: 100, random: () => 0 });
  t.deepEqual(
    [1, 2, 3].map((n) => low.backoffMs(n)),
    [50, 100, 200],
  );
});

test('slots are released while backing off', async (t) => {
  const throttle = new HandshakeThrottle({ global: 1, baseDelayMs: 200, random: () => 1 });
  const order: string[] = [];
  const failing = throttle.run('a:22', async (n) => {
    order.push(`a${n}`);
    if (n === 1) throw fail('dropped');
  });
  await sleep(20);
  await throttle.run('b:22', async () => {
    order.push('b');
  });
  await failing;
  t.deepEqual(order, ['a1', 'b', 'a2']);
});
