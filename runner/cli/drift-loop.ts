// `play drift --every SCHEDULE`: drift runs until stopped. Runs never overlap (one at a time, in this
// loop): a tick that falls while a run is still going is skipped and logged. The first run starts at
// once; later ones at their ticks, delayed by up to --jitter. SIGTERM or Ctrl-C lets the current run
// finish (its record and reports are written) and exits 0. A failing run is logged and the loop goes on.
// The waits go through the long sleep: a due time a month or a year away is waited for, not run at once.
import type { Writable } from 'node:stream';
import { PlayError } from '../core/errors.js';
import { SYSTEM_CLOCK, sleepUntil, type WaitClock } from '../core/long-sleep.js';
import { currentTick, EPOCH, scheduleKey } from '../drift/ticks.js';
import { contentHash } from '../rolling/source-hash.js';
import type { LeaseClaim } from '../state/lease.js';
import { leaseClaim } from '../state/lease-claim.js';
import { openStore } from '../state/open-store.js';
import type { StateStore, TickRefusal } from '../state/store.js';
import { inventoryPaths } from './inventory-path.js';
import { describeKeptRun, KeptConnections, keepLimitsFromEnv } from '../transport/kept-pool.js';
import {
  clockTime,
  describeSkipped,
  parseJitter,
  parseSchedule,
  type Schedule,
  type ScheduleTz,
  skippedTicks,
  withJitter,
} from '../drift/schedule.js';
import type { DriftArgs } from './drift-command.js';

export interface LoopArgs {
  every: string;
  jitter?: string;
  /** Ticks that fell while a run was going: skipped with a log line (default), or caught up with one run. */
  missed?: 'skip' | 'once';
  /** Names the shared schedule instead of its derived key (runner/drift/ticks.ts). */
  scheduleId?: string;
}

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

export async function driftLoop(args: DriftArgs & LoopArgs, out: Writable, err: Writable): Promise<number> {
  const schedule = parseSchedule(args.every);
  const jitterMs = args.jitter ? parseJitter(args.jitter, schedule) : 0;
  // Each host's connection is kept from one run to the next: a steady check is one round trip per host.
  const kept = new KeptConnections(keepLimitsFromEnv());
  const log = (line: string) => err.write(`${new Date().toISOString()} play drift: ${line}\n`);
  const stopping = new AbortController();
  const stop = (signal: string) => {
    if (!stopping.signal.aborted) log(`${signal}: finishing the current run, then stopping`);
    stopping.abort();
  };
  const onTerm = () => stop('SIGTERM');
  const onInt = () => stop('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    log(`running every ${args.every}${jitterMs ? ` (jitter up to ${jitterMs} ms)` : ''}; SIGTERM or Ctrl-C stops`);
    // Loaded here, not above: the loop itself (runOnSchedule) is tested without the drift machinery.
    const { driftCommand } = await import('./drift-command.js');
    const store = await openStore(args.state);
    try {
      const claims = sharedTicks(store, args);
      log(`schedule ${claims.key}: one run per tick among the controllers sharing ${store.location}`);
      await runOnSchedule(schedule, jitterMs, {
        runOnce: () =>
          driftCommand({ ...args, kept }, out, err).finally(() => {
            const stats = kept.takeRunStats();
            if (stats) log(describeKeptRun(stats));
          }),
        log,
        stop: stopping.signal,
        claims,
        missed: args.missed,
      });
    } finally {
      await kept.closeAll();
      await store.close();
    }
    log('stopped');
    return 0;
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}

/** The schedule's ticks as this controller claims them in `store`. */
function sharedTicks(store: StateStore, args: DriftArgs & LoopArgs): TickClaimer & { key: string } {
  let inventory: string;
  try {
    inventory = contentHash(inventoryPaths(args.inventory));
  } catch {
    // A missing inventory: the run itself says so; the schedule is named by the path given.
    inventory = String(args.inventory ?? 'lab');
  }
  const key =
    args.scheduleId ?? scheduleKey({ playbooks: args.playbooks, limit: args.limit, every: args.every, inventory });
  return { key, ...tickClaimer(store, key, leaseClaim()) };
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
