// The messages a rolling run posts to --notify: started (or resumed), each batch done, each node that
// failed, and the end: paused (with why: the window, the alert gate), stopped, done, interrupted, failed.
// One JSON object each, `text` first for chat webhooks that show only that; `event` says which. Built
// from the journal's events and the run's final status: their texts are redacted once more here, so no
// revealed secret can leave in a message. Pure (but for redact's memory of revealed values).
import { redact } from '../core/secret.js';
import type { JournalEvent } from '../state/store.js';
import type { RolloutStatus } from './model.js';

export type NoticeEvent =
  | 'started'
  | 'resumed'
  | 'batch-done'
  | 'node-failed'
  | 'paused'
  | 'stopped'
  | 'done'
  | 'interrupted'
  | 'failed';

/** Which run a message is about. */
export interface NoticeRun {
  readonly run: number;
  readonly playbook: string;
  /** The inventory's sources (the run's key). */
  readonly inventory: string;
}

export interface Notice {
  readonly text: string;
  readonly event: NoticeEvent;
  readonly run: number;
  readonly playbook: string;
  readonly inventory: string;
  readonly at: string;
  readonly [more: string]: unknown;
}

const head = (r: NoticeRun) => `play rolling run ${r.run} of ${r.playbook}`;

function notice(r: NoticeRun, event: NoticeEvent, text: string, at: string, more: object = {}): Notice {
  return { text: redact(text), event, run: r.run, playbook: r.playbook, inventory: r.inventory, at, ...more };
}

/** The run began (or a resume took it over). */
export function startNotice(r: NoticeRun, resumed: boolean, at: string): Notice {
  return notice(r, resumed ? 'resumed' : 'started', `${head(r)} ${resumed ? 'resumed' : 'started'}`, at);
}

/** A journal event worth a message: a batch's end, a node's failure; null for the rest. */
export function eventNotice(r: NoticeRun, e: JournalEvent): Notice | null {
  if (e.host === '' && e.phase === 'batch' && e.state === 'end') {
    const batch = Number(e.data?.batch);
    return notice(r, 'batch-done', `${head(r)}: batch ${batch} done: ${e.detail ?? ''}`.trimEnd(), e.at, {
      batch,
      result: e.detail,
    });
  }
  if (e.host !== '' && e.state === 'fail') {
    const reason = e.detail === null ? null : redact(e.detail);
    return notice(r, 'node-failed', `${head(r)}: ${e.host} failed in ${e.phase}${reason ? `: ${reason}` : ''}`, e.at, {
      host: e.host,
      phase: e.phase,
      reason,
    });
  }
  return null;
}

const ENDS: Readonly<Record<RolloutStatus, NoticeEvent>> = {
  running: 'interrupted', // left running: this process stopped without a status of its own (a lost lease)
  paused: 'paused',
  interrupted: 'interrupted',
  done: 'done',
  stopped: 'stopped',
  failed: 'failed',
};

/** How the run ended for this process; `resume`: the command that carries on, for paused and interrupted. */
export function endNotice(
  r: NoticeRun,
  status: RolloutStatus,
  reason: string | null,
  at: string,
  resume: string,
): Notice {
  const event = ENDS[status];
  const why = reason === null ? null : redact(reason);
  const next = event === 'paused' || event === 'interrupted' ? `; resume with: ${resume}` : '';
  return notice(r, event, `${head(r)} ${event}${why ? `: ${why}` : ''}${next}`, at, {
    status,
    reason: why,
  });
}
