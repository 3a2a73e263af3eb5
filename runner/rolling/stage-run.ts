// `play PLAYBOOK --stage` (docs/rolling.md#staging): the playbook's staging tasks (`stage: true`: for
// hotfix-windows the .msu sent, expanded and verified) on every targeted node that needs work by the
// same planning check as a run, all at once within --forks, never cordoned or drained. Recorded in the
// journal as a rolling run of its own (playbook `<name> --stage`: a plain `--resume` never picks it up,
// and `play rollouts show` and `play resume` read it as any run): per node `planned`, `stage` and `done`,
// so a run cut short resumes with the nodes not yet staged (each staging task is idempotent).
import type { Playbook } from '../playbook/define.js';
import type { HostReport } from '../report/model.js';
import { UsageError } from '../core/errors.js';
import type { JournalEvent } from '../state/store.js';
import { hostProgress, NO_WORK, WAIVED } from './progress.js';

/** The journal's playbook name of a staging run: kept apart from the playbook's rollouts. */
export const stagingRunName = (playbook: string): string => `${playbook} --stage`;

/** The playbook narrowed to its staging tasks; a playbook without any is refused (64). */
export function stagingPlaybook(pb: Playbook): Playbook {
  const tasks = pb.staging ?? {};
  if (Object.keys(tasks).length === 0)
    throw new UsageError(
      `--stage: playbook ${pb.name} declares no staging task (a task with stage: true runs ahead of the window)`,
    );
  return { ...pb, tasks, andThen: () => stagingPlaybook(pb) } as Playbook;
}

/** What the planning check found, host by host (rolling-run.ts's plan). */
export interface StagePlan {
  readonly work: readonly string[];
  readonly ok: readonly string[];
  readonly waived: readonly { host: string; reason: string }[];
  readonly failed: readonly { host: string; reason: string }[];
  readonly changes: Readonly<Record<string, readonly string[]>>;
}

export interface StageDeps {
  record(host: string, phase: string, state: JournalEvent['state'], detail?: string, data?: object): Promise<unknown>;
  /** The staging tasks in apply mode on these hosts (one graph run, --forks at once). */
  stage(hosts: readonly string[]): Promise<Readonly<Record<string, HostReport>>>;
  readonly stop: AbortSignal;
}

/** A new staging run's first records: the plan, as a rollout's are (nodes with no work are `ok`). */
export async function recordStagePlan(d: StageDeps, p: StagePlan): Promise<void> {
  for (const f of p.failed) await d.record(f.host, 'check', 'fail', f.reason);
  for (const h of p.ok)
    await d.record(h, 'planned', 'end', 'already in the desired state: not staged', { [NO_WORK]: true });
  for (const w of p.waived) await d.record(w.host, 'planned', 'end', `waived: ${w.reason}`, { [WAIVED]: true });
  await d.record('', 'plan', 'note', `${p.work.length} nodes to stage`, { batches: p.work.length ? [p.work] : [] });
  for (const h of p.work)
    await d.record(h, 'planned', 'end', `stage: ${(p.changes[h] ?? []).join('; ')}`, { batch: 1 });
}

/** One node's staging as the journal says it: what its staging tasks changed, or why one failed. */
export function stageOutcome(h: HostReport | undefined): { ok: boolean; detail: string } {
  if (!h) return { ok: false, detail: 'no staging task ran' };
  const bad = h.steps.find((s) => s.status === 'failed' || s.status === 'unreachable');
  if (bad || (h.status !== 'ok' && h.status !== 'changed'))
    return { ok: false, detail: `task ${bad?.task ?? '?'} ${bad?.status ?? h.status}: ${bad?.error ?? h.status}` };
  const changed = h.steps.filter((s) => s.status === 'changed').map((s) => `${s.task} (${s.fields.join(', ')})`);
  const notes = h.steps.flatMap((s) => s.warnings ?? []);
  const what = changed.length ? `staged: ${changed.join(', ')}` : 'already staged';
  return { ok: true, detail: notes.length ? `${what}; ${notes.join('; ')}` : what };
}

/**
 * Stages the planned nodes not yet done (all of them, or those a run cut short left), recording each
 * node's `stage` begin and its end or failure, and `done`. Returns the nodes that failed.
 */
export async function stageNodes(d: StageDeps, events: readonly JournalEvent[]): Promise<string[]> {
  const progress = hostProgress(events);
  const pending = [...progress.values()].filter((p) => p.outcome === 'pending' && p.batch !== null).map((p) => p.host);
  if (pending.length === 0 || d.stop.aborted) return [];
  await d.record('', 'batch', 'begin', `staging ${pending.length} nodes`, { batch: 1, hosts: pending });
  for (const h of pending) await d.record(h, 'stage', 'begin');
  const reports = await d.stage(pending);
  const failed: string[] = [];
  for (const h of pending) {
    const o = stageOutcome(reports[h]);
    if (!o.ok && d.stop.aborted && reports[h]?.status !== 'failed') continue; // cut short: staged again on resume
    if (!o.ok) {
      failed.push(h);
      await d.record(h, 'stage', 'fail', o.detail);
      continue;
    }
    await d.record(h, 'stage', 'end', o.detail);
    await d.record(h, 'done', 'end', 'staged: never cordoned');
  }
  await d.record('', 'batch', 'end', `${pending.length - failed.length} staged, ${failed.length} failed`, { batch: 1 });
  return failed;
}
