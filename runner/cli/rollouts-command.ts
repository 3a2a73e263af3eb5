// `play rollouts list|show [RUN]|unlock RUN`: the rolling runs the state store's journal holds.
// Read-only but for unlock, which removes a lock whose process is gone on another machine (a lock held
// by a dead process on this machine is taken over by the next run without it).
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import type { RollingPolicy } from '../rolling/model.js';
import { hostProgress } from '../rolling/progress.js';
import { rolloutReport } from '../rolling/report.js';
import { allowedFailures } from '../rolling/serial.js';
import { summaryText } from '../rolling/text.js';
import { openSqliteStore } from '../state/sqlite-store.js';
import { defaultStatePath } from '../state/state-path.js';
import type { RolloutJournal, RolloutRecord } from '../state/store.js';

export interface RolloutsArgs {
  action: 'list' | 'show' | 'unlock';
  run?: string;
  state?: string;
  json: boolean;
  limit: number;
}

function runId(journal: RolloutJournal, text: string | undefined, action: string): RolloutRecord {
  if (text === undefined || text === 'latest') {
    const [latest] = journal.list(1);
    if (!latest) throw new UsageError(`rollouts ${action}: the state store has no rolling runs yet`);
    if (text === undefined && action === 'unlock')
      throw new UsageError('rollouts unlock: name the run (play rollouts list)');
    return latest;
  }
  if (!/^\d+$/.test(text)) throw new UsageError(`rollouts ${action}: a run is a number or latest, got '${text}'`);
  const run = journal.get(Number(text));
  if (!run) throw new UsageError(`rollouts ${action}: no run ${text} in the state store (play rollouts list)`);
  return run;
}

/** The report of a run, its budget from the options it started with. */
function reportOf(journal: RolloutJournal, run: RolloutRecord) {
  const events = journal.events(run.id);
  const policy = (run.args as { policy?: RollingPolicy }).policy;
  const targeted = hostProgress(events).size;
  return rolloutReport(run, events, policy ? allowedFailures(policy.maxFail, targeted) : 0);
}

export function rolloutsCommand(args: RolloutsArgs, out: Writable): number {
  const store = openSqliteStore(args.state ?? defaultStatePath());
  try {
    const journal = store.rollouts;
    if (args.action === 'list') {
      const runs = journal.list(args.limit);
      if (args.json) out.write(`${JSON.stringify(runs, null, 2)}\n`);
      else
        for (const r of runs)
          out.write(
            `${String(r.id).padStart(4)}  ${r.startedAt}  ${r.playbook.padEnd(16)} ${r.status.padEnd(11)} ${r.reason ?? ''}\n`,
          );
      return 0;
    }
    const run = runId(journal, args.run, args.action);
    if (args.action === 'unlock') {
      const removed = journal.unlock(run.id);
      out.write(removed ? `run ${run.id}: lock removed\n` : `run ${run.id} holds no lock\n`);
      return 0;
    }
    const report = reportOf(journal, run);
    out.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : summaryText(report));
    return 0;
  } finally {
    store.close();
  }
}
