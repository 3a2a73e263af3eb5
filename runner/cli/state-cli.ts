// The `play state` command line: check, backup FILE, migrate. Kept apart from main.ts, which composes it.
import type { Argv } from 'yargs';
import type { Io } from './io.js';

export function stateCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'state <action> [file]',
    "the state store itself: check (integrity and schema), backup FILE (a consistent copy while others write), migrate (bring it to this play's schema)",
    (c) =>
      c
        .positional('action', { choices: ['check', 'backup', 'migrate'] as const, demandOption: true })
        .positional('file', { type: 'string', describe: 'backup: the file to write' })
        .option('state', {
          type: 'string',
          describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
        })
        .option('json', { type: 'boolean', default: false, describe: 'check: print as JSON' }),
    async (a) => {
      const { stateCommand } = await import('./state-command.js');
      io.code = await stateCommand({ action: a.action, file: a.file, state: a.state, json: a.json }, io.out);
    },
  );
}
