// What a new rolling run records before its first batch: the gate's baseline (the inventory's nodes
// Ready now), each host's planning verdict, and the batches. A resume reads them back from the journal.
import { NO_WORK, WAIVED } from '../progress.js';
import type { RunJournal } from '../run-journal.js';
import { plan } from './plan.js';
import type { RollingSession } from './session.js';

export async function firstPlan(s: RollingSession, journal: RunJournal, signal: AbortSignal): Promise<void> {
  // Nodes the inventory does not name are someone else's to watch (they may come and go for reasons of
  // their own).
  const ours = new Set(s.inventoryNodes);
  const ready = s.cluster
    ? (await s.cluster.nodes()).filter((n) => n.ready && ours.has(n.name)).map((n) => n.name)
    : [];
  await journal.record('', 'baseline', 'note', `${ready.length} nodes Ready`, { ready });
  const p = await plan(s, signal);
  for (const f of p.failed) await journal.record(f.host, 'check', 'fail', f.reason);
  for (const h of p.ok)
    await journal.record(h, 'planned', 'end', 'already in the desired state: not cordoned', { [NO_WORK]: true });
  for (const w of p.waived) await journal.record(w.host, 'planned', 'end', `waived: ${w.reason}`, { [WAIVED]: true });
  await journal.record('', 'plan', 'note', `${p.plan.batches.length} batches`, {
    batches: p.plan.batches,
    deferred: p.plan.deferred,
  });
  for (const [i, b] of p.plan.batches.entries())
    for (const h of b)
      await journal.record(h, 'planned', 'end', `batch ${i + 1}: ${(p.changes[h] ?? []).join('; ')}`, { batch: i + 1 });
}
