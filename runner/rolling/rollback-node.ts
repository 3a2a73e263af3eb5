// `--on-failure rollback` on one node (rollback.ts decides; docs/rolling.md#rollback-and-quarantine): a
// node that failed after its install gets each update its apply recorded removed by DISM with the
// package identity the install recorded, is rebooted (verified: a new boot time), checked to run the
// build it ran before, waited for until Ready, and uncordoned when the run cordoned it. Each KB is then
// quarantined in the store: no later run installs it until `play rollouts release-kb`. The node counts
// as failed either way (the run stops as it would without a rollback); the failed phase's record says
// what the rollback did, and the journal has its own `rollback` phase.
import type { ClusterOps } from './cluster.js';
import type { CycleDeps, CycleResult } from './cycle-deps.js';
import type { HostProgress } from './progress.js';
import type { RollbackOps } from './rollback-ops.js';
import { backAtBuild, rollbackDecision } from './rollback.js';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The node failed `phase` after its install (`why`); records that failure last, with what was done.
 * Without a rollback the node is left cordoned, as before.
 */
export async function failedAfterInstall(
  p: HostProgress,
  deps: CycleDeps,
  cluster: ClusterOps,
  ops: RollbackOps,
  phase: string,
  why: string,
): Promise<CycleResult> {
  const host = p.host;
  const decision = rollbackDecision(ops.onFailure, ops.installed(host));
  if (!decision.rollback) {
    const note = ops.onFailure === 'rollback' ? `; ${decision.why}` : '';
    await deps.record(host, phase, 'fail', `${why}; left cordoned${note}`);
    return 'failed';
  }
  const done: string[] = [];
  for (const u of decision.updates) {
    await deps.record(host, 'rollback', 'begin', `${why}: removing ${u.kb} (${u.packageName})`, { kb: u.kb });
    let build: string;
    try {
      ({ build } = await ops.rollBack(host, u));
    } catch (e) {
      const failed = `rollback of ${u.kb} failed: ${errorText(e)}`;
      await deps.record(host, 'rollback', 'fail', failed);
      await ops.quarantine(host, u, why);
      await deps.record(host, phase, 'fail', `${why}; ${failed}; left cordoned; ${u.kb} quarantined`);
      return 'failed';
    }
    if (!backAtBuild(u.buildBefore, build)) {
      const wrong = `removed ${u.kb} but the node runs ${build}, not ${u.buildBefore} as before`;
      await deps.record(host, 'rollback', 'fail', wrong);
      await ops.quarantine(host, u, why);
      await deps.record(host, phase, 'fail', `${why}; ${wrong}; left cordoned; ${u.kb} quarantined`);
      return 'failed';
    }
    await deps.record(host, 'rollback', 'end', `removed ${u.kb}, rebooted, back at ${build}`, { kb: u.kb, build });
    await ops.quarantine(host, u, why);
    done.push(`removed ${u.kb}, back at ${build}`);
  }
  const kbs = decision.updates.map((u) => u.kb).join(', ');
  const after = await backInService(p, deps, cluster);
  await deps.record(host, phase, 'fail', `${why}; rolled back: ${done.join('; ')}; ${after}; ${kbs} quarantined`);
  return 'failed';
}

/** After the rollback: Ready within --ready-timeout, then uncordoned when the run cordoned it. */
async function backInService(p: HostProgress, deps: CycleDeps, cluster: ClusterOps): Promise<string> {
  const node = deps.nodeName(p.host);
  const deadline = deps.now() + deps.policy.readyTimeoutSec * 1000;
  for (;;) {
    if ((await cluster.node(node))?.ready) break;
    if (deps.now() >= deadline) return `not Ready ${deps.policy.readyTimeoutSec}s after the rollback; left cordoned`;
    await deps.sleep(deps.pollMs ?? 1000);
  }
  if (p.ownsCordon === false) return 'Ready; left cordoned (cordoned before the run)';
  await cluster.uncordon(node);
  return 'Ready, uncordoned';
}
