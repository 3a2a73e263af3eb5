// The command side of `--stage` (stage-run.ts has the run itself): the plan and the staging tasks in
// check mode for `--stage --check` (exit 2 when a node would be staged), and for a real staging run the
// journal (begin or take over, heartbeat, finish) and the report, as a rollout's. The lease on the
// inventory is the rollouts' one: a staging run and a rollout of the same inventory never overlap.
// The cluster's rollout Lease is not taken: staging never touches the cluster.
import { writeFileSync } from 'node:fs';
import { PlayError, RemoteError, UnreachableError } from '../core/errors.js';
import { redact } from '../core/secret.js';
import type { StateStore } from '../state/store.js';
import { plan } from './run/plan.js';
import type { Controller, RollingSession } from './run/session.js';
import { inventorySources } from './inventory-key.js';
import { JournalWriteError } from './journal-write-error.js';
import { rolloutReport } from './report.js';
import { RunJournal } from './run-journal.js';
import { sourceHashes } from './source-hash.js';
import { recordStagePlan, type StageDeps, stageNodes, stagingRunName } from './stage-run.js';
import { eventLine, summaryText } from './text.js';

/** `--stage --check`: which nodes would be staged and what their staging tasks would change. */
export async function stagingCheck(s: RollingSession): Promise<number> {
  const p = await plan(s, s.signal);
  const check = p.plan.batches.flat().length ? await s.stageRuns!.run(p.plan.batches.flat(), 'check', s.signal) : null;
  const lines = [
    `stage plan: ${p.plan.batches.flat().length} nodes to stage, ${p.ok.length} already in the desired state, ` +
      `${p.waived.length} waived, ${p.failed.length} failed to plan`,
  ];
  for (const h of p.plan.batches.flat()) {
    const steps = check?.hosts[h]?.steps ?? [];
    const what = steps.map((x) =>
      x.status === 'changed' ? `${x.task}: ${x.action} ${x.fields.join(', ')}` : `${x.task}: ${x.error ?? x.status}`,
    );
    const notes = steps.flatMap((x) => x.warnings ?? []);
    lines.push(`stage: ${h} (${what.join('; ') || 'nothing'})${notes.length ? `: ${notes.join('; ')}` : ''}`);
  }
  for (const h of p.ok) lines.push(`ok: ${h} (already in the desired state: not staged)`);
  for (const f of p.failed) lines.push(`failed: ${f.host}: ${f.reason}`);
  const text = `${lines.join('\n')}\n`;
  if (s.args.json) {
    s.err.write(text);
    s.out.write(`${JSON.stringify({ ...p, stage: check?.hosts ?? {} }, null, 2)}\n`);
  } else s.out.write(text);
  if (s.signal?.aborted) return 130;
  if (p.failed.length > 0 || Object.values(check?.hosts ?? {}).some((h) => h.status === 'failed')) return 3;
  return check && Object.values(check.hosts).some((h) => h.status === 'changed') ? 2 : 0;
}

function stopOf(parent?: AbortSignal): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  process.on('SIGTERM', abort);
  parent?.addEventListener('abort', abort, { once: true });
  if (parent?.aborted) abort();
  return {
    controller,
    dispose: () => {
      process.off('SIGTERM', abort);
      parent?.removeEventListener('abort', abort);
    },
  };
}

/** A staging run with its journal: planned, staged node by node, reported (0, 3 a node failed, 130). */
export async function stagingApply(s: RollingSession, store: StateStore, who: Controller): Promise<number> {
  const stop = stopOf(s.signal);
  const view = s.args.json ? s.err : s.out;
  const args = {
    limit: s.args.limit ?? null,
    policy: s.policy,
    extraVars: s.args.extraVars,
    playbookFile: s.playbookFile,
    sources: sourceHashes(s.playbookFile, inventorySources(who.inventoryKey)),
    stage: true,
  };
  const startMs = Date.now();
  const name = stagingRunName(s.playbook.name);
  const { run, lease } = who.resume
    ? await store.rollouts.takeOver(who.resume.id, who.claim)
    : await store.rollouts.begin(
        { playbook: name, inventoryKey: who.inventoryKey, args, startedAt: new Date().toISOString() },
        who.claim,
      );
  view.write(
    who.resume
      ? `resuming run ${run.id} of ${run.playbook}, started ${run.startedAt}\n`
      : `run ${run.id} of ${name} (journal: ${store.location})\n`,
  );
  const journal = new RunJournal(store.rollouts, lease, stop.controller, (e) => view.write(eventLine(e, startMs)));
  journal.startHeartbeat();
  const deps: StageDeps = {
    record: (...a) => journal.record(...a),
    stage: async (hosts) => (await s.stageRuns!.run(hosts, 'apply', stop.controller.signal)).hosts,
    stop: stop.controller.signal,
  };
  try {
    if (!who.resume) {
      const p = await plan(s, stop.controller.signal);
      await recordStagePlan(deps, { ...p, work: p.plan.batches.flat() });
    }
    const failed = await stageNodes(deps, await store.rollouts.events(run.id));
    if (journal.failure) throw journal.failure;
    const interrupted = stop.controller.signal.aborted;
    await journal.finish(
      interrupted ? 'interrupted' : 'done',
      interrupted
        ? 'interrupted: resume with --stage --resume'
        : failed.length
          ? `${failed.length} nodes failed to stage`
          : null,
    );
    const report = rolloutReport((await store.rollouts.get(run.id))!, await store.rollouts.events(run.id), 0);
    view.write(summaryText(report));
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (s.args.report) writeFileSync(s.args.report, json);
    if (s.args.json) s.out.write(json);
    if (interrupted) return 130;
    return report.budget.failed > 0 ? 3 : 0;
  } catch (e) {
    throw await stagingStopped(e, journal, store.location);
  } finally {
    journal.stopHeartbeat();
    stop.dispose();
  }
}

/** Why a staging run stopped, as runner/rolling/run/stopped.ts says it for a rollout: resumable where the store allows. */
async function stagingStopped(e: unknown, journal: RunJournal, location: string): Promise<unknown> {
  const failure = journal.failure ?? (e instanceof JournalWriteError ? e : null);
  const known = e instanceof PlayError || e instanceof RemoteError || e instanceof UnreachableError;
  if (!failure && !known) return e;
  if (failure?.cause instanceof PlayError && failure.cause.exitCode === 69) return failure.cause;
  const why = redact(failure ? `the state store ${location} failed while ${failure.message}` : (e as Error).message);
  await journal.finish('interrupted', `stopped: ${why}`).catch(() => {});
  const code = failure ? (failure.cause instanceof PlayError ? failure.cause.exitCode : 74) : 3;
  return new PlayError(`run ${journal.runId} stopped: ${why}; to go on: play resume ${journal.runId}`, code);
}
