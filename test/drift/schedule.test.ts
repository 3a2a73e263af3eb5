// Schedules for `play drift --every`: parsing (cron and intervals), the next due time, jitter and
// the ticks a slow run skips, then the loop itself on a simulated clock (a year in well under a
// second, waits of months included). Tables compared whole; cron in UTC unless a test says otherwise.
import test from 'ava';
import { runOnSchedule } from '../../runner/drift/run/schedule-loop.js';
import { UsageError } from '../../runner/core/errors.js';
import type { WaitClock } from '../../runner/core/long-sleep.js';
import {
  clockTime,
  describeSkipped,
  formatDuration,
  nextRun,
  parseDuration,
  parseJitter,
  parseSchedule,
  type Schedule,
  shortestGapMs,
  skippedTicks,
  withJitter,
} from '../../runner/drift/schedule.js';

const range = (a: number, b: number, step = 1) =>
  Array.from({ length: Math.floor((b - a) / step) + 1 }, (_, i) => a + i * step);
const ANY = {
  minute: range(0, 59),
  hour: range(0, 23),
  dayOfMonth: range(1, 31),
  month: range(1, 12),
  dayOfWeek: range(0, 6),
};

test('parsing schedules', (t) => {
  const cron = (text: string, fields: Partial<typeof ANY>, dayOr = false): Schedule => ({
    kind: 'cron',
    text,
    ...ANY,
    ...fields,
    dayOr,
  });
  const table: [string, Schedule][] = [
    ['0 * * * *', cron('0 * * * *', { minute: [0] })],
    [
      '  */15  9-17 * * mon-fri ',
      cron('  */15  9-17 * * mon-fri ', { minute: [0, 15, 30, 45], hour: range(9, 17), dayOfWeek: range(1, 5) }),
    ],
    [
      '1-30/5 0,12 1,15 JAN,jul 1-7',
      cron(
        '1-30/5 0,12 1,15 JAN,jul 1-7',
        { minute: [1, 6, 11, 16, 21, 26], hour: [0, 12], dayOfMonth: [1, 15], month: [1, 7] },
        true,
      ),
    ],
    // 7 and 0 are both Sunday
    ['0 0 * * 7', cron('0 0 * * 7', { minute: [0], hour: [0], dayOfWeek: [0] })],
    ['0 0 * * 5-7', cron('0 0 * * 5-7', { minute: [0], hour: [0], dayOfWeek: [0, 5, 6] })],
    ['0 0 * * sat,sun', cron('0 0 * * sat,sun', { minute: [0], hour: [0], dayOfWeek: [0, 6] })],
    // both day fields restricted: either runs
    ['0 0 13 * 5', cron('0 0 13 * 5', { minute: [0], hour: [0], dayOfMonth: [13], dayOfWeek: [5] }, true)],
    // a field starting with * is unrestricted for that rule, even with a step (as in Vixie cron)
    ['0 0 */2 * 5', cron('0 0 */2 * 5', { minute: [0], hour: [0], dayOfMonth: range(1, 31, 2), dayOfWeek: [5] })],
    [
      '0 0 1-31/2 * 5',
      cron('0 0 1-31/2 * 5', { minute: [0], hour: [0], dayOfMonth: range(1, 31, 2), dayOfWeek: [5] }, true),
    ],
    ['5,0-2,1 * * * *', cron('5,0-2,1 * * * *', { minute: [0, 1, 2, 5] })],
    ['0 0 29 2 *', cron('0 0 29 2 *', { minute: [0], hour: [0], dayOfMonth: [29], month: [2] })],
    ['@hourly', cron('@hourly', { minute: [0] })],
    ['@daily', cron('@daily', { minute: [0], hour: [0] })],
    ['@weekly', cron('@weekly', { minute: [0], hour: [0], dayOfWeek: [0] })],
    ['15m', { kind: 'interval', text: '15m', ms: 900_000 }],
    ['30s', { kind: 'interval', text: '30s', ms: 30_000 }],
    ['2h', { kind: 'interval', text: '2h', ms: 7_200_000 }],
    ['1h30m', { kind: 'interval', text: '1h30m', ms: 5_400_000 }],
    ['1d', { kind: 'interval', text: '1d', ms: 86_400_000 }],
    ['30d', { kind: 'interval', text: '30d', ms: 2_592_000_000 }],
    ['365d', { kind: 'interval', text: '365d', ms: 31_536_000_000 }],
  ];
  t.deepEqual(
    table.map(([text]) => [text, parseSchedule(text)]),
    table,
  );
  t.deepEqual(
    ['0s', '45s', '2h15m', '1d12h'].map((d) => parseDuration(d, '--jitter')),
    [0, 45_000, 8_100_000, 129_600_000],
  );
});

