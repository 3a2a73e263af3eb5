// `play drift --every SCHEDULE`: drift runs until stopped. Runs never overlap (one at a time, in this
// loop): a tick that falls while a run is still going is skipped and logged. The first run starts at
// once; later ones at their ticks, delayed by up to --jitter. SIGTERM or Ctrl-C lets the current run
// finish (its record and reports are written) and exits 0. A failing run is logged and the loop goes on.
import type { Writable } from 'node:stream';
import { PlayError } from '../core/errors.js';
import { describeSkipped, parseDuration, parseSchedule, skippedTicks, withJitter } from '../drift/schedule.js';
import { type DriftArgs, driftCommand } from './drift-command.js';

export interface LoopArgs {
  every: string;
  jitter?: string;
}

export async function driftLoop(args: DriftArgs & LoopArgs, out: Writable, err: Writable): Promise<number> {
  const schedule = parseSchedule(args.every);
  const jitterMs = args.jitter ? parseDuration(args.jitter, '--jitter') : 0;
  const log = (line: string) => err.write(`${new Date().toISOString()} play drift: ${line}\n`);
  const anchor = new Date();
  let stopping = false;
  let wake: (() => void) | null = null;
  const stop = (signal: string) => {
    if (!stopping) log(`${signal}: finishing the current run, then stopping`);
    stopping = true;
    wake?.();
  };
  const onTerm = () => stop('SIGTERM');
  const onInt = () => stop('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    log(`running every ${args.every}${jitterMs ? ` (jitter up to ${jitterMs} ms)` : ''}; SIGTERM or Ctrl-C stops`);
    while (!stopping) {
      const start = new Date();
      try {
        const code = await driftCommand(args, out, err);
        log(`run finished, exit ${code}`);
      } catch (e) {
        if (!(e instanceof PlayError)) throw e;
        log(`run failed: ${e.message}`);
      }
      const plan = skippedTicks(schedule, { start, end: new Date() }, 'local', anchor);
      const skipped = describeSkipped(plan.skipped, start);
      if (skipped) log(skipped);
      const due = withJitter(plan.next, jitterMs, Math.random);
      const wait = due.getTime() - Date.now();
      if (stopping) break;
      if (wait > 0) {
        log(`next run at ${due.toISOString()}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
      }
    }
    log('stopped');
    return 0;
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}
