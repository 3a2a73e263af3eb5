// The state store: what play remembers between runs, in one place on disk (docs/architecture.md).
// Drift history and the rolling runs' journal with its lock. It is an interface so that a networked
// backend can be added without touching the runner; the default is one SQLite file (sqlite-store.ts).
import type { DriftItem, DriftRun } from '../drift/model.js';
import type { RolloutStatus } from '../rolling/model.js';

/** A drift run without its items, for listings. */
export type DriftRunSummary = Omit<DriftRun, 'items'>;

export interface DriftHistory {
  /** Saves a run (its id is assigned here) and its items, in one transaction. */
  save(run: Omit<DriftRun, 'id'>): DriftRun;
  /**
   * For each host, the items of the most recent run that judged it (reached and probed) and
   * checked the playbook, except resolved ones: what this run's items are new or persisting against.
   */
  previousItems(hosts: readonly string[], playbooks: readonly string[]): DriftItem[];
  /** Records that the run's notification failed (it is posted after the run is saved). */
  setNotifyError(id: number, error: string): void;
  /** Newest first. */
  list(limit: number): DriftRunSummary[];
  get(id: number): DriftRun | null;
  latest(): DriftRun | null;
  /** Deletes runs older than `olderThan` and beyond the newest `keepCount`; returns how many went. */
  prune(keep: { olderThan?: Date; keepCount?: number }): number;
}

/** A rolling run as the journal keeps it. */
export interface RolloutRecord {
  readonly id: number;
  readonly playbook: string;
  /** Which inventory the run works on (its resolved sources): the lock's key. */
  readonly inventoryKey: string;
  /** What the run was started with (limit, policy, extra vars): a resume runs with the same. JSON. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly status: RolloutStatus;
  /** Why the run stopped, paused or failed. */
  readonly reason: string | null;
  readonly startedAt: string;
  readonly updatedAt: string;
  /** The process working on it now (or last): pid and the controller's host name. */
  readonly pid: number;
  readonly controller: string;
}

/** One line of the journal: a host's phase began, ended or failed (detail: why), or a run-level note. */
export interface JournalEvent {
  readonly runId: number;
  /** '' for an event of the run itself (a batch started, the gate passed). */
  readonly host: string;
  readonly phase: string;
  readonly state: 'begin' | 'end' | 'fail' | 'note';
  readonly at: string;
  readonly detail: string | null;
  /** Free-form facts (the batch number, whether we own the cordon). JSON. */
  readonly data: Readonly<Record<string, unknown>> | null;
}

/** The lock is held by a live process: names the run, so the message can say who. */
export interface LockHolder {
  readonly runId: number;
  readonly pid: number;
  readonly controller: string;
  readonly since: string;
}

export interface RolloutJournal {
  /**
   * Takes the inventory's lock and creates the run, in one transaction. A lock held by a live process
   * throws LockHeldError; a stale lock (its process is gone) is taken over.
   */
  begin(run: Omit<RolloutRecord, 'id' | 'status' | 'reason' | 'updatedAt'>): RolloutRecord;
  /** Takes an unfinished run over for this process (resume): the lock as in begin, status running. */
  takeOver(id: number, pid: number, controller: string): RolloutRecord;
  /** Appends an event (each call its own transaction: it is on disk when this returns). */
  record(event: JournalEvent): void;
  /** The run's events in the order they were recorded. */
  events(runId: number): JournalEvent[];
  /** Sets the status; any status but running releases the run's lock. */
  setStatus(id: number, status: RolloutStatus, reason?: string | null): void;
  /**
   * Removes the lock the run holds, whatever its process (`play rollouts unlock`, for a holder gone on
   * another machine); false when it holds none. The run's status is left as is.
   */
  unlock(runId: number): boolean;
  get(id: number): RolloutRecord | null;
  /** The newest run on this inventory (and playbook, when given) whose status is unfinished. */
  latestUnfinished(inventoryKey: string, playbook?: string): RolloutRecord | null;
  /** Newest first. */
  list(limit: number): RolloutRecord[];
}

export interface StateStore {
  /** Where it lives, for messages (a path, or a URL for a networked backend). */
  readonly location: string;
  readonly drift: DriftHistory;
  readonly rollouts: RolloutJournal;
  close(): void;
}
