// Cron schedules for `play drift --every`: the five fields of a crontab line
// (minute hour day-of-month month day-of-week) with `*`, lists, ranges, steps and names, read as
// Vixie cron reads them. Pure.
import { UsageError } from '../core/errors.js';

export interface CronSchedule {
  kind: 'cron';
  /** As given to --every. */
  text: string;
  /** The values each field allows, ascending: minute 0-59, hour 0-23, day 1-31, month 1-12, weekday 0-6 (0 Sunday). */
  minute: number[];
  hour: number[];
  dayOfMonth: number[];
  month: number[];
  dayOfWeek: number[];
  /**
   * Vixie cron's rule: when both day fields are restricted (neither starts with `*`), a day that
   * matches EITHER runs; otherwise a day must match both. `*\/2` starts with `*`, so it counts as
   * unrestricted here, as in Vixie cron.
   */
  dayOr: boolean;
}

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** Names for min, min+1, ... (months from 1, weekdays from 0). */
  names?: string[];
}

const SPECS: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: 'jan feb mar apr may jun jul aug sep oct nov dec'.split(' ') },
  // 7 is Sunday too, as in Vixie cron.
  { name: 'day-of-week', min: 0, max: 7, names: 'sun mon tue wed thu fri sat'.split(' ') },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** The most days each month can have (February: 29, in leap years). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Parses a cron line (or a macro such as @hourly); `flag` names it in errors (`--every '61 * * * *': ...`). */
export function parseCron(text: string, flag = '--every'): CronSchedule {
  const fail = (why: string) => new UsageError(`${flag} '${text}': ${why}`);
  let line = text.trim();
  if (line.startsWith('@')) {
    if (line === '@reboot') throw fail('@reboot is not a schedule: run `play drift` once at boot from a systemd unit');
    const macro = MACROS[line.toLowerCase()];
    if (!macro) throw fail(`expected one of ${Object.keys(MACROS).join(', ')}, or 5 cron fields`);
    line = macro;
  }
  const fields = line.split(/\s+/);
  if (fields.length !== 5) {
    throw fail(
      `a cron schedule has 5 fields (minute hour day-of-month month day-of-week; no seconds, no command), got ${fields.length}`,
    );
  }
  const [minute, hour, dayOfMonth, month, weekdays] = fields.map((f, i) => parseField(f, SPECS[i]!, fail)) as [
    number[],
    number[],
    number[],
    number[],
    number[],
  ];
  const dayOfWeek = [...new Set(weekdays.map((d) => d % 7))].sort((a, b) => a - b);
  const dayOr = !fields[2]!.startsWith('*') && !fields[4]!.startsWith('*');
  // With the OR rule any matching weekday runs; otherwise some listed day must exist in some month.
  if (!dayOr && !month.some((m) => dayOfMonth[0]! <= MONTH_DAYS[m - 1]!)) {
    throw fail(`never runs: day-of-month '${fields[2]}' does not occur in month '${fields[3]}'`);
  }
  return { kind: 'cron', text, minute, hour, dayOfMonth, month, dayOfWeek, dayOr };
}

/** One field: a comma list of `*`, `N`, `N-M`, each range (or `*`) with an optional `/STEP`. */
function parseField(text: string, spec: FieldSpec, fail: (why: string) => UsageError): number[] {
  const values = new Set<number>();
  for (const item of text.split(',')) {
    const [range, step, extra] = item.split('/');
    if (extra !== undefined || !range) throw fail(`${spec.name} '${item}' is not a value, a range or a step`);
    let [lo, hi] = [spec.min, spec.name === 'day-of-week' ? 6 : spec.max];
    if (range !== '*') {
      const dash = range.indexOf('-', 1);
      lo = value(dash < 0 ? range : range.slice(0, dash), spec, fail);
      hi = dash < 0 ? lo : value(range.slice(dash + 1), spec, fail);
      if (hi < lo) {
        throw fail(
          `${spec.name} range ${range} runs backwards: write ${hi}-${lo} (a list such as 22-23,0-1 wraps around)`,
        );
      }
      if (step !== undefined && dash < 0) {
        throw fail(`${spec.name} '${item}': a step needs a range or *: write ${range}-${spec.max}/${step}`);
      }
    }
    let by = 1;
    if (step !== undefined) {
      if (!/^\d+$/.test(step)) throw fail(`${spec.name} step '${step}' is not a number`);
      by = Number(step);
      if (by < 1) throw fail(`${spec.name} step ${by} must be at least 1`);
    }
    for (let v = lo; v <= hi; v += by) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}

function value(text: string, spec: FieldSpec, fail: (why: string) => UsageError): number {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    if (n < spec.min || n > spec.max) throw fail(`${spec.name} ${n} is out of ${spec.min}-${spec.max}`);
    return n;
  }
  const i = spec.names?.indexOf(text.toLowerCase()) ?? -1;
  if (i >= 0) return spec.min + i;
  const names = spec.names ? ` or a name (${spec.names[0]}-${spec.names[spec.names.length - 1]})` : '';
  throw fail(`${spec.name} '${text}' is not a number${names}`);
}

