// `play drift --every SCHEDULE`: drift runs until stopped, on the schedule's ticks (schedule-loop.ts),
// each tick claimed in the state store so that controllers sharing it run each tick once. Each host's
// connection is kept from one run to the next. SIGTERM or Ctrl-C lets the current run finish (its
// record and reports are written) and exits 0; a failing run is logged and the loop goes on.
import type { Writable } from 'node:stream';
import { contentHash } from '../../rolling/source-hash.js';
import { leaseClaim } from '../../state/lease-claim.js';
import { openStore } from '../../state/open-store.js';
import type { StateStore } from '../../state/store.js';
import { describeKeptRun, KeptConnections, keepLimitsFromEnv } from '../../transport/kept-pool.js';
import { parseJitter, parseSchedule } from '../schedule.js';
import { scheduleKey } from '../ticks.js';
import type { DriftRunOptions } from './options.js';
import { runOnSchedule, type TickClaimer, tickClaimer } from './schedule-loop.js';

export interface LoopArgs {
  every: string;
  jitter?: string;
  /** Ticks that fell while a run was going: skipped with a log line (default), or caught up with one run. */
  missed?: 'skip' | 'once';
  /** Names the shared schedule instead of its derived key (runner/drift/ticks.ts). */
  scheduleId?: string;
}

export async function driftLoop(args: DriftRunOptions & LoopArgs, out: Writable, err: Writable): Promise<number> {
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
    const { driftRun } = await import('./drift-run.js');
    const store = await openStore(args.state);
    try {
      const claims = sharedTicks(store, args);
      log(`schedule ${claims.key}: one run per tick among the controllers sharing ${store.location}`);
      await runOnSchedule(schedule, jitterMs, {
        runOnce: () =>
          driftRun({ ...args, kept }, out, err).finally(() => {
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
function sharedTicks(store: StateStore, args: DriftRunOptions & LoopArgs): TickClaimer & { key: string } {
  let inventory: string;
  try {
    inventory = contentHash(args.inventories.paths());
  } catch {
    // A missing inventory: the run itself says so; the schedule is named by the path given.
    inventory = String(args.inventory ?? 'lab');
  }
  const key =
    args.scheduleId ?? scheduleKey({ playbooks: args.playbooks, limit: args.limit, every: args.every, inventory });
  return { key, ...tickClaimer(store, key, leaseClaim()) };
}
