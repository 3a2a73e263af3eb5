// Why a rolling run stopped, as the message the user sees, and the run recorded as interrupted where the
// store allows, so that `play resume` carries on once the cause is fixed.
import { PlayError, RemoteError, UnreachableError } from '../../core/errors.js';
import { redact } from '../../core/secret.js';
import { LeaseLostError } from '../../state/lease.js';
import { ClusterLeaseHeldError } from '../cluster-lease.js';
import { JournalWriteError } from '../journal-write-error.js';
import type { RunJournal } from '../run-journal.js';

/**
 * The journal failing (a lost lease, a store that cannot be written) or the control host and kubectl
 * failing between nodes (a node's own failures stay in its cycle). Anything else is a bug in play and
 * stays one.
 */
export async function stoppedBy(e: unknown, journal: RunJournal, location: string): Promise<unknown> {
  const runId = journal.runId;
  const failure = journal.failure ?? (e instanceof JournalWriteError ? e : null);
  if (failure) return journalStopped(failure, journal, location);
  const known = e instanceof PlayError || e instanceof RemoteError || e instanceof UnreachableError;
  if (!known) return e;
  const message = redact((e as Error).message);
  await journal.finish('interrupted', `stopped by an error: ${message}`).catch(() => {});
  return e instanceof PlayError
    ? e
    : new PlayError(
        `run ${runId} stopped: ${message}; where every node is: play rollouts show ${runId}; to go on: play resume ${runId}`,
        3,
      );
}

/** The journal failed: the lease's loss as it is (exit 69), or the store's error naming what to do. */
async function journalStopped(failure: JournalWriteError, journal: RunJournal, location: string): Promise<PlayError> {
  const cause = failure.cause;
  if (cause instanceof LeaseLostError) return cause;
  if (cause instanceof ClusterLeaseHeldError) {
    await journal.finish('interrupted', redact(cause.message)).catch(() => {});
    return new PlayError(
      `run ${journal.runId} stopped: ${cause.message}. Nothing more was started and the nodes in flight were ` +
        `brought to a safe point; once it is free: play resume ${journal.runId}`,
      69,
    );
  }
  const runId = journal.runId;
  const why = redact(cause instanceof Error ? cause.message : String(cause));
  // The store may take this write even if it refused the last (a busy moment): try, never insist.
  await journal.finish('interrupted', `the journal could not be written: ${why}`).catch(() => {});
  const code = cause instanceof PlayError ? cause.exitCode : 74;
  return new PlayError(
    `run ${runId} stopped: the state store ${location} failed while ${redact(failure.message)}. Nothing more was ` +
      `started and the nodes in flight were brought to a safe point; the journal holds every step up to there. ` +
      `Fix the store, then: play resume ${runId} (play rollouts show ${runId} says where every node is)`,
    code,
  );
}
