// The loop of a drift schedule (`play drift --every`), apart from what it runs: a run at once, then one
// at each tick (delayed by up to the jitter), never two at once. A tick that falls while a run is going
// is skipped and logged (or, with missed: 'once', caught up with one run). With claims, the ticks are
// shared with the other controllers on one state store: each tick is run by one of them. The waits go
// through the long sleep: a due time a month or a year away is waited for, not run at once.
import { PlayError } from '../../core/errors.js';
import { SYSTEM_CLOCK, sleepUntil, type WaitClock } from '../../core/long-sleep.js';
import type { LeaseClaim } from '../../state/lease.js';
import type { StateStore, TickRefusal } from '../../state/store.js';
import { clockTime, describeSkipped, type Schedule, type ScheduleTz, skippedTicks, withJitter } from '../schedule.js';
import { currentTick, EPOCH } from '../ticks.js';

/** A shared schedule's ticks in the state store: each is run by one controller, never two at once. */
export interface TickClaimer {
  /** null: this controller runs the tick; else why not. */
  claim(due: Date): Promise<TickRefusal | null>;
  renew(due: Date): Promise<void>;
  finish(due: Date): Promise<void>;
  /** How often a claimed run renews its claim. */
  readonly renewEveryMs: number;
}

/** What the loop runs and what it waits with; tests give a simulated clock. */
export interface ScheduleLoopDeps {
  /** One run; its exit code. A PlayError it throws is logged and the loop goes on. */
  runOnce(): Promise<number>;
  log(line: string): void;
  /** Aborted to stop: the current run finishes, no new one starts, a wait ends at once. */
  stop: AbortSignal;
  clock?: WaitClock;
  random?: () => number;
  tz?: ScheduleTz;
  /** Ticks shared with other controllers (absent: this loop alone, its ticks anchored at its start). */
  claims?: TickClaimer;
  missed?: 'skip' | 'once';
}

/** The ticks of schedule `key` in `store`, claimed with `claim`. */
export function tickClaimer(store: StateStore, key: string, claim: LeaseClaim): TickClaimer {
  return {
    claim: (due) => store.schedules.claim(key, due.toISOString(), claim),
    renew: (due) => store.schedules.renew(key, due.toISOString(), claim.token),
    finish: (due) => store.schedules.finish(key, due.toISOString(), claim.token),
    renewEveryMs: Math.max(200, Math.floor(claim.ttlMs / 3)),
  };
}

/**
 * Runs at once (shared: the current tick, unless another controller has it), then at each due time of
 * `schedule` (delayed by up to `jitterMs`), until `stop` aborts.
 */
export async function runOnSchedule(schedule: Schedule, jitterMs: number, d: ScheduleLoopDeps): Promise<void> {
  const clock = d.clock ?? SYSTEM_CLOCK;
  const now = () => new Date(clock.now());
  const tz = d.tz ?? 'local';
  const anchor = d.claims ? EPOCH : now();
  let tick = (d.claims && currentTick(schedule, now(), tz)) || now();
  while (!d.stop.aborted) {
    const start = now();
    const refusal = d.claims ? await d.claims.claim(tick) : null;
    if (refusal) d.log(refusalText(tick, refusal, tz));
    else await runTick(d, tick);
    const plan = skippedTicks(schedule, { start, end: now() }, tz, anchor);
    const skipped = describeSkipped(plan.skipped, start, tz);
    if (skipped) d.log(skipped);
    if (d.stop.aborted) break;
    if (d.missed === 'once' && plan.skipped.length > 0) {
      // Catch up with one run now, under the latest missed tick (another controller may have it).
      tick = plan.skipped.at(-1)!;
      d.log(`catching up: one run for the ${plan.skipped.length} missed`);
      continue;
    }
    tick = plan.next;
    const due = withJitter(plan.next, jitterMs, d.random ?? Math.random);
    if (due.getTime() > clock.now()) {
      d.log(`next run at ${due.toISOString()}`);
      await sleepUntil(due.getTime(), d.stop, clock);
    }
  }
}

/** One claimed (or solo) run, its claim renewed while it goes and finished after. */
async function runTick(d: ScheduleLoopDeps, tick: Date): Promise<void> {
  const beat = d.claims ? setInterval(() => void d.claims!.renew(tick).catch(() => {}), d.claims.renewEveryMs) : null;
  beat?.unref();
  try {
    const code = await d.runOnce();
    d.log(`run finished, exit ${code}`);
  } catch (e) {
    if (!(e instanceof PlayError)) throw e;
    d.log(`run failed: ${e.message}`);
  } finally {
    if (beat) clearInterval(beat);
    await d.claims
      ?.finish(tick)
      .catch((e: unknown) => d.log(`could not record the run's end: ${(e as Error).message}`));
  }
}

function refusalText(tick: Date, r: TickRefusal, tz: ScheduleTz): string {
  const who = `pid ${r.by.pid} on ${r.by.host}`;
  return r.kind === 'taken'
    ? `the ${clockTime(tick, tz)} run is another controller's (${who})`
    : `skipped the ${clockTime(tick, tz)} run: the run of ${clockTime(new Date(r.dueAt), tz)} (${who}) was still going`;
}
