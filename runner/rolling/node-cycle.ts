// One node's way through a rolling run: check, the preflight's verdict, cordon, drain, apply (the playbook's tasks: for
// hotfix-windows install and reboot), Ready, uncordon. Every phase is recorded before and after it
// acts, and every phase is idempotent, so a node cut short (a crash, SIGKILL) continues from its last
// recorded phase: a drained node is not drained again, a node whose tasks ran runs them again only
// as a check that finds nothing to do.
//
// Safety rules (docs/rolling.md):
// - a node already cordoned before the run is never uncordoned by it (ownership is recorded with the
//   cordon, before kubectl runs, so a crash between the two cannot lose it);
// - a failed drain: uncordoned (ours) and failed, or left cordoned with --on-drain-timeout=keep-cordoned;
// - failed tasks: uncordoned if the node is still Ready (it serves as before), else left cordoned;
// - a node that fails the playbook's gate after Ready (gate/: its pod network) is left cordoned;
// - a stop request (Ctrl-C, SIGTERM) between drain and apply uncordons the node and records that it
//   starts over when resumed; a node whose tasks are running finishes its cycle (a half-installed
//   node is not a safe point).
import type { ClusterOps, NodeStatus } from './cluster.js';
import { JournalWriteError } from './journal-write-error.js';
import { gatePhase } from './gate/gate-phase.js';
import { PHASES, type Phase } from './model.js';
import { type HostProgress, NO_WORK } from './progress.js';
import type { CycleDeps, CycleResult } from './cycle-deps.js';
import { failedAfterInstall } from './rollback-node.js';

export type { CycleDeps, CycleResult, TasksOutcome } from './cycle-deps.js';

const at = (p: Phase | null) => (p === null ? -1 : PHASES.indexOf(p));
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function runNodeCycle(p: HostProgress, deps: CycleDeps): Promise<CycleResult> {
  const host = p.host;
  const fail = async (phase: string, detail: string): Promise<CycleResult> => {
    await deps.record(host, phase, 'fail', detail);
    return 'failed';
  };
  try {
    if (at(p.reached) < at('cordon') && p.inFlight !== 'cordon') {
      if (deps.stop.aborted) return 'not-started';
      await deps.record(host, 'check', 'begin');
      const c = await deps.check(host);
      if ('error' in c) return await fail('check', c.error);
      if (!c.work) {
        await deps.record(host, 'planned', 'end', 'already in the desired state: not cordoned', { [NO_WORK]: true });
        return 'ok';
      }
      await deps.record(host, 'check', 'end', 'needs work');
      const block = deps.predictedBlock?.(host) ?? null;
      if (block !== null && !deps.tryBlocked) {
        await deps.record(host, 'preflight', 'fail', `${block}; not cordoned (--try-blocked drains it anyway)`, {
          blocked: true,
        });
        return 'failed';
      }
      if (block !== null) await deps.record(host, 'preflight', 'note', `${block}; drained anyway (--try-blocked)`);
    }
    if (deps.cluster) {
      const r = await drainPhases(p, deps, deps.cluster);
      if (r) return r;
    }
    if (at(p.reached) < at('apply')) {
      if (p.inFlight === 'apply' && !(await deps.reachable(host, deps.policy.readyTimeoutSec * 1000)))
        return await afterTasksFailed(p, deps, `${host} did not answer over SSH for ${deps.policy.readyTimeoutSec}s`);
      await deps.record(host, 'apply', 'begin');
      const t = await deps.apply(host);
      if (!t.ok) return await afterTasksFailed(p, deps, t.detail);
      await deps.record(host, 'apply', 'end', t.detail, t.data);
    }
    if (deps.cluster) {
      const r = await readyAndUncordon(p, deps, deps.cluster);
      if (r) return r;
    }
    await deps.record(host, 'done', 'end');
    return 'done';
  } catch (e) {
    // The journal failed: nothing more is done on this node (nothing unrecorded); the run stops.
    if (e instanceof JournalWriteError) return 'unrecorded';
    // kubectl or the connection to the control host failed: the node's state is unknown, so nothing is
    // undone; the journal says where it stopped.
    return await fail(p.inFlight ?? 'cycle', errorText(e)).catch((f: unknown) => {
      if (f instanceof JournalWriteError) return 'unrecorded' as const;
      throw f;
    });
  }
}

