// The outputs of drift runs (-v, --events, --log): the files opened now, so that one that cannot be
// written is exit 64 before any host is probed. A schedule opens them once for all its runs.
import type { Writable } from 'node:stream';
import { RunOutputs } from '../../report/run-output.js';
import type { DriftRunOptions } from './options.js';

export function driftOutputs(args: DriftRunOptions, out: Writable, err: Writable): RunOutputs {
  const view = RunOutputs.consoleOf(args, out, err);
  return new RunOutputs({ ...args, verbosity: args.verbosity ?? 0, view, stdout: out, live: false });
}
