// The batch loop of a rolling run: batches one after another, the nodes of a batch at once, each
// through its cycle (node-cycle.ts), those whose drain the preflight predicts to block refused unless
// --try-blocked (preflight/). Between batches: the failure budget (one for the whole run,
// failures of earlier runs of it included), the health gate (the batch's nodes stay Ready for the
// soak time, and no node that was Ready when the run began is NotReady), the stop request and the
// maintenance window. Decisions are recorded in the journal as run notes.
import { inWindow, type MaintenanceWindow, nextOpening } from './window.js';
import type { ClusterOps } from './cluster.js';
import type { RolloutStatus } from './model.js';
import { type CycleDeps, type CycleResult, runNodeCycle } from './node-cycle.js';
import { failedCount, type HostProgress } from './progress.js';
import { batchBlocks } from './preflight/plan-preflight.js';
import { type AlertGateCheck, alertGatePause } from './alert-gate/check.js';

export interface RolloutDeps extends CycleDeps {
  /** Host names per batch (the plan). */
  readonly batches: readonly (readonly string[])[];
  readonly progress: Map<string, HostProgress>;
  readonly allowedFailures: number;
  readonly window: MaintenanceWindow | null;
  /** Cluster nodes that were Ready when the run began (the gate's baseline). */
  readonly readyAtStart: ReadonlySet<string>;
  /** Prometheus asked before a batch starts new nodes (alert-gate/): firing pauses the run as the window does. */
  readonly alertGate?: AlertGateCheck | null;
}

export interface RolloutEnd {
  readonly status: RolloutStatus;
  readonly reason: string | null;
}

const isFinished = (p: HostProgress) => p.outcome !== 'pending';
const started = (p: HostProgress) => p.reached !== null && p.reached !== 'planned';
const inFlight = (p: HostProgress) => started(p) || (p.inFlight !== null && p.inFlight !== 'planned');

export async function runRollout(d: RolloutDeps): Promise<RolloutEnd> {
  for (const [i, names] of d.batches.entries()) {
    const batch = i + 1;
    const pending = names.map((n) => d.progress.get(n)!).filter((p) => !isFinished(p));
    if (pending.length === 0) continue;
    const failed = failedCount(d.progress.values());
    const fresh = pending.filter((p) => !inFlight(p));
    // A node cut short mid-way is finished whatever the budget, window or stop request say: a
    // drained, cordoned node is not a place to leave it. New nodes start only when all three allow.
    const blocked =
      failed > d.allowedFailures
        ? stopped(`failure budget spent: ${failed} failed, ${d.allowedFailures} allowed`)
        : d.stop.aborted
          ? { status: 'interrupted' as const, reason: 'stopped by a signal (Ctrl-C or SIGTERM)' }
          : d.window && !inWindow(d.window, new Date(d.now()))
            ? {
                status: 'paused' as const,
                reason: `outside the maintenance window ${d.window.text}; it opens next at ${nextOpening(d.window, new Date(d.now())).toISOString()}`,
              }
            : await alertGatePause(d, fresh.length > 0, batch, d.batches.length);
    const go = blocked ? pending.filter(inFlight) : pending;
    if (go.length > 0) {
      await d.record(
        '',
        'batch',
        'begin',
        `batch ${batch} of ${d.batches.length}: ${go.map((p) => p.host).join(', ')} (failures so far ${failed} of ${d.allowedFailures} allowed)`,
        { batch, hosts: go.map((p) => p.host) },
      );
      // Nodes not started yet whose drain would block, on the cluster as it is now: refused before their cordon.
      const blocks = d.cluster
        ? await batchBlocks(
            d.cluster,
            go.filter((p) => !inFlight(p)).map((p) => p.host),
            d.nodeName,
          )
        : new Map<string, string>();
      const cycle = { ...d, predictedBlock: (h: string) => blocks.get(h) ?? null };
      // Every cycle settles before anything else happens: a node whose journal write failed stops where
      // its last record says, and the others reach a safe point (the failure aborts d.stop).
      const results = await Promise.all(go.map((p) => runNodeCycle(p, cycle)));
      if (results.includes('unrecorded'))
        return { status: 'interrupted', reason: 'the journal could not be written: nothing more was started' };
      await d.record('', 'batch', 'end', summary(go, results), { batch });
    }
    if (blocked) return blocked;
    const failedNow = failedCount(d.progress.values());
    const more = d.batches.slice(i + 1).some((b) => b.some((h) => !isFinished(d.progress.get(h)!)));
    if (failedNow > d.allowedFailures && more)
      return stopped(`failure budget spent: ${failedNow} failed, ${d.allowedFailures} allowed`);
    if (fresh.length > 0 && d.cluster && !d.stop.aborted) {
      const gate = await healthGate(
        d,
        d.cluster,
        go.map((p) => p.host),
      );
      if (gate) {
        await d.record('', 'gate', 'fail', gate, { batch });
        return stopped(`health gate after batch ${batch}: ${gate}`);
      }
      await d.record('', 'gate', 'end', gateText(d.policy.soakSec), { batch });
    }
  }
  const failed = failedCount(d.progress.values());
  return failed > 0
    ? { status: 'done', reason: `${failed} node${failed === 1 ? '' : 's'} failed` }
    : { status: 'done', reason: null };
}

const stopped = (reason: string): RolloutEnd => ({ status: 'stopped', reason });

function summary(hosts: readonly HostProgress[], results: readonly CycleResult[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r, (counts.get(r) ?? 0) + 1);
  return (
    [...counts].map(([r, n]) => `${n} ${r}`).join(', ') + ` (${hosts.length} node${hosts.length === 1 ? '' : 's'})`
  );
}

const gateText = (soakSec: number) =>
  soakSec > 0 ? `the batch's nodes stayed Ready for ${soakSec}s; no node went NotReady` : 'no node went NotReady';

/**
 * The batch's finished nodes stay Ready for the soak time, and every node Ready at the run's start is
 * still Ready; the first observation that says otherwise fails the gate (its text says which node).
 */
async function healthGate(d: RolloutDeps, cluster: ClusterOps, batch: readonly string[]): Promise<string | null> {
  const watched = new Set(batch.filter((h) => d.progress.get(h)!.outcome === 'done').map((h) => d.nodeName(h)));
  const failedNodes = new Set(
    [...d.progress.values()].filter((p) => p.outcome === 'failed').map((p) => d.nodeName(p.host)),
  );
  const end = d.now() + d.policy.soakSec * 1000;
  for (;;) {
    const nodes = await cluster.nodes();
    const notReady = nodes.filter((n) => !n.ready);
    const batchDown = notReady.filter((n) => watched.has(n.name)).map((n) => n.name);
    if (batchDown.length) return `${batchDown.join(', ')} NotReady during the soak`;
    // A node that failed in this run is counted against the budget already, not again by the gate.
    const regressed = notReady.filter((n) => d.readyAtStart.has(n.name) && !failedNodes.has(n.name)).map((n) => n.name);
    if (regressed.length) return `${regressed.join(', ')} NotReady (Ready when the run began)`;
    const missing = [...watched].filter((w) => !nodes.some((n) => n.name === w));
    if (missing.length) return `${missing.join(', ')} gone from the cluster`;
    if (d.now() >= end) return null;
    await d.sleep(Math.min(d.pollMs ?? 1000, Math.max(0, end - d.now())));
  }
}
