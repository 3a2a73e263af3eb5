// The state store: what play remembers between runs (docs/state.md). The drift history and the rolling
// runs' journal with its lease. Asynchronous, so that the embedded backend (one SQLite file,
// sqlite/store.ts) and a networked one share it; every method is one transaction.
import type { DriftItem, DriftRun } from '../drift/model.js';
import type { RolloutStatus } from '../rolling/model.js';
import type { Lease, LeaseClaim, ProcessIdentity } from './lease.js';

/** A drift run without its items, for listings. */
export type DriftRunSummary = Omit<DriftRun, 'items'>;

export interface DriftHistory {
  /** Saves a run (its id is assigned here) and its items, in one transaction. */
  save(run: Omit<DriftRun, 'id'>): Promise<DriftRun>;
  /**
   * For each host, the items of the most recent run that judged it (reached and probed) and
   * checked the playbook, except resolved ones: what this run's items are new or persisting against.
   */
  previousItems(hosts: readonly string[], playbooks: readonly string[]): Promise<DriftItem[]>;
  /** Records that the run's notification failed (it is posted after the run is saved). */
  setNotifyError(id: number, error: string): Promise<void>;
  /** Newest first. */
  list(limit: number): Promise<DriftRunSummary[]>;
  get(id: number): Promise<DriftRun | null>;
  latest(): Promise<DriftRun | null>;
  /** Deletes runs older than `olderThan` and beyond the newest `keepCount`; returns how many went. */
  prune(keep: { olderThan?: Date; keepCount?: number }): Promise<number>;
}

/** A rolling run as the journal keeps it. */
export interface RolloutRecord {
  readonly id: number;
  readonly playbook: string;
  /** Which inventory the run works on (its resolved sources): the lease's key. */
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

/** A new run: what begin needs besides the lease claim. */
export type NewRollout = Omit<RolloutRecord, 'id' | 'status' | 'reason' | 'updatedAt' | 'pid' | 'controller'>;

export interface RolloutJournal {
  /**
   * Takes the inventory's lease and creates the run, in one transaction. A lease held by a live holder
   * throws LeaseHeldError; an expired one, or one whose process is provably gone, is taken over.
   */
  begin(run: NewRollout, claim: LeaseClaim): Promise<{ run: RolloutRecord; lease: Lease }>;
  /** Takes an unfinished run over (resume): the lease as in begin, status running. */
  takeOver(id: number, claim: LeaseClaim): Promise<{ run: RolloutRecord; lease: Lease }>;
  /** Extends the lease (the heartbeat); LeaseLostError when another holder has it now. */
  renew(lease: Lease): Promise<Lease>;
  /**
   * Appends an event under the lease: durable when it returns, refused with LeaseLostError (and nothing
   * written) when the lease has passed to another holder since (its fencing number is stale).
   */
  record(lease: Lease, event: JournalEvent): Promise<void>;
  /** The run's events in the order they were recorded. */
  events(runId: number): Promise<JournalEvent[]>;
  /** Sets the status under the lease; any status but running releases the lease. */
  setStatus(lease: Lease, status: RolloutStatus, reason?: string | null): Promise<void>;
  /**
   * Removes the lease the run holds, whatever its holder (`play rollouts unlock`); false when it holds
   * none. The run's status is left as is.
   */
  unlock(runId: number): Promise<boolean>;
  get(id: number): Promise<RolloutRecord | null>;
  /** The lease on the inventory, if any (held or expired): for messages and `play rollouts list`. */
  lease(inventoryKey: string): Promise<Lease | null>;
  /** The newest run on this inventory (and playbook, when given) whose status is unfinished. */
  latestUnfinished(inventoryKey: string, playbook?: string): Promise<RolloutRecord | null>;
  /** Newest first. */
  list(limit: number): Promise<RolloutRecord[]>;
}

/** A KB a rolling run took back off a node after it failed there: no run installs it until released. */
export interface QuarantinedKb {
  /** KB4551853 (upper case). */
  readonly kb: string;
  /** The package identity DISM removed (Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7), if known. */
  readonly packageName: string | null;
  /** The host it failed on, the run and playbook, and why. */
  readonly host: string;
  readonly runId: number | null;
  readonly playbook: string;
  readonly reason: string;
  /** ISO 8601: when it was quarantined. */
  readonly at: string;
}

/** The quarantined KBs (`play rollouts release-kb KB` releases one). */
export interface KbQuarantine {
  /** Quarantines the KB (a KB already quarantined gets the newer record). */
  add(entry: QuarantinedKb): Promise<void>;
  /** Every quarantined KB, oldest first. */
  list(): Promise<QuarantinedKb[]>;
  /** Releases the KB: its record, or null when it was not quarantined. */
  release(kb: string): Promise<QuarantinedKb | null>;
}

/** Why a tick of a shared schedule was not this controller's to run. */
export type TickRefusal =
  | { readonly kind: 'taken'; readonly by: ProcessIdentity }
  | { readonly kind: 'busy'; readonly by: ProcessIdentity; readonly dueAt: string };

/**
 * The ticks of `play drift --every/--cron` shared by every controller on this store: each tick is
 * claimed once, and a tick is not claimed while an earlier tick's run is still going (its claim not
 * finished and still renewed), so runs never overlap, whichever controller runs them.
 */
export interface ScheduleClaims {
  /** Claims the tick of schedule `key` due at `dueAt`: null when claimed, else why not. */
  claim(key: string, dueAt: string, claim: LeaseClaim): Promise<TickRefusal | null>;
  /** The claim's heartbeat while its run goes on (a claim not renewed for its length no longer blocks). */
  renew(key: string, dueAt: string, token: string): Promise<void>;
  /** The run of the tick ended (whatever its outcome). */
  finish(key: string, dueAt: string, token: string): Promise<void>;
}

/** What `play state check` found. */
export interface StoreCheck {
  readonly location: string;
  readonly schema: number;
  /** Empty when the store is sound; otherwise what the backend's own check reported. */
  readonly problems: readonly string[];
  readonly driftRuns: number;
  readonly rollouts: number;
}

export interface StateStore {
  /** Where it lives, for messages (a path, or a URL without its password for a networked backend). */
  readonly location: string;
  /** Random, made with the store: tells two stores apart when their locations read alike (two laptops' default path). */
  readonly id: string;
  readonly drift: DriftHistory;
  readonly rollouts: RolloutJournal;
  readonly schedules: ScheduleClaims;
  readonly quarantine: KbQuarantine;
  /** The backend's integrity check and the schema version. */
  check(): Promise<StoreCheck>;
  /** A consistent copy of the whole store, taken while others may write (the backend's online backup). */
  backup(file: string): Promise<void>;
  close(): Promise<void>;
}
