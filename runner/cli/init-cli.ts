// `play init`: yargs' entry for the command that scaffolds a repository of one's own playbooks.
import type { Argv } from 'yargs';
import type { Io } from './io.js';

/** `play init [DIR]`: a repository of one's own playbooks (init-command.ts). */
export function initCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'init [dir]',
    'start a repository of your own playbooks in DIR (default: here): package.json, tsconfig, inventory, a playbook, its test',
    (c) =>
      c
        .positional('dir', { type: 'string', describe: 'the folder to write into (created if missing)' })
        .option('play', {
          type: 'string',
          describe: "play's package spec in package.json: a git URL, a tarball or a path (default: this play's folder)",
        }),
    async (a) => {
      const { initCommand } = await import('./init-command.js');
      io.code = initCommand({ dir: a.dir, play: a.play }, io.out);
    },
  );
}
