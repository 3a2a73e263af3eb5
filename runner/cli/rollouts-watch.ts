// `play rollouts watch`: a standby controller. Every few seconds it looks in the state store for rolling
// runs whose controller stopped renewing their lease (killed, its machine gone, cut off from the store)
// and takes each over as `play resume RUN` does, with the same guarantees: the journal says where every
// node is, and every phase is safe to repeat. Another standby racing for the same run loses in the store
// (the lease is taken once) and goes on watching. SIGTERM or Ctrl-C stops it (a run it is finishing is
// brought to a safe point first, as for any rolling run).
import type { Writable } from 'node:stream';
import { PlayError } from '../core/errors.js';
import { sleepFor } from '../core/long-sleep.js';
import { orphanedRuns } from '../rolling/orphans.js';
import { LeaseHeldError } from '../state/lease.js';
import { openStore, storeLocation } from '../state/open-store.js';
import { resumeCommand } from './resume-command.js';

export interface WatchArgs {
  state?: string;
  /** Seconds between looks. */
  pollSec: number;
  acceptNew: boolean;
  knownHosts?: string;
}

export async function rolloutsWatch(
  args: WatchArgs,
  out: Writable,
  err: Writable,
  parent?: AbortSignal,
): Promise<number> {
  // Ctrl-C (the command's signal) or SIGTERM (a service manager stopping the standby).
  const stop = new AbortController();
  const onTerm = () => stop.abort();
  process.on('SIGTERM', onTerm);
  parent?.addEventListener('abort', onTerm, { once: true });
  try {
    return await watch(args, out, err, stop.signal);
  } finally {
    process.off('SIGTERM', onTerm);
    parent?.removeEventListener('abort', onTerm);
  }
}

async function watch(args: WatchArgs, out: Writable, err: Writable, signal: AbortSignal): Promise<number> {
  const log = (line: string) => err.write(`${new Date().toISOString()} play rollouts watch: ${line}\n`);
  log(`watching ${storeLocation(args.state)} every ${args.pollSec}s for rolling runs whose controller is gone`);
  while (!signal.aborted) {
    const store = await openStore(args.state);
    let orphans: Awaited<ReturnType<typeof orphanedRuns>>;
    try {
      orphans = await orphanedRuns(store.rollouts, new Date());
    } finally {
      await store.close();
    }
    for (const o of orphans) {
      if (signal.aborted) break;
      log(
        `run ${o.run.id} (${o.run.playbook}, pid ${o.run.pid} on ${o.run.controller}): its lease expired at ${o.expiredAt}; taking it over`,
      );
      const code = await resumeCommand(
        {
          run: String(o.run.id),
          state: args.state,
          json: false,
          live: 'never',
          acceptNew: args.acceptNew,
          knownHosts: args.knownHosts,
        },
        out,
        err,
        signal,
      ).catch((e: unknown) => {
        if (e instanceof LeaseHeldError) {
          log(`run ${o.run.id}: another controller has it now`);
          return null;
        }
        if (e instanceof PlayError) {
          log(`run ${o.run.id}: ${e.message}`);
          return e.exitCode;
        }
        throw e;
      });
      if (code !== null) log(`run ${o.run.id}: finished here, exit ${code}`);
    }
    await sleepFor(args.pollSec * 1000, signal);
  }
  log('stopped');
  return 0;
}
