// The batches of a rolling run as its journal planned them (a resume picks up where the journal says),
// each node's cycle wired to the run's task runs, cluster, gates and rollback, then the run's report.
// Exit 0 done, 3 a node failed or the run stopped, 75 paused outside the window, 130 interrupted.
import { writeFileSync } from 'node:fs';
import { sleepFor } from '../../core/long-sleep.js';
import type { JournalEvent, StateStore } from '../../state/store.js';
import { checkOutcome } from '../graph-runs.js';
import type { CycleDeps } from '../node-cycle.js';
import { foldEvent, hostProgress } from '../progress.js';
import type { OnFailure } from '../rollback.js';
import { rollbackSession } from '../rollback-session.js';
import { rolloutReport } from '../report.js';
import { runRollout } from '../rollout.js';
import type { RunJournal } from '../run-journal.js';
import { allowedFailures } from '../serial.js';
import { summaryText } from '../text.js';
import { parseWindow } from '../window.js';
import { nodeNameOf, type RollingSession } from './session.js';

export async function runBatches(
  s: RollingSession,
  store: StateStore,
  journal: RunJournal,
  stop: AbortSignal,
): Promise<number> {
  const runId = journal.runId;
  const events = await store.rollouts.events(runId);
  const planNote = [...events].reverse().find((e) => e.host === '' && e.phase === 'plan');
  const baseline = events.find((e) => e.host === '' && e.phase === 'baseline');
  const batches = (planNote?.data?.batches as string[][] | undefined) ?? [];
  const allowed = allowedFailures(s.policy.maxFail, s.targets.length);
  // The hosts' progress as the journal says, kept current as the run records.
  const progress = hostProgress(events);
  const onFailure = ((await store.rollouts.get(runId))?.args.onFailure as OnFailure | undefined) ?? 'stop';
  const deps = cycleDeps(s, store, journal, { events, progress, onFailure, stop });
  const end = await runRollout({
    ...deps,
    batches,
    progress,
    allowedFailures: allowed,
    window: s.policy.window ? parseWindow(s.policy.window) : null,
    readyAtStart: new Set((baseline?.data?.ready as string[] | undefined) ?? []),
    alertGate: s.alertGate,
  });
  if (journal.failure) throw journal.failure;
  await journal.finish(end.status, end.reason);
  const report = rolloutReport((await store.rollouts.get(runId))!, await store.rollouts.events(runId), allowed);
  (s.args.json ? s.err : s.out).write(summaryText(report));
  if (end.status === 'paused') (s.args.json ? s.err : s.out).write(`resume with: play ${s.playbook.name} --resume\n`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (s.args.report) writeFileSync(s.args.report, json);
  if (s.args.json) s.out.write(json);
  if (end.status === 'interrupted') return 130;
  if (end.status === 'paused') return 75;
  return report.budget.failed > 0 || end.status !== 'done' ? 3 : 0;
}

interface RunState {
  readonly events: readonly JournalEvent[];
  readonly progress: ReturnType<typeof hostProgress>;
  readonly onFailure: OnFailure;
  readonly stop: AbortSignal;
}

/** What one node's cycle works with: the journal, the task runs, the cluster, the rollback, the gate. */
function cycleDeps(s: RollingSession, store: StateStore, journal: RunJournal, r: RunState): CycleDeps {
  const rollback = rollbackSession({
    onFailure: r.onFailure,
    kbsOf: (h) => s.hotfixKbs?.get(h) ?? [],
    remoteOf: (h) => s.remoteOf!(h),
    events: r.events,
    quarantine: store.quarantine,
    runId: journal.runId,
    playbook: s.playbook.name,
    rebootTimeoutSec: Math.max(900, s.policy.readyTimeoutSec),
  });
  return {
    cluster: s.cluster,
    policy: s.policy,
    nodeName: nodeNameOf(s),
    record: async (...a) => void foldEvent(r.progress, await journal.record(...a)),
    check: async (h) => checkOutcome((await s.runs.run([h], 'check')).hosts[h]),
    apply: (h) => rollback.apply(h, async () => (await s.runs.run([h], 'apply')).hosts[h]),
    rollback: s.cluster && rollback.ops.onFailure === 'rollback' ? rollback.ops : null,
    reachable: (h, timeoutMs) => untilReachable(s, h, timeoutMs),
    // Bounded chunks: a soak or a Ready wait of any length never overflows a Node timer.
    sleep: (ms) => sleepFor(ms),
    now: () => Date.now(),
    stop: r.stop,
    tryBlocked: s.args.tryBlocked,
    gate: s.gate ?? null,
  };
}

async function untilReachable(s: RollingSession, host: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await s.reachable(host)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 2000));
  }
}