// Long because it is a table: one row per parse error, compared whole.
test('every parse error, whole', (t) => {
  const table: [string, string][] = [
    ['61 * * * *', "--every '61 * * * *': minute 61 is out of 0-59"],
    ['0 24 * * *', "--every '0 24 * * *': hour 24 is out of 0-23"],
    ['0 0 0 * *', "--every '0 0 0 * *': day-of-month 0 is out of 1-31"],
    ['0 0 * 13 *', "--every '0 0 * 13 *': month 13 is out of 1-12"],
    ['0 0 * * 8', "--every '0 0 * * 8': day-of-week 8 is out of 0-7"],
    ['0 0 * foo *', "--every '0 0 * foo *': month 'foo' is not a number or a name (jan-dec)"],
    ['0 0 * * funday', "--every '0 0 * * funday': day-of-week 'funday' is not a number or a name (sun-sat)"],
    ['0 mon * * *', "--every '0 mon * * *': hour 'mon' is not a number"],
    ['1.5 * * * *', "--every '1.5 * * * *': minute '1.5' is not a number"],
    [
      '0 5-1 * * *',
      "--every '0 5-1 * * *': hour range 5-1 runs backwards: write 1-5 (a list such as 22-23,0-1 wraps around)",
    ],
    ['*/0 * * * *', "--every '*/0 * * * *': minute step 0 must be at least 1"],
    ['*/x * * * *', "--every '*/x * * * *': minute step 'x' is not a number"],
    ['5/15 * * * *', "--every '5/15 * * * *': minute '5/15': a step needs a range or *: write 5-59/15"],
    ['1//2 * * * *', "--every '1//2 * * * *': minute '1//2' is not a value, a range or a step"],
    ['1,,2 * * * *', "--every '1,,2 * * * *': minute '' is not a value, a range or a step"],
    [
      '0 * * *',
      "--every '0 * * *': a cron schedule has 5 fields (minute hour day-of-month month day-of-week; no seconds, no command), got 4",
    ],
    [
      '0 0 * * * *',
      "--every '0 0 * * * *': a cron schedule has 5 fields (minute hour day-of-month month day-of-week; no seconds, no command), got 6",
    ],
    ['0 0 30 2 *', "--every '0 0 30 2 *': never runs: day-of-month '30' does not occur in month '2'"],
    ['0 0 31 4,6 *', "--every '0 0 31 4,6 *': never runs: day-of-month '31' does not occur in month '4,6'"],
    ['@reboot', "--every '@reboot': @reboot is not a schedule: run `play drift` once at boot from a systemd unit"],
    [
      '@often',
      "--every '@often': expected one of @yearly, @annually, @monthly, @weekly, @daily, @midnight, @hourly, or 5 cron fields",
    ],
    [
      '15',
      "--every '15': expected an interval such as 30s, 15m or 2h, or a cron schedule of 5 fields such as '0 * * * *'",
    ],
    [
      '15min',
      "--every '15min': expected an interval such as 30s, 15m or 2h, or a cron schedule of 5 fields such as '0 * * * *'",
    ],
    [
      '30m2h',
      "--every '30m2h': expected an interval such as 30s, 15m or 2h, or a cron schedule of 5 fields such as '0 * * * *'",
    ],
    [
      '*/15',
      "--every '*/15': expected an interval such as 30s, 15m or 2h, or a cron schedule of 5 fields such as '0 * * * *'",
    ],
    ['', "--every '': expected an interval such as 30s, 15m or 2h, or a cron schedule of 5 fields such as '0 * * * *'"],
    ['0m', "--every '0m': an interval must be at least 1s"],
    [
      '366d',
      "--every '366d': an interval must be at most 365d (a year); for a yearly run give a cron schedule such as '0 0 1 1 *'",
    ],
    [
      '364d24h1s',
      "--every '364d24h1s': an interval must be at most 365d (a year); for a yearly run give a cron schedule such as '0 0 1 1 *'",
    ],
  ];
  const got = table.map(([text]) => {
    try {
      parseSchedule(text);
      return [text, '(no error)'];
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      return [text, e.message];
    }
  });
  t.deepEqual(got, table);
  t.is(t.throws(() => parseSchedule('61 * * * *'), { instanceOf: UsageError }).exitCode, 64);
  t.throws(() => parseDuration('5x', '--jitter'), {
    instanceOf: UsageError,
    message: "--jitter '5x': expected a duration such as 30s, 15m or 2h",
  });
});

