// Cron due times come from croner, given the lists play's parser checked. Where croner's own reading of
// a line differs from Vixie cron's (a day field written `*/N` is unrestricted for the day rule, 7 is
// Sunday, names in ranges, macros), the due times are compared with a minute-by-minute scan of the
// parsed lists, and the shortest gap with a day-by-day scan of a whole Gregorian cycle.
import test from 'ava';
import { type CronSchedule, nextCron, parseCron, shortestCronGapMs } from '../../runner/drift/cron.js';

/** Does the wall-clock minute `t` (UTC fields) match the lists, by Vixie cron's day rule? */
function matches(s: CronSchedule, t: Date): boolean {
  const dom = s.dayOfMonth.includes(t.getUTCDate());
  const dow = s.dayOfWeek.includes(t.getUTCDay());
  return (
    s.minute.includes(t.getUTCMinutes()) &&
    s.hour.includes(t.getUTCHours()) &&
    s.month.includes(t.getUTCMonth() + 1) &&
    (s.dayOr ? dom || dow : dom && dow)
  );
}

/** The first `count` due times after `from`, minute by minute (UTC). */
function scanDue(s: CronSchedule, from: string, count: number): string[] {
  const out: string[] = [];
  for (let t = Date.parse(from) + 60_000; out.length < count; t += 60_000) {
    if (matches(s, new Date(t))) out.push(new Date(t).toISOString());
  }
  return out;
}

function croner(s: CronSchedule, from: string, count: number): string[] {
  const out: string[] = [];
  for (let t = new Date(from); out.length < count; ) {
    t = nextCron(s, t, 'UTC');
    out.push(t.toISOString());
  }
  return out;
}

// Lines where croner's parser alone would read them otherwise, and where the OR rule applies.
const LINES = [
  '0 0 */2 * 5', // */N starts with *: both day fields must match (croner alone: either)
  '0 0 1-31/2 * 5', // a range with a step: restricted, either day field runs
  '0 0 */3 * */2', // both start with *: both must match
  '30 6 1,15 * mon', // the 1st, the 15th or any Monday
  '0 12 * * 7', // 7 is Sunday
  '0 12 * * 5-7', // Friday to Sunday
  '0 0 * jan-mar sat,sun',
  '*/20 22-23,0-1 * * *', // a list that wraps around midnight
  '@weekly',
  '@monthly',
  '15 10 31 * *', // months without a 31st are passed over
  '0 0 13 * fri',
];

test('due times agree with a minute-by-minute scan of the parsed lists', (t) => {
  const from = '2026-02-20T07:13:00.000Z';
  const table = LINES.map((line) => [line, scanDue(parseCron(line), from, 8)]);
  t.deepEqual(
    LINES.map((line) => [line, croner(parseCron(line), from, 8)]),
    table,
  );
});

/** The shortest gap by scanning every day of 2000-2400 with the lists (the oracle). */
function scanGapMs(s: CronSchedule): number {
  const times = s.hour.flatMap((h) => s.minute.map((m) => h * 60 + m));
  let within = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) within = Math.min(within, times[i]! - times[i - 1]!);
  const span = times[times.length - 1]! - times[0]!;
  let last = Number.NEGATIVE_INFINITY;
  let days = Number.POSITIVE_INFINITY;
  for (let d = Date.UTC(2000, 0, 1); d < Date.UTC(2402, 0, 1); d += 86_400_000) {
    if (!matches(s, new Date(d + times[0]! * 60_000))) continue;
    days = Math.min(days, (d - last) / 86_400_000);
    last = d;
  }
  return Math.min(within, days * 1440 - span) * 60_000;
}

test('the shortest gap agrees with a scan of a whole Gregorian cycle', (t) => {
  const lines = [
    ...LINES,
    '0 0 * * 1,3,5', // never two days running: every kind of year is walked
    '0 0 2-30/2 * *',
    '0 9,17 * * mon,fri',
    '0 0 29 2 */7', // Feb 29 on a Sunday: 28 years apart, or fewer across 2100, 2200, 2300
    '0 0 29 2 *',
    '0 0 31 12 *',
    '0 0 1 3 *',
    '0 0 28 2 *',
  ];
  t.deepEqual(
    lines.map((line) => [line, shortestCronGapMs(parseCron(line))]),
    lines.map((line) => [line, scanGapMs(parseCron(line))]),
  );
});
