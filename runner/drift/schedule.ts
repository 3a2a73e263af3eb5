// When `play drift --every` runs: a cron line (runner/drift/cron.ts) or an
// interval (`15m`), the next due time, jitter, and which due times a slow run made us skip (never
// two runs at once). Pure: the loop, its clock and its timers belong to the CLI.
import { UsageError } from '../core/errors.js';
import { MAX_INTERVAL_MS } from '../core/long-sleep.js';
import { type CronSchedule, nextCron, parseCron, shortestCronGapMs } from './cron.js';

export type { CronSchedule } from './cron.js';

export interface IntervalSchedule {
  kind: 'interval';
  /** As given to --every. */
  text: string;
  ms: number;
}

export type Schedule = CronSchedule | IntervalSchedule;

/** Cron's wall clock: the machine's local time (as cron uses), or UTC. */
export type ScheduleTz = 'UTC' | 'local';

const UNITS = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['m', 60_000],
  ['s', 1000],
] as const;

/**
 * A duration such as `30s`, `15m`, `2h`, `1d` or `1h30m` (units in that order, each once), in ms.
 * `flag` names it in errors: `--jitter '5x': ...`. Throws UsageError (exit 64).
 */
export function parseDuration(text: string, flag: string): number {
  const m = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  if (!m || !text.trim()) throw new UsageError(`${flag} '${text}': expected a duration such as 30s, 15m or 2h`);
  return UNITS.reduce((ms, [, unit], i) => ms + Number(m[i + 1] ?? 0) * unit, 0);
}

/** `ms` as parseDuration reads it: 90_000 is `1m30s`; 0 is `0s`. Whole seconds (below a second: `0s`). */
export function formatDuration(ms: number): string {
  let left = Math.floor(ms / 1000) * 1000;
  const parts = UNITS.flatMap(([name, unit]) => {
    const n = Math.floor(left / unit);
    left -= n * unit;
    return n > 0 ? [`${n}${name}`] : [];
  });
  return parts.join('') || '0s';
}

/**
 * `--every`'s value: 5 cron fields (or a macro: @hourly, @daily, ...) when it has spaces or starts
 * with `@`, else an interval from 1s to 365d. Throws UsageError (exit 64) naming the field.
 */
export function parseSchedule(text: string, flag = '--every'): Schedule {
  const t = text.trim();
  if (/\s/.test(t) || t.startsWith('@')) return parseCron(text, flag);
  let ms: number;
  try {
    ms = parseDuration(t, flag);
  } catch {
    throw new UsageError(
      `${flag} '${text}': expected an interval such as 30s, 15m or 2h, or a cron schedule of 5 fields such as '0 * * * *'`,
    );
  }
  if (ms < 1000) throw new UsageError(`${flag} '${text}': an interval must be at least 1s`);
  if (ms > MAX_INTERVAL_MS) {
    throw new UsageError(
      `${flag} '${text}': an interval must be at most ${formatDuration(MAX_INTERVAL_MS)} (a year); for a yearly run give a cron schedule such as '0 0 1 1 *'`,
    );
  }
  return { kind: 'interval', text, ms };
}

/** The shortest time between two due times: the interval, or a cron schedule's closest two matches. */
export function shortestGapMs(schedule: Schedule): number {
  return schedule.kind === 'interval' ? schedule.ms : shortestCronGapMs(schedule);
}

/**
 * `--jitter`'s value for `schedule`, in ms: at most the shortest time between two due times, so that a
 * delayed run still starts before the next tick (a longer delay would pass over ticks unlogged).
 */
export function parseJitter(text: string, schedule: Schedule, flag = '--jitter'): number {
  const ms = parseDuration(text, flag);
  const gap = shortestGapMs(schedule);
  if (ms > gap) {
    const what = schedule.kind === 'interval' ? 'the interval' : 'the shortest time between two runs';
    throw new UsageError(
      `${flag} '${text}': must be at most ${what} of --every '${schedule.text}' (${formatDuration(gap)})`,
    );
  }
  return ms;
}

/**
 * The first due time strictly after `after`.
 * - Cron: in `tz`'s wall clock, local by default as cron does (tests pass 'UTC').
 * - Interval: `anchor + k * interval`, the first such time after `after`. The loop passes its own
 *   start as `anchor`, so due times keep their rhythm whatever the runs last (a run that overruns
 *   skips whole ticks, as with cron); without an anchor it is `after + interval`.
 */
export function nextRun(schedule: Schedule, after: Date, tz: ScheduleTz = 'local', anchor?: Date): Date {
  if (schedule.kind === 'cron') return nextCron(schedule, after, tz);
  const base = (anchor ?? after).getTime();
  const k = Math.floor((after.getTime() - base) / schedule.ms) + 1;
  return new Date(base + k * schedule.ms);
}

/**
 * `due` delayed by up to `maxMs` (never earlier: a run must not start before its tick), so that many
 * machines on one schedule do not all probe the fleet at the same second. `random` as Math.random.
 */
export function withJitter(due: Date, maxMs: number, random: () => number): Date {
  if (!(maxMs > 0)) return new Date(due.getTime());
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
  return new Date(due.getTime() + Math.floor(r * maxMs));
}

export interface TickPlan {
  /** Due times that fell while the run was going (start < t < end): not run, to be logged. */
  skipped: Date[];
  /** The first due time at or after the run's end: the next run (at once if already due). */
  next: Date;
}

/**
 * After a run from `start` to `end`: the ticks it made us skip and the next one. A tick exactly at
 * `end` is not skipped (nothing is going any more). `tz` and `anchor` as for nextRun.
 */
export function skippedTicks(
  schedule: Schedule,
  run: { start: Date; end: Date },
  tz: ScheduleTz = 'local',
  anchor?: Date,
): TickPlan {
  if (run.end.getTime() < run.start.getTime()) {
    throw new RangeError(`a run cannot end (${run.end.toISOString()}) before it starts (${run.start.toISOString()})`);
  }
  const skipped: Date[] = [];
  let t = nextRun(schedule, run.start, tz, anchor);
  while (t.getTime() < run.end.getTime()) {
    skipped.push(t);
    t = nextRun(schedule, t, tz, anchor);
  }
  return { skipped, next: t };
}

/** `10:15`, or `10:15:30` when there are seconds, in `tz`'s wall clock. */
export function clockTime(t: Date, tz: ScheduleTz = 'local'): string {
  const [h, m, s] =
    tz === 'UTC'
      ? [t.getUTCHours(), t.getUTCMinutes(), t.getUTCSeconds()]
      : [t.getHours(), t.getMinutes(), t.getSeconds()];
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}${s ? `:${two(s)}` : ''}`;
}

/**
 * One log line for the ticks a run skipped, or null if none:
 * `skipped the 10:15 run: the run of 10:00 was still going`,
 * `skipped 3 runs (10:15 to 10:45): the run of 10:00 was still going`.
 */
export function describeSkipped(skipped: readonly Date[], runStart: Date, tz: ScheduleTz = 'local'): string | null {
  const [first] = skipped;
  if (!first) return null;
  const last = skipped[skipped.length - 1]!;
  const what =
    skipped.length === 1
      ? `the ${clockTime(first, tz)} run`
      : `${skipped.length} runs (${clockTime(first, tz)} to ${clockTime(last, tz)})`;
  return `skipped ${what}: the run of ${clockTime(runStart, tz)} was still going`;
}
