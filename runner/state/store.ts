// The state store: what play remembers between runs, in one place on disk (docs/architecture.md).
// Drift history lives here now; the rolling-upgrade journal and its lock (issue 11) join it. It is an
// interface so that a networked backend can be added without touching the runner; the default is
// one SQLite file (sqlite-store.ts).
import type { DriftItem, DriftRun } from '../drift/model.js';

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

export interface StateStore {
  /** Where it lives, for messages (a path, or a URL for a networked backend). */
  readonly location: string;
  readonly drift: DriftHistory;
  close(): void;
}
