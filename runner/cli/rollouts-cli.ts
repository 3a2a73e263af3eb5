// `play resume [RUN]` and `play rollouts <action> [RUN]`: yargs' table of the rolling runs' commands,
// kept apart from main.ts, which composes it. Each command imports what it needs when it runs.
import type { Argv } from 'yargs';
import { positiveInteger } from './coerce.js';
import { CONNECTION_GROUP, CONNECTION_OPTIONS } from './connection-flags.js';
import type { Io } from './io.js';
import { OUTPUT_OPTIONS, outputArgsOf } from './output-options.js';

/** `play rollouts list|show [RUN]|unlock RUN`: the rolling runs' journal; `play resume [RUN]`. */
export function rolloutCommands<T>(y: Argv<T>, io: Io) {
  return y
    .command(
      'resume [run]',
      'continue an unfinished rolling run (RUN from play rollouts list; default: the newest unfinished one)',
      (c) =>
        c
          .positional('run', { type: 'string', describe: 'a run number' })
          .option('state', {
            type: 'string',
            describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print the JSON report on stdout' })
          .option('report', { type: 'string', describe: 'write the JSON report to this file' })
          .option('live', { type: 'boolean', default: true, describe: 'live view on a terminal' })
          .option('accept-new', { type: 'boolean', default: false, describe: 'record unknown host keys' })
          .option('known-hosts', { type: 'string', describe: 'known_hosts file for every host' })
          .option('allow-changed', {
            type: 'boolean',
            default: false,
            describe: 'resume even if the playbook or inventory changed since the run started',
          })
          .options(OUTPUT_OPTIONS)
          .options(CONNECTION_OPTIONS)
          .group(Object.keys(CONNECTION_OPTIONS), CONNECTION_GROUP),
      async (a) => {
        const [{ resumeCommand }, { readConnectionFlags }, { openVault, vaultFlagsOf }] = await Promise.all([
          import('./resume-command.js'),
          import('./connection-flags.js'),
          import('../vault/passwords.js'),
        ]);
        // Asked before the vault password, as a rolling run asks.
        const connection = await readConnectionFlags(a);
        io.code = await resumeCommand(
          {
            run: a.run,
            state: a.state,
            json: a.json,
            report: a.report,
            live: a.live ? 'auto' : 'never',
            acceptNew: a.acceptNew,
            knownHosts: a.knownHosts,
            allowChanged: a.allowChanged,
            vault: await openVault(vaultFlagsOf(a)),
            connection,
            ...outputArgsOf(a),
          },
          io.out,
          io.err,
          io.signal,
        );
      },
    )
    .command(
      'rollouts <action> [run]',
      'the rolling runs in the state store: list, show [RUN|latest] (its report), unlock RUN, watch (a standby that takes over runs whose controller is gone), quarantined (KBs a rollback quarantined), release-kb KB',
      (c) =>
        c
          .positional('action', {
            choices: ['list', 'show', 'unlock', 'watch', 'quarantined', 'release-kb'] as const,
            demandOption: true,
          })
          .positional('run', { type: 'string', describe: 'a run number, or latest (release-kb: the KB)' })
          .option('state', {
            type: 'string',
            describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print as JSON' })
          .option('runs', {
            type: 'string',
            default: '20',
            coerce: positiveInteger('--runs'),
            describe: 'list: how many, newest first',
          })
          .option('poll', {
            type: 'string',
            default: '5',
            coerce: positiveInteger('--poll'),
            describe: 'watch: seconds between looks at the store',
          })
          .option('accept-new', { type: 'boolean', default: false, describe: 'watch: record unknown host keys' })
          .option('known-hosts', { type: 'string', describe: 'watch: known_hosts file for every host' }),
      async (a) => {
        if (a.action === 'watch') {
          const { rolloutsWatch } = await import('./rollouts-watch.js');
          io.code = await rolloutsWatch(
            { state: a.state, pollSec: a.poll as unknown as number, acceptNew: a.acceptNew, knownHosts: a.knownHosts },
            io.out,
            io.err,
            io.signal,
          );
          return;
        }
        const { rolloutsCommand } = await import('./rollouts-command.js');
        io.code = await rolloutsCommand(
          { action: a.action, run: a.run, state: a.state, json: a.json, limit: a.runs as unknown as number },
          io.out,
        );
      },
    );
}