/**
 * The shortest time between two due times, in ms, on the wall clock (a DST change shifts one gap by
 * its hour). Within a day the times are the hours x minutes; between days, the closest two matching
 * days, found by scanning one 400-year Gregorian cycle (after which dates and weekdays repeat).
 */
export function shortestCronGapMs(s: CronSchedule): number {
  const times = s.hour.flatMap((h) => s.minute.map((m) => h * 60 + m));
  let gap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < times.length; i++) gap = Math.min(gap, times[i]! - times[i - 1]!);
  const span = times[times.length - 1]! - times[0]!;
  return Math.min(gap, shortestDayGap(s) * 1440 - span) * 60_000;
}

/** The fewest days between two matching days; the scan stops early at 1, which nothing beats. */
function shortestDayGap(s: CronSchedule): number {
  const months = new Set(s.month);
  const days = new Set(s.dayOfMonth);
  const weekdays = new Set(s.dayOfWeek);
  let best = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let index = 0;
  let weekday = 6; // 2000-01-01 was a Saturday
  // One cycle and one more year, so that the gap across the cycle's end is seen too.
  for (let y = 2000; y <= 2400 && best > 1; y++) {
    const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
    for (let mo = 1; mo <= 12; mo++) {
      const length = mo === 2 ? (leap ? 29 : 28) : MONTH_DAYS[mo - 1]!;
      for (let day = 1; day <= length; day++, index++, weekday = (weekday + 1) % 7) {
        const dom = days.has(day);
        const dow = weekdays.has(weekday);
        if (!months.has(mo) || !(s.dayOr ? dom || dow : dom && dow)) continue;
        best = Math.min(best, index - last);
        last = index;
      }
    }
  }
  return best;
}

/** Does the day of `wall` (a wall-clock time held in UTC fields) match the day fields? */
function dayMatches(s: CronSchedule, wall: Date): boolean {
  const dom = s.dayOfMonth.includes(wall.getUTCDate());
  const dow = s.dayOfWeek.includes(wall.getUTCDay());
  return s.dayOr ? dom || dow : dom && dow;
}

/** `t`'s wall-clock fields in `tz`, held as the UTC fields of a timestamp: calendar arithmetic without DST. */
function toWall(t: Date, tz: 'UTC' | 'local'): number {
  if (tz === 'UTC') return t.getTime();
  return Date.UTC(
    t.getFullYear(),
    t.getMonth(),
    t.getDate(),
    t.getHours(),
    t.getMinutes(),
    t.getSeconds(),
    t.getMilliseconds(),
  );
}

function fromWall(wall: Date, tz: 'UTC' | 'local'): Date {
  if (tz === 'UTC') return new Date(wall.getTime());
  const w = wall;
  return new Date(w.getUTCFullYear(), w.getUTCMonth(), w.getUTCDate(), w.getUTCHours(), w.getUTCMinutes());
}

/**
 * The first minute strictly after `after` that the schedule allows, in `tz`'s wall clock. In local
 * time a minute that does not exist (a DST gap) runs when JavaScript's Date places it (an hour
 * later), and a repeated hour runs once: a due time is never at or before `after`.
 */
export function nextCron(s: CronSchedule, after: Date, tz: 'UTC' | 'local'): Date {
  let t = Math.floor(toWall(after, tz) / 60_000) * 60_000 + 60_000;
  // Parsing refused impossible days; any possible day recurs within 400 years (the Gregorian cycle).
  const limit = new Date(t).getUTCFullYear() + 400;
  for (;;) {
    const d = new Date(t);
    const [y, mo, day, h] = [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()];
    if (y > limit) throw new Error(`${s.text}: no due time in 400 years after ${after.toISOString()}`);
    if (!s.month.includes(mo + 1)) t = Date.UTC(y, mo + 1, 1);
    else if (!dayMatches(s, d)) t = Date.UTC(y, mo, day + 1);
    else if (!s.hour.includes(h)) t = Date.UTC(y, mo, day, h + 1);
    else if (!s.minute.includes(d.getUTCMinutes())) t += 60_000;
    else {
      const due = fromWall(d, tz);
      if (due.getTime() > after.getTime()) return due;
      t += 60_000;
    }
  }
}
