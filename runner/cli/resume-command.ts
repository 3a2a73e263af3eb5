// `play resume [RUN]`: continues an unfinished rolling run (RUN from `play rollouts list`, else the
// newest unfinished one) with its own playbook, inventory and options, as `play PLAYBOOK -i INV
// --resume` would: both end in rolling-command.ts.
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { inventorySources } from '../rolling/inventory-key.js';
import { UNFINISHED } from '../rolling/model.js';
import { openStore, storeLocation } from '../state/open-store.js';
import type { RolloutRecord } from '../state/store.js';
import { type RunArgs, runCommand } from './run-command.js';
import type { VaultKeyring } from '../vault/keyring.js';
import type { ConnectionSettings } from '../inventory/connection-defaults.js';

export interface ResumeArgs {
  run?: string;
  state?: string;
  json: boolean;
  report?: string;
  live: 'auto' | 'never';
  acceptNew: boolean;
  knownHosts?: string;
  allowChanged?: boolean;
  /** The vault passwords, for a run whose inventory or -e files are vault-encrypted. */
  vault?: VaultKeyring;
  /** -u, --private-key, -b, -k, -K... (connection-flags.ts), as a rolling run takes them. */
  connection?: ConnectionSettings;
  /** -v count, --events FILE|-, --log FILE (output-options.ts). */
  verbosity?: number;
  events?: string;
  log?: string;
}

async function findRun(args: ResumeArgs): Promise<RolloutRecord> {
  if (args.run !== undefined && !/^\d+$/.test(args.run))
    throw new UsageError(`resume: a run is a number (play rollouts list), got '${args.run}'`);
  const store = await openStore(args.state, 'read');
  if (!store)
    throw new UsageError(`resume: no state store at ${storeLocation(args.state)} yet: no rolling run to resume`);
  try {
    const run =
      args.run === undefined
        ? (await store.rollouts.list(1000)).find((r) => UNFINISHED.includes(r.status))
        : await store.rollouts.get(Number(args.run));
    if (!run)
      throw new UsageError(
        args.run === undefined
          ? `resume: no unfinished rolling run in ${store.location} (play rollouts list shows the runs)`
          : `resume: no run ${args.run} in ${store.location} (play rollouts list)`,
      );
    if (!UNFINISHED.includes(run.status))
      throw new UsageError(
        `resume: run ${run.id} is ${run.status}${run.reason ? ` (${run.reason})` : ''}: nothing to resume`,
      );
    return run;
  } finally {
    await store.close();
  }
}

export async function resumeCommand(
  args: ResumeArgs,
  out: Writable,
  err: Writable,
  signal?: AbortSignal,
): Promise<number> {
  const run = await findRun(args);
  const recorded = run.args as { playbookFile?: string };
  const runArgs: RunArgs = {
    // Runs recorded before play kept the file are found by name, as `play NAME` finds them.
    playbook: recorded.playbookFile ?? run.playbook,
    inventory: inventorySources(run.inventoryKey) as unknown as string,
    check: false,
    diff: false,
    forks: 20,
    timeout: 300,
    report: args.report,
    json: args.json,
    extraVars: [],
    vault: args.vault,
    connection: args.connection,
    verbosity: args.verbosity,
    events: args.events,
    log: args.log,
    acceptNew: args.acceptNew,
    knownHosts: args.knownHosts,
    live: args.live,
    rolling: { overrides: {}, resume: true, allowChanged: args.allowChanged, state: args.state, resumeRun: run.id },
  };
  return (await runCommand(runArgs, out, err, signal)).code;
}
