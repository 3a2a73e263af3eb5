// A rolling run that changes hosts: the run begun (or taken over, --resume) in the state store's journal
// under this controller's lease, the cluster's rollout Lease held, the first plan recorded, then the
// batches and the report; the notices said from start to end.
import { redact } from '../../core/secret.js';
import type { RolloutRecord, StateStore } from '../../state/store.js';
import type { ClusterLease } from '../cluster-lease.js';
import { inventorySources } from '../inventory-key.js';
import { RollingNotices } from '../notify-queue.js';
import { RunJournal } from '../run-journal.js';
import { sourceHashes } from '../source-hash.js';
import { eventLine } from '../text.js';
import { firstPlan } from './first-plan.js';
import { runBatches } from './run-batches.js';
import type { Controller, RollingSession } from './session.js';
import { stopSignal } from './stop-signal.js';
import { stoppedBy } from './stopped.js';

export async function rollingApply(s: RollingSession, store: StateStore, who: Controller): Promise<number> {
  const stop = stopSignal(s.signal);
  const view = s.args.json ? s.err : s.out;
  const startMs = Date.now();
  const { run, lease } = who.resume
    ? await store.rollouts.takeOver(who.resume.id, who.claim)
    : await store.rollouts.begin(
        {
          playbook: s.playbook.name,
          inventoryKey: who.inventoryKey,
          args: recordedArgs(s, who),
          startedAt: new Date().toISOString(),
        },
        who.claim,
      );
  view.write(
    who.resume
      ? `resuming run ${run.id} of ${run.playbook}, started ${run.startedAt}\n`
      : `run ${run.id} of ${s.playbook.name} (journal: ${store.location})\n`,
  );
  const notices = new RollingNotices(
    s.args.overrides.notify,
    { run: run.id, playbook: run.playbook, inventory: who.inventoryKey },
    (line) => view.write(line),
  );
  notices.started(who.resume !== null);
  const journal = new RunJournal(store.rollouts, lease, stop.controller, (e) => {
    view.write(eventLine(e, startMs));
    notices.event(e);
  });
  let cluster: ClusterLease | null = null;
  let thrown: unknown = null;
  try {
    cluster = await clusterLeaseOf(s, store, run, who.claim.ttlMs);
    const held = cluster;
    journal.startHeartbeat(held ? () => held.renew() : undefined);
    if (!who.resume) await firstPlan(s, journal, stop.signal);
    return await runBatches(s, store, journal, stop.signal);
  } catch (e) {
    thrown = await stoppedBy(e, journal, store.location);
    throw thrown;
  } finally {
    journal.stopHeartbeat();
    // A run that lost its store lease leaves the cluster's Lease to the controller that took the run
    // over: the holder names the run, not the controller.
    if (!journal.leaseLost) await cluster?.release().catch(() => {});
    stop.dispose();
    await endNotices(notices, store, run.id, thrown, `play ${s.playbook.name} --resume`);
  }
}

/**
 * What a resume needs to run the same again: `play resume RUN` finds the playbook file and the
 * inventory from here (the inventory is the run's key).
 */
function recordedArgs(s: RollingSession, who: Controller) {
  return {
    limit: s.args.limit ?? null,
    policy: s.policy,
    extraVars: s.args.extraVars,
    playbookFile: s.playbookFile,
    // A resume rolls back (or not) as the run started.
    onFailure: s.args.onFailure ?? 'stop',
    // Another controller resuming compares its files with these.
    sources: sourceHashes(s.playbookFile, inventorySources(who.inventoryKey)),
  };
}

/**
 * The cluster's rollout Lease for this run, taken before anything is done: its holder names the run and
 * its store, so the run's own resume (any controller on the same store) holds it again, and a controller
 * with another store is refused (exit 69) while this one renews it. A refusal, like the control host
 * failing, leaves the run interrupted and resumable (stoppedBy).
 */
async function clusterLeaseOf(s: RollingSession, store: StateStore, run: RolloutRecord, ttlMs: number) {
  const lease = s.clusterLease?.(
    `play run ${run.id} of store ${store.id} (${store.location})`,
    Math.ceil(ttlMs / 1000),
  );
  await lease?.acquire();
  return lease ?? null;
}

/** The end as the journal has it (or, when it cannot be read, the error that stopped the run). */
async function endNotices(n: RollingNotices, store: StateStore, runId: number, thrown: unknown, resume: string) {
  const rec = await store.rollouts.get(runId).catch(() => null);
  const why = thrown instanceof Error ? redact(thrown.message) : null;
  await n.ended(rec?.status ?? 'interrupted', (rec?.status === 'running' ? why : rec?.reason) ?? why, resume);
}
