// What a run shows and keeps: -v/-vv/-vvv, --events FILE|-, --log FILE (runner/report/run-output.ts).
// Declared apart from run-cli.ts, which composes the run's options.
import type { Options } from 'yargs';

export const OUTPUT_OPTIONS = {
  verbose: {
    alias: 'v',
    type: 'count',
    describe: '-v: each step with times and output; -vv: what is sent; -vvv: the SSH connection',
  },
  events: {
    type: 'string',
    // Takes its value even when it is `-` (yargs would otherwise read a lone `-` as a positional).
    requiresArg: true,
    describe: 'write the run as JSON Lines events to FILE (- for stdout; the view goes to stderr)',
  },
  log: {
    type: 'string',
    requiresArg: true,
    describe: 'keep -vv detail with timestamps in FILE (created 0600), whatever the console shows',
  },
} as const satisfies Record<string, Options>;

/** The run arguments these options become. */
export function outputArgsOf(a: { verbose?: number; events?: string; log?: string }): {
  verbosity: number;
  events?: string;
  log?: string;
} {
  return { verbosity: a.verbose ?? 0, events: a.events, log: a.log };
}
