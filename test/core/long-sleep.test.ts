// The long sleep: any wait as a chain of timers of at most a minute, each re-reading the clock; ends
// at its deadline, early on its signal, and within a minute of waking from a suspend. A hand-driven
// clock for all but one test, which checks Node's real timers are not handed a delay they clamp.
import test from 'ava';
import { longTimeout, sleepFor, timerUntil, type WaitClock } from '../../runner/core/long-sleep.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A clock driven by the test: timers fire only when it says, in order; a suspend moves the wall clock and them. */
function handClock() {
  let now = 0;
  let nextId = 0;
  const pending = new Map<number, { at: number; fire: () => void }>();
  const delays: number[] = [];
  const clock: WaitClock = {
    now: () => now,
    setTimer(fire, ms) {
      delays.push(ms);
      pending.set(++nextId, { at: now + ms, fire });
      return nextId;
    },
    clearTimer: (id) => pending.delete(id as number),
  };
  return {
    clock,
    delays,
    now: () => now,
    pending: () => pending.size,
    /** Fires the earliest timer, the clock moved to its end. */
    fireNext() {
      const [id, timer] = [...pending].sort(([, a], [, b]) => a.at - b.at)[0]!;
      pending.delete(id);
      now = Math.max(now, timer.at);
      timer.fire();
    },
    /** Fires timers until none is left. */
    runAll() {
      while (pending.size > 0) this.fireNext();
    },
    /** Node's timers count only time awake: the wall clock moves on, and every timer's end with it. */
    suspend(ms: number) {
      now += ms;
      for (const timer of pending.values()) timer.at += ms;
    },
  };
}

test('a wait past 24.8 days is a chain of one-minute timers ending exactly at its deadline', async (t) => {
  const h = handClock();
  let endedAt = -1;
  const sleeping = sleepFor(2_500_000_000, undefined, h.clock).then(() => {
    endedAt = h.now();
  });
  h.runAll();
  await sleeping;
  t.deepEqual(
    { endedAt, timers: h.delays.length, longest: Math.max(...new Set(h.delays)), last: h.delays.at(-1) },
    { endedAt: 2_500_000_000, timers: 41_667, longest: MINUTE, last: 40_000 },
  );
});

test('a wait shorter than a chunk is one timer; a chunk size of its own is honoured, never above Node’s limit', (t) => {
  const table: [what: string, ms: number, chunkMs: number | undefined, delays: number[]][] = [
    ['short', 1500, undefined, [1500]],
    ['zero', 0, undefined, [0]],
    ['a day in 8-hour chunks', DAY, 8 * HOUR, [8 * HOUR, 8 * HOUR, 8 * HOUR]],
    [
      '60 days with chunks above the limit',
      60 * DAY,
      2 ** 40,
      [2 ** 31 - 1, 2 ** 31 - 1, 60 * DAY - 2 * (2 ** 31 - 1)],
    ],
  ];
  t.deepEqual(
    table.map(([what, ms, chunkMs]) => {
      const h = handClock();
      let fired = 0;
      longTimeout(() => fired++, ms, { ...h.clock, chunkMs });
      h.runAll();
      return [what, ms, chunkMs, fired === 1 ? h.delays : [`fired ${fired} times`]];
    }),
    table,
  );
});

test('the signal ends a month-long sleep at once and clears its timer', async (t) => {
  const h = handClock();
  const stop = new AbortController();
  const sleeping = sleepFor(30 * DAY, stop.signal, h.clock);
  h.fireNext();
  stop.abort();
  await sleeping;
  t.deepEqual({ now: h.now(), pending: h.pending(), timers: h.delays.length }, { now: MINUTE, pending: 0, timers: 2 });
});

test('an aborted signal ends the sleep before any timer', async (t) => {
  const h = handClock();
  await sleepFor(30 * DAY, AbortSignal.abort(), h.clock);
  t.deepEqual({ pending: h.pending(), timers: h.delays.length }, { pending: 0, timers: 0 });
});

test('after a suspend past the deadline, the sleep ends with the next timer, not hours later', async (t) => {
  const h = handClock();
  let endedAt = -1;
  const sleeping = sleepFor(2 * HOUR, undefined, h.clock).then(() => {
    endedAt = h.now();
  });
  h.fireNext(); // a minute in
  h.suspend(3 * HOUR);
  h.runAll();
  await sleeping;
  // a single 2-hour timer would have ended at 5 h (2 h awake + 3 h asleep)
  t.deepEqual({ endedAt, timers: h.delays.length }, { endedAt: 3 * HOUR + 2 * MINUTE, timers: 2 });
});

test('a cancelled timer never fires; a deadline already past fires on the next timer, not at once', (t) => {
  const h = handClock();
  let fired = 0;
  const cancel = longTimeout(() => fired++, 45 * DAY, h.clock);
  h.fireNext();
  cancel();
  cancel();
  const firedAfterCancel = fired;
  timerUntil(-5, () => fired++, h.clock);
  const firedAtOnce = fired;
  h.runAll();
  t.deepEqual(
    { firedAfterCancel, firedAtOnce, fired, pending: h.pending() },
    { firedAfterCancel: 0, firedAtOnce: 0, fired: 1, pending: 0 },
  );
  t.throws(() => timerUntil(Number.NaN, () => {}, h.clock), { instanceOf: RangeError });
});

test('on Node’s real timers a 30-day sleep does not end at once, nor warn of an overflow', async (t) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  t.teardown(() => process.off('warning', onWarning));
  const stop = new AbortController();
  let ended = false;
  const sleeping = sleepFor(30 * DAY, stop.signal).then(() => {
    ended = true;
  });
  // setTimeout(fn, 30 days) would fire after 1 ms; give it far longer than that
  await new Promise((resolve) => setTimeout(resolve, 50));
  const endedEarly = ended;
  stop.abort();
  await sleeping;
  t.deepEqual({ endedEarly, ended, warnings }, { endedEarly: false, ended: true, warnings: [] });
});
