// The ticks of a schedule shared by several controllers: each tick is a due time every controller
// computes alike, so they can claim it in the state store by (schedule key, due time). An interval is
// anchored at the Unix epoch (a controller's start time would give each its own ticks); a cron line is
// absolute already. The key names the schedule: the playbooks, the limit, the schedule and the
// inventory's content, so two machines running the same check share it, and `--schedule-id` overrides it.
import { createHash } from 'node:crypto';
import { nextRun, type Schedule, type ScheduleTz } from './schedule.js';

export const EPOCH = new Date(0);

/** Windows searched backwards for a cron line's last due time, shortest first. */
const LOOK_BACK_MS = [3_600_000, 86_400_000, 32 * 86_400_000, 367 * 86_400_000, (4 * 365 + 2) * 86_400_000];

/** The latest due time at or before `now` (null: none in four years, as `0 0 29 2 *` can be). */
export function currentTick(schedule: Schedule, now: Date, tz: ScheduleTz = 'local'): Date | null {
  if (schedule.kind === 'interval') return new Date(Math.floor(now.getTime() / schedule.ms) * schedule.ms);
  for (const back of LOOK_BACK_MS) {
    let t = nextRun(schedule, new Date(now.getTime() - back), tz);
    if (t.getTime() > now.getTime()) continue;
    for (let next = nextRun(schedule, t, tz); next.getTime() <= now.getTime(); next = nextRun(schedule, next, tz))
      t = next;
    return t;
  }
  return null;
}

export interface ScheduleIdentity {
  readonly playbooks: readonly string[];
  readonly limit?: string;
  readonly every: string;
  /** The inventory's content hash (runner/rolling/source-hash.ts). */
  readonly inventory: string;
}

export function scheduleKey(s: ScheduleIdentity): string {
  const canonical = JSON.stringify([[...s.playbooks].sort(), s.limit ?? null, s.every.trim(), s.inventory]);
  return `drift:${createHash('sha256').update(canonical).digest('hex').slice(0, 32)}`;
}
