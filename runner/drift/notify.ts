// Telling people about drift only when it changes: a run with new or resolved items posts
// one JSON message to --notify URL; a run that only repeats persisting items posts nothing. Posting
// (retries, timeout, the URL never shown whole) is runner/core/notify-post.ts, shared with rolling runs.
// Values in the message are the run's, already masked: no secret can appear in it.
import { type DriftItem, type DriftRun, countsAsDrift } from './model.js';

export { type NotifyOptions, notifyTarget, postNotification } from '../core/notify-post.js';

const brief = (i: DriftItem) => ({
  host: i.host,
  playbook: i.playbook,
  task: i.task,
  ...(i.target ? { target: i.target } : {}),
  title: i.title,
  action: i.action,
  fields: i.fields,
  before: i.before,
  after: i.after,
  firstSeen: i.firstSeen,
  ...(i.waiver ? { waiver: i.waiver } : {}),
});

/** The message for a run, or null when nothing changed since the previous run (no new, no resolved). */
export function notificationOf(run: DriftRun): Record<string, unknown> | null {
  const fresh = run.items.filter((i) => i.status === 'new' && countsAsDrift(i));
  const resolved = run.items.filter((i) => i.status === 'resolved');
  if (fresh.length === 0 && resolved.length === 0) return null;
  return {
    text: `play drift run ${run.id}: ${fresh.length} new, ${resolved.length} resolved, ${run.counts.drifted} drifted in all`,
    run: run.id,
    startedAt: run.startedAt,
    inventory: run.inventory,
    playbooks: run.playbooks,
    counts: run.counts,
    exitCode: run.exitCode,
    new: fresh.map(brief),
    resolved: resolved.map(brief),
    problems: run.problems,
  };
}
