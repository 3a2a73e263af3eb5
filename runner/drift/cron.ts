// Cron schedules for `play drift --every`: the five fields of a crontab line
// (minute hour day-of-month month day-of-week) with `*`, lists, ranges, steps and names, read as
// Vixie cron reads them, each problem named with the flag; when they come due is croner's answer,
// given the checked lists (croner's own parser differs from Vixie's where a day field is `*\/N`, and
// its messages do not name the flag). Pure.
import { Cron } from 'croner';
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

/** croner's job for a schedule, made once: its pattern is the parsed lists, so croner reads what we checked. */
const JOBS = new WeakMap<CronSchedule, Cron>();

function job(s: CronSchedule): Cron {
  let cron = JOBS.get(s);
  if (!cron) {
    const pattern = [s.minute, s.hour, s.dayOfMonth, s.month, s.dayOfWeek].map((f) => f.join(',')).join(' ');
    // Wall-clock fields held as UTC (no DST inside croner); Vixie's day rule decided at parse time.
    cron = new Cron(pattern, { mode: '5-part', utcOffset: 0, domAndDow: !s.dayOr });
    JOBS.set(s, cron);
  }
  return cron;
}

/** The first wall-clock due time strictly after the wall-clock time `wall` (ms, UTC fields). */
function nextWall(s: CronSchedule, wall: number): number {
  const next = job(s).nextRun(new Date(wall));
  // Parsing refused impossible days; croner finds any possible one within its years.
  if (!next) throw new Error(`${s.text}: no due time after ${new Date(wall).toISOString()}`);
  return next.getTime();
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

function fromWall(wall: number, tz: 'UTC' | 'local'): Date {
  if (tz === 'UTC') return new Date(wall);
  const w = new Date(wall);
  return new Date(w.getUTCFullYear(), w.getUTCMonth(), w.getUTCDate(), w.getUTCHours(), w.getUTCMinutes());
}

/**
 * The first minute strictly after `after` that the schedule allows, in `tz`'s wall clock. In local
 * time a minute that does not exist (a DST gap) runs when JavaScript's Date places it (an hour
 * later), and a repeated hour runs once: a due time is never at or before `after`.
 */
export function nextCron(s: CronSchedule, after: Date, tz: 'UTC' | 'local'): Date {
  let wall = toWall(after, tz);
  for (;;) {
    wall = nextWall(s, wall);
    const due = fromWall(wall, tz);
    if (due.getTime() > after.getTime()) return due;
  }
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** One Gregorian cycle (after which dates and weekdays repeat), and one more year to see across its end. */
const CYCLE = { from: 2000, to: 2401 };

/**
 * The shortest time between two due times, in ms, on the wall clock (a DST change shifts one gap by
 * its hour), from croner's own due times: within a day (every matching day has the same times), and
 * from a day's last time to the next matching day's first.
 */
export function shortestCronGapMs(s: CronSchedule): number {
  const first = nextWall(s, Date.UTC(CYCLE.from, 0, 1) - 1);
  const day = first - (first % DAY_MS);
  let withinDay = Number.POSITIVE_INFINITY;
  let last = first;
  for (let t = nextWall(s, first); t < day + DAY_MS && withinDay > MINUTE_MS; t = nextWall(s, t)) {
    withinDay = Math.min(withinDay, t - last);
    last = t;
  }
  if (withinDay === MINUTE_MS) return withinDay;
  const span = last - first;
  return Math.min(withinDay, shortestDayGap(s, first % DAY_MS, span) * DAY_MS - span);
}

/**
 * The fewest days between two matching days. A year's matches, and the first of the next year's,
 * depend only on its weekday of January 1st and whether it and the next are leap years: each such
 * kind of year is walked once. A schedule that passes over a whole year is rare, and walked whole.
 */
function shortestDayGap(s: CronSchedule, firstTime: number, span: number): number {
  const kinds = new Set<string>();
  let best = Number.POSITIVE_INFINITY;
  for (let y = CYCLE.from; y < CYCLE.to && best > 1; y++) {
    const kind = `${new Date(Date.UTC(y, 0, 1)).getUTCDay()} ${isLeap(y)} ${isLeap(y + 1)}`;
    if (kinds.has(kind)) continue;
    kinds.add(kind);
    const gap = dayGapWithin(s, Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1), firstTime, span);
    if (gap === null) return dayGapWithin(s, Date.UTC(CYCLE.from, 0, 1), Date.UTC(CYCLE.to, 0, 1), firstTime, span)!;
    best = Math.min(best, gap);
  }
  return best;
}

/**
 * The fewest days between matching days from the first at or after `from` to the first at or after
 * `to`, stopping at 1 (nothing beats it); null when no day before `to` matches. Each step asks croner
 * for the next due time after a matching day's last one: the next matching day's first.
 */
function dayGapWithin(s: CronSchedule, from: number, to: number, firstTime: number, span: number): number | null {
  let day = nextWall(s, from - 1) - firstTime;
  if (day >= to) return null;
  let best = Number.POSITIVE_INFINITY;
  while (day < to && best > 1) {
    const next = nextWall(s, day + firstTime + span) - firstTime;
    best = Math.min(best, Math.round((next - day) / DAY_MS));
    day = next;
  }
  return best;
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