test('the next due time of a cron schedule (UTC), strictly after the given time', (t) => {
  const table: [schedule: string, after: string, next: string][] = [
    ['0 * * * *', '2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z'],
    ['0 * * * *', '2026-03-01T10:59:59.999Z', '2026-03-01T11:00:00.000Z'],
    ['0 * * * *', '2026-03-01T09:59:00.000Z', '2026-03-01T10:00:00.000Z'],
    ['* * * * *', '2026-03-01T10:00:30.000Z', '2026-03-01T10:01:00.000Z'],
    ['*/15 * * * *', '2026-03-01T10:07:30.000Z', '2026-03-01T10:15:00.000Z'],
    ['1-30/5 * * * *', '2026-03-01T10:27:00.000Z', '2026-03-01T11:01:00.000Z'],
    ['30 23 31 12 *', '2026-06-01T00:00:00.000Z', '2026-12-31T23:30:00.000Z'],
    ['0 0 1 1 *', '2026-12-31T23:59:00.000Z', '2027-01-01T00:00:00.000Z'],
    // months without a 31st are passed over
    ['59 23 31 * *', '2026-03-31T23:59:00.000Z', '2026-05-31T23:59:00.000Z'],
    // Feb 29: the next leap year; 2100 is not one
    ['0 0 29 2 *', '2026-03-01T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
    ['0 0 29 2 *', '2096-03-01T00:00:00.000Z', '2104-02-29T00:00:00.000Z'],
    // 2026-03-01 is a Sunday; 7, 0 and sun are all Sunday
    ['0 0 * * 7', '2026-03-02T00:00:00.000Z', '2026-03-08T00:00:00.000Z'],
    ['0 0 * * 0', '2026-03-02T00:00:00.000Z', '2026-03-08T00:00:00.000Z'],
    ['0 0 * * sun', '2026-03-02T00:00:00.000Z', '2026-03-08T00:00:00.000Z'],
    ['0 9 * * mon-fri', '2026-03-06T09:00:00.000Z', '2026-03-09T09:00:00.000Z'],
    // the OR rule: the 13th or any Friday (Friday 6th, then Friday 13th, then Friday 20th)
    ['0 0 13 * 5', '2026-03-01T00:00:00.000Z', '2026-03-06T00:00:00.000Z'],
    ['0 0 13 * 5', '2026-03-06T00:00:00.000Z', '2026-03-13T00:00:00.000Z'],
    ['0 0 13 * 5', '2026-03-13T00:00:00.000Z', '2026-03-20T00:00:00.000Z'],
    ['0 0 13 * 5', '2026-04-10T00:00:00.000Z', '2026-04-13T00:00:00.000Z'],
    // day-of-month starting with *: both must match (an odd day that is a Friday)
    ['0 0 */2 * 5', '2026-03-01T00:00:00.000Z', '2026-03-13T00:00:00.000Z'],
    ['0 0 1-31/2 * 5', '2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z'],
    ['@monthly', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    // a year away, and years away: found by whole months, not minute by minute
    ['0 0 1 1 *', '2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z'],
    // Feb 29 that is also a Sunday (*/7 is Sunday alone; a day-of-week starting with * must match too)
    ['0 0 29 2 */7', '2026-01-01T00:00:00.000Z', '2032-02-29T00:00:00.000Z'],
  ];
  t.deepEqual(
    table.map(([s, after]) => [s, after, nextRun(parseSchedule(s), new Date(after), 'UTC').toISOString()]),
    table,
  );
});

test('cron runs on local time by default', (t) => {
  const saved = process.env.TZ;
  const at = (s: string, after: string) => nextRun(parseSchedule(s), new Date(after)).toISOString();
  try {
    process.env.TZ = 'Asia/Kolkata'; // UTC+05:30, no DST
    t.deepEqual(
      [at('0 * * * *', '2026-03-01T10:10:00Z'), at('0 9 * * *', '2026-03-01T10:10:00Z')],
      ['2026-03-01T10:30:00.000Z', '2026-03-02T03:30:00.000Z'],
    );
    process.env.TZ = 'America/New_York';
    t.deepEqual(
      [
        // 02:30 does not exist on 2026-03-08: it runs at 03:30 EDT
        at('30 2 * * *', '2026-03-08T05:00:00Z'),
        // 01:30 happens twice on 2026-11-01: it runs the first time only
        at('30 1 * * *', '2026-11-01T04:00:00Z'),
        at('30 1 * * *', '2026-11-01T05:30:00Z'),
        // New Year's midnight and Feb 29 in EST
        at('0 0 1 1 *', '2026-06-01T00:00:00Z'),
        at('0 0 29 2 *', '2026-06-01T00:00:00Z'),
      ],
      [
        '2026-03-08T07:30:00.000Z',
        '2026-11-01T05:30:00.000Z',
        '2026-11-02T06:30:00.000Z',
        '2027-01-01T05:00:00.000Z',
        '2028-02-29T05:00:00.000Z',
      ],
    );
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
});

test('the next due time of an interval: after + interval, or in step with an anchor', (t) => {
  const every = parseSchedule('15m');
  const d = (iso: string) => new Date(iso);
  const table: [after: string, anchor: string | null, next: string][] = [
    ['2026-03-01T10:07:12.000Z', null, '2026-03-01T10:22:12.000Z'],
    ['2026-03-01T10:07:12.000Z', '2026-03-01T10:00:00.000Z', '2026-03-01T10:15:00.000Z'],
    ['2026-03-01T10:15:00.000Z', '2026-03-01T10:00:00.000Z', '2026-03-01T10:30:00.000Z'],
    ['2026-03-01T11:59:59.999Z', '2026-03-01T10:00:00.000Z', '2026-03-01T12:00:00.000Z'],
    ['2026-03-01T09:50:00.000Z', '2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.000Z'],
  ];
  t.deepEqual(
    table.map(([after, anchor]) => [
      after,
      anchor,
      nextRun(every, d(after), 'UTC', anchor ? d(anchor) : undefined).toISOString(),
    ]),
    table,
  );
});

test('jitter only delays, by less than its maximum', (t) => {
  const due = new Date('2026-03-01T10:00:00.000Z');
  const table: [maxMs: number, random: number, at: string][] = [
    [60_000, 0, '2026-03-01T10:00:00.000Z'],
    [60_000, 0.5, '2026-03-01T10:00:30.000Z'],
    [60_000, 0.99999999, '2026-03-01T10:00:59.999Z'],
    [60_000, 1, '2026-03-01T10:00:59.999Z'],
    [60_000, -0.5, '2026-03-01T10:00:00.000Z'],
    [0, 0.5, '2026-03-01T10:00:00.000Z'],
  ];
  t.deepEqual(
    table.map(([max, r]) => [max, r, withJitter(due, max, () => r).toISOString()]),
    table,
  );
});

test('the ticks a run skips because it was still going, and the next one', (t) => {
  const q = parseSchedule('*/15 * * * *');
  const i = parseSchedule('15m');
  const anchor = new Date('2026-03-01T10:00:00.000Z');
  const hm = (iso: string) => new Date(`2026-03-01T${iso}Z`);
  const table: [what: string, schedule: Schedule, start: string, end: string, skipped: string[], next: string][] = [
    ['a run within its tick', q, '10:00:00', '10:14:00', [], '10:15'],
    ['ending exactly on a tick: that tick runs', q, '10:00:00', '10:15:00', [], '10:15'],
    ['a slow run', q, '10:00:00', '10:50:00', ['10:15', '10:30', '10:45'], '11:00'],
    ['a jittered start', q, '10:00:20', '10:31:00', ['10:15', '10:30'], '10:45'],
    ['an interval in step with the loop', i, '10:00:00', '10:40:00', ['10:15', '10:30'], '10:45'],
    ['an interval run that started late', i, '10:16:00', '10:31:00', ['10:30'], '10:45'],
  ];
  t.deepEqual(
    table.map(([what, s, start, end]) => {
      const plan = skippedTicks(s, { start: hm(start), end: hm(end) }, 'UTC', anchor);
      return [what, s, start, end, plan.skipped.map((d) => clockTime(d, 'UTC')), clockTime(plan.next, 'UTC')];
    }),
    table,
  );
  t.throws(() => skippedTicks(q, { start: hm('10:00:00'), end: hm('09:00:00') }, 'UTC'), { instanceOf: RangeError });
});

test('the log line for skipped ticks', (t) => {
  const at = (hms: string) => new Date(`2026-03-01T${hms}Z`);
  const table: [skipped: string[], start: string, line: string | null][] = [
    [[], '10:00:00', null],
    [['10:15:00'], '10:00:00', 'skipped the 10:15 run: the run of 10:00 was still going'],
    [
      ['10:15:00', '10:30:00', '10:45:00'],
      '10:00:00',
      'skipped 3 runs (10:15 to 10:45): the run of 10:00 was still going',
    ],
    [['10:00:30'], '10:00:07', 'skipped the 10:00:30 run: the run of 10:00:07 was still going'],
  ];
  t.deepEqual(
    table.map(([skipped, start]) => [skipped, start, describeSkipped(skipped.map(at), at(start), 'UTC')]),
    table,
  );
});

test('durations written back as --every reads them', (t) => {
  const table: [ms: number, text: string][] = [
    [0, '0s'],
    [999, '0s'],
    [30_000, '30s'],
    [90_000, '1m30s'],
    [3_600_000, '1h'],
    [129_600_000, '1d12h'],
    [31_536_000_000, '365d'],
  ];
  t.deepEqual(
    table.map(([ms]) => [ms, formatDuration(ms)]),
    table,
  );
});

test('the shortest time between two due times', (t) => {
  const table: [every: string, gap: string][] = [
    ['15m', '15m'],
    ['* * * * *', '1m'],
    ['0 * * * *', '1h'],
    // 17:45 to 09:00 is more than 15m: within the day is shortest
    ['*/15 9-17 * * mon-fri', '15m'],
    // 23:00 to the next day's 00:00
    ['0 0,23 * * *', '1h'],
    // the 31st to the 1st
    ['0 0 1,31 * *', '1d'],
    // Friday to Monday is longer than Monday to Tuesday
    ['0 9 * * mon,fri', '3d'],
    // February 1st to March 1st
    ['0 3 1 * *', '28d'],
    ['0 0 1 1 *', '365d'],
    // leap years: 4 years apart at the closest (8 across a century that is not one)
    ['0 0 29 2 *', '1461d'],
  ];
  t.deepEqual(
    table.map(([every]) => [every, formatDuration(shortestGapMs(parseSchedule(every)))]),
    table,
  );
});

test('--jitter: at most the shortest time between two runs', (t) => {
  const table: [every: string, jitter: string, result: number | string][] = [
    ['1h', '1h', 3_600_000],
    ['1h', '30m', 1_800_000],
    ['0 3 1 * *', '28d', 2_419_200_000],
    ['1h', '1h1s', "--jitter '1h1s': must be at most the interval of --every '1h' (1h)"],
    [
      '*/15 9-17 * * mon-fri',
      '16m',
      "--jitter '16m': must be at most the shortest time between two runs of --every '*/15 9-17 * * mon-fri' (15m)",
    ],
    [
      '0 3 1 * *',
      '29d',
      "--jitter '29d': must be at most the shortest time between two runs of --every '0 3 1 * *' (28d)",
    ],
    ['1h', 'soon', "--jitter 'soon': expected a duration such as 30s, 15m or 2h"],
  ];
  const got = table.map(([every, jitter]) => {
    try {
      return [every, jitter, parseJitter(jitter, parseSchedule(every))];
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      return [every, jitter, e.message];
    }
  });
  t.deepEqual(got, table);
});

/**
 * A clock whose timers fire as soon as nothing else is pending, moving time to their end: one wait at
 * a time, so simulated time is exact. Each timer's delay is recorded.
 */
function simulatedClock(startIso: string) {
  let now = Date.parse(startIso);
  const delays: number[] = [];
  const clock: WaitClock = {
    now: () => now,
    setTimer(fire, ms) {
      const timer = { cleared: false };
      delays.push(ms);
      queueMicrotask(() => {
        if (timer.cleared) return;
        now += ms;
        fire();
      });
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  };
  return { clock, delays, pass: (ms: number) => (now += ms) };
}

interface Simulation {
  /** When each run started. */
  runs: string[];
  /** How many timers the waits took, and the longest. */
  timers: number;
  longestTimerMs: number;
}

/** The loop from `from` until the first run due at or after `until` (which is not run), each run lasting `runMs`. */
async function simulate(
  every: string,
  from: string,
  until: string,
  runMs: number,
  jitter?: string,
): Promise<Simulation> {
  const sim = simulatedClock(from);
  const stop = new AbortController();
  const runs: string[] = [];
  const schedule = parseSchedule(every);
  await runOnSchedule(schedule, jitter ? parseJitter(jitter, schedule) : 0, {
    runOnce: async () => {
      const now = sim.clock.now();
      if (now >= Date.parse(until)) {
        stop.abort();
        return 0;
      }
      runs.push(new Date(now).toISOString());
      sim.pass(runMs);
      return 0;
    },
    log: () => {},
    stop: stop.signal,
    clock: sim.clock,
    random: () => 0.5,
    tz: 'UTC',
  });
  return { runs, timers: sim.delays.length, longestTimerMs: sim.delays.reduce((a, b) => Math.max(a, b), 0) };
}

const MINUTE = 60_000;
const DAY = 86_400_000;

test('--every 30d: a run every 30 days over a year, each wait many one-minute timers', async (t) => {
  const got = await simulate('30d', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 5 * MINUTE);
  const runs = Array.from({ length: 13 }, (_, k) => new Date(Date.parse('2026-01-01T00:00:00.000Z') + k * 30 * DAY));
  // 13 waits (the last one ends at the first run not made) of 30 days less the 5-minute run
  t.deepEqual(got, {
    runs: runs.map((d) => d.toISOString()),
    timers: 13 * ((30 * DAY - 5 * MINUTE) / MINUTE),
    longestTimerMs: MINUTE,
  });
});

test('a monthly and a yearly cron: exactly one run per due time, after the first run at start', async (t) => {
  const monthly = await simulate('0 3 1 * *', '2026-01-15T00:00:00.000Z', '2027-01-15T00:00:00.000Z', 5 * MINUTE);
  const months = ['02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
  t.deepEqual(monthly.runs, [
    '2026-01-15T00:00:00.000Z',
    ...months.map((m) => `2026-${m}-01T03:00:00.000Z`),
    '2027-01-01T03:00:00.000Z',
  ]);
  const yearly = await simulate('0 0 1 1 *', '2026-06-01T00:00:00.000Z', '2028-06-01T00:00:00.000Z', 5 * MINUTE);
  t.deepEqual(yearly.runs, ['2026-06-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', '2028-01-01T00:00:00.000Z']);
  t.is(yearly.longestTimerMs, MINUTE);
});

test('a jittered monthly cron: each run delayed by the jitter, never a tick run twice or passed over', async (t) => {
  const got = await simulate('0 3 1 * *', '2026-01-15T00:00:00.000Z', '2026-05-15T00:00:00.000Z', 5 * MINUTE, '2h');
  // random() is 0.5: an hour late
  t.deepEqual(got.runs, [
    '2026-01-15T00:00:00.000Z',
    '2026-02-01T04:00:00.000Z',
    '2026-03-01T04:00:00.000Z',
    '2026-04-01T04:00:00.000Z',
    '2026-05-01T04:00:00.000Z',
  ]);
});

test('the loop stops at once when stopped during a wait of a month', async (t) => {
  const sim = simulatedClock('2026-01-15T00:00:00.000Z');
  const stop = new AbortController();
  let runs = 0;
  const done = runOnSchedule(parseSchedule('0 3 1 * *'), 0, {
    runOnce: async () => {
      runs++;
      return 0;
    },
    log: () => {},
    stop: stop.signal,
    // a clock whose timers never fire: only the stop can end the wait
    clock: { ...sim.clock, setTimer: () => ({ cleared: false }) },
    tz: 'UTC',
  });
  await new Promise((resolve) => setImmediate(resolve));
  stop.abort();
  await done;
  t.is(runs, 1);
});
