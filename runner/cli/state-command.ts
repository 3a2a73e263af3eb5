// `play state check|backup FILE|migrate`: the store's own health. check runs the backend's integrity
// check (exit 1 when it finds a problem, naming each); backup writes a consistent copy while other plays
// go on writing (SQLite's online backup), never over an existing file; migrate upgrades an older store
// to this play's schema (any command that writes does it too; this does only that). check and backup
// never create a store.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { openStore, storeLocation } from '../state/open-store.js';

export interface StateArgs {
  action: 'check' | 'backup' | 'migrate';
  file?: string;
  state?: string;
  json: boolean;
}

export async function stateCommand(args: StateArgs, out: Writable): Promise<number> {
  if (args.action === 'backup' && !args.file)
    throw new UsageError('state backup: name the file to write (play state backup FILE)');
  if (args.action === 'backup' && existsSync(args.file!))
    throw new UsageError(`state backup ${args.file}: the file exists; name a new file (a backup never overwrites)`);
  if (args.action !== 'backup' && args.file)
    throw new UsageError(`state ${args.action}: takes no file (got '${args.file}')`);
  const store = await openStore(args.state, args.action === 'migrate' ? 'write' : 'read');
  if (!store) throw new UsageError(`state ${args.action}: no state store at ${storeLocation(args.state)}`);
  try {
    if (args.action === 'migrate') {
      const c = await store.check();
      out.write(`state store ${store.location}: schema ${c.schema}, current\n`);
      return 0;
    }
    if (args.action === 'backup') {
      await store.backup(resolve(args.file!));
      out.write(`state store ${store.location}: backed up to ${args.file}\n`);
      return 0;
    }
    const c = await store.check();
    if (args.json) out.write(`${JSON.stringify(c, null, 2)}\n`);
    else
      out.write(
        `state store ${c.location}: schema ${c.schema}, ${c.driftRuns} drift runs, ${c.rollouts} rolling runs; ` +
          `${c.problems.length === 0 ? 'integrity ok' : `${c.problems.length} problems:\n${c.problems.map((p) => `  ${p}`).join('\n')}`}\n`,
      );
    return c.problems.length === 0 ? 0 : 1;
  } finally {
    await store.close();
  }
}