/** Cordon and drain; a CycleResult when the cycle ends here. */
async function drainPhases(p: HostProgress, deps: CycleDeps, cluster: ClusterOps): Promise<CycleResult | null> {
  const host = p.host;
  const node = deps.nodeName(host);
  if (at(p.reached) < at('cordon')) {
    const status = await cluster.node(node);
    if (!status) {
      await deps.record(
        host,
        'cordon',
        'fail',
        `node ${node} is not in the cluster (kubectl get node ${node}): set node_name?`,
      );
      return 'failed';
    }
    // A cordon begun by a process that died: ownership was recorded then, before kubectl ran.
    const wasCordoned = p.inFlight === 'cordon' && p.ownsCordon !== null ? !p.ownsCordon : status.unschedulable;
    p.ownsCordon = !wasCordoned;
    await deps.record(host, 'cordon', 'begin', undefined, { wasCordoned });
    if (!status.unschedulable) await cluster.cordon(node);
    await deps.record(
      host,
      'cordon',
      'end',
      wasCordoned ? 'was cordoned before the run: left cordoned at the end' : undefined,
    );
    p.reached = 'cordon';
  }
  if (at(p.reached) < at('drain')) {
    if (deps.stop.aborted) return await backToService(p, deps, cluster, 'stopped before its drain');
    await deps.record(host, 'drain', 'begin');
    const d = await cluster.drain(node, deps.policy.drainTimeoutSec);
    if (!d.ok) {
      const keep = deps.policy.onDrainTimeout === 'keep-cordoned';
      let what = keep ? 'left cordoned (--on-drain-timeout=keep-cordoned)' : 'left cordoned (cordoned before the run)';
      if (!keep && p.ownsCordon) {
        await cluster.uncordon(node);
        what = 'uncordoned';
      }
      await deps.record(host, 'drain', 'fail', `${d.message}; ${what}`, { podsLeft: d.podsLeft, budgets: d.budgets });
      return 'failed';
    }
    await deps.record(host, 'drain', 'end', `${d.evicted} pod${d.evicted === 1 ? '' : 's'} evicted`);
    p.reached = 'drain';
  }
  if (at(p.reached) < at('apply') && p.inFlight !== 'apply' && deps.stop.aborted)
    return await backToService(p, deps, cluster, 'stopped after its drain, before its tasks');
  return null;
}

/** A stop request before the tasks ran: the node serves again and starts over when resumed. */
async function backToService(p: HostProgress, deps: CycleDeps, cluster: ClusterOps, why: string): Promise<CycleResult> {
  if (p.ownsCordon) await cluster.uncordon(deps.nodeName(p.host));
  await deps.record(
    p.host,
    'uncordon',
    'end',
    `${why}: ${p.ownsCordon ? 'uncordoned' : 'left cordoned (cordoned before the run)'}`,
    {
      reset: true,
    },
  );
  return 'interrupted';
}

async function afterTasksFailed(p: HostProgress, deps: CycleDeps, detail: string): Promise<CycleResult> {
  let what = '';
  if (deps.cluster) {
    const node = deps.nodeName(p.host);
    const status = await deps.cluster.node(node).catch(() => null);
    if (status?.ready && p.ownsCordon) {
      await deps.cluster.uncordon(node);
      what = '; uncordoned (the node is Ready)';
    } else
      what = status?.ready ? '; left cordoned (cordoned before the run)' : '; left cordoned (the node is not Ready)';
  }
  await deps.record(p.host, 'apply', 'fail', `${detail}${what}`);
  return 'failed';
}

/** Waits for Ready, then uncordons a node the run cordoned. */
async function readyAndUncordon(p: HostProgress, deps: CycleDeps, cluster: ClusterOps): Promise<CycleResult | null> {
  const host = p.host;
  const node = deps.nodeName(host);
  if (at(p.reached) < at('ready')) {
    await deps.record(host, 'ready', 'begin');
    const limitSec = deps.policy.readyTimeoutSec;
    const deadline = deps.now() + limitSec * 1000;
    let status: NodeStatus | null = null;
    for (;;) {
      status = await cluster.node(node);
      if (status?.ready) break;
      if (deps.now() >= deadline) {
        const why = `node ${node} not Ready ${limitSec}s after its tasks`;
        if (deps.rollback) return await failedAfterInstall(p, deps, cluster, deps.rollback, 'ready', why);
        await deps.record(host, 'ready', 'fail', `${why}; left cordoned`);
        return 'failed';
      }
      await deps.sleep(deps.pollMs ?? 1000);
    }
    await deps.record(host, 'ready', 'end');
  }
  if (at(p.reached) < at('gate') && !(await gatePhase(host, deps))) return 'failed';
  if (at(p.reached) < at('uncordon')) {
    await deps.record(host, 'uncordon', 'begin');
    if (p.ownsCordon === false) {
      await deps.record(host, 'uncordon', 'end', 'left cordoned: it was cordoned before the run');
    } else {
      await cluster.uncordon(node);
      await deps.record(host, 'uncordon', 'end');
    }
  }
  return null;
}
