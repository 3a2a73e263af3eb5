// Rolling runs whose controller is gone: still `running`, and the lease of their inventory still theirs
// but no longer renewed (expired at `now`). A standby controller (`play rollouts watch`) takes them over.
// The store has the last word: taking one over is refused if its lease was renewed meanwhile, or if
// another standby took it first.
import type { RolloutJournal, RolloutRecord } from '../state/store.js';

export interface Orphan {
  readonly run: RolloutRecord;
  /** When its lease expired. */
  readonly expiredAt: string;
}

export async function orphanedRuns(journal: RolloutJournal, now: Date, limit = 200): Promise<Orphan[]> {
  const out: Orphan[] = [];
  for (const run of await journal.list(limit)) {
    if (run.status !== 'running') continue;
    const lease = await journal.lease(run.inventoryKey);
    if (!lease || lease.released || lease.runId !== run.id) continue;
    if (Date.parse(lease.expiresAt) <= now.getTime()) out.push({ run, expiredAt: lease.expiresAt });
  }
  return out;
}
