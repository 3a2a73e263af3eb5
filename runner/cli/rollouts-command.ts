// `play rollouts list|show [RUN]|unlock RUN`: the rolling runs the state store's journal holds;
// `quarantined` and `release-kb KB`: the KBs a rollback quarantined (rolling/rollback-node.ts).
// Read-only (never creating a store) but for unlock, which releases a run's lease at once instead of
// waiting for it to expire (a lease whose process is provably gone is taken over without it), and
// release-kb, which lets runs install the KB again.
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import type { RollingPolicy } from '../rolling/model.js';
import { hostProgress } from '../rolling/progress.js';
import { rolloutReport } from '../rolling/report.js';
import { allowedFailures } from '../rolling/serial.js';
import { summaryText } from '../rolling/text.js';
import { openStore, storeLocation } from '../state/open-store.js';
import { controllerName } from '../state/process-identity.js';
import type { RolloutJournal, RolloutRecord } from '../state/store.js';
import { quarantineCommand } from './quarantine-command.js';

export interface RolloutsArgs {
  action: 'list' | 'show' | 'unlock' | 'quarantined' | 'release-kb';
  run?: string;
  state?: string;
  json: boolean;
  limit: number;
}

async function runId(journal: RolloutJournal, text: string | undefined, action: string): Promise<RolloutRecord> {
  if (text === undefined || text === 'latest') {
    const [latest] = await journal.list(1);
    if (!latest) throw new UsageError(`rollouts ${action}: the state store has no rolling runs yet`);
    if (text === undefined && action === 'unlock')
      throw new UsageError('rollouts unlock: name the run (play rollouts list)');
    return latest;
  }
  if (!/^\d+$/.test(text)) throw new UsageError(`rollouts ${action}: a run is a number or latest, got '${text}'`);
  const run = await journal.get(Number(text));
  if (!run) throw new UsageError(`rollouts ${action}: no run ${text} in the state store (play rollouts list)`);
  return run;
}

/** The report of a run, its budget from the options it started with. */
async function reportOf(journal: RolloutJournal, run: RolloutRecord) {
  const events = await journal.events(run.id);
  const policy = (run.args as { policy?: RollingPolicy }).policy;
  const targeted = hostProgress(events).size;
  return rolloutReport(run, events, policy ? allowedFailures(policy.maxFail, targeted) : 0);
}

export async function rolloutsCommand(args: RolloutsArgs, out: Writable): Promise<number> {
  if (args.action === 'quarantined' || args.action === 'release-kb')
    return quarantineCommand({ ...args, action: args.action }, out);
  const store = await openStore(args.state, args.action === 'unlock' ? 'write' : 'read');
  if (!store) {
    if (args.action !== 'list')
      throw new UsageError(
        `rollouts ${args.action}: no state store at ${storeLocation(args.state)} yet: no rolling runs`,
      );
    out.write(args.json ? '[]\n' : '');
    return 0;
  }
  try {
    const journal = store.rollouts;
    if (args.action === 'list') {
      const runs = await journal.list(args.limit);
      if (args.json) out.write(`${JSON.stringify(runs, null, 2)}\n`);
      else
        for (const r of runs)
          out.write(
            `${String(r.id).padStart(4)}  ${r.startedAt}  ${r.playbook.padEnd(16)} ${r.status.padEnd(11)} ${controllerName({ host: r.controller, pid: r.pid }).padEnd(24)} ${r.reason ?? ''}\n`,
          );
      return 0;
    }
    const run = await runId(journal, args.run, args.action);
    if (args.action === 'unlock') {
      const removed = await journal.unlock(run.id);
      out.write(removed ? `run ${run.id}: lease released\n` : `run ${run.id} holds no lease\n`);
      return 0;
    }
    const report = await reportOf(journal, run);
    out.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : summaryText(report));
    return 0;
  } finally {
    await store.close();
  }
}
