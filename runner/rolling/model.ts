// Rolling runs (play hotfix-windows, or any playbook that declares `rolling`): the shapes shared by the
// batch planner, the journal in the state store, the executor and the report. Pure types.
// docs/rolling.md explains the run as an operator sees it.

/** One step of `serial`: a host count (3) or a percentage of the hosts that need work ('25%'). */
export type SerialStep = number | `${number}%`;

/** `maxFail`: failures the whole run tolerates, as a count (1) or a percentage of the targeted hosts ('20%'). */
export type FailBudgetSpec = number | `${number}%`;

/** What to do with a node whose drain timed out. */
export type DrainTimeoutPolicy = 'uncordon' | 'keep-cordoned';

/** What a playbook declares under `rolling` (every field may be overridden on the command line). */
export interface RollingSpec {
  /** Batch sizes, in order; the last one repeats (Ansible's `serial`). Default [1]. */
  serial?: SerialStep | readonly SerialStep[];
  /** Default 0: the first failure stops the run before its next batch. */
  maxFail?: FailBudgetSpec;
  /** The host var naming a host's failure domain (a rack, a zone). Default 'failure_domain'. */
  domainVar?: string;
  /** At most this many hosts of one failure domain in a batch. Default: no limit. */
  maxPerDomain?: number;
  /** Seconds a finished batch's nodes must stay Ready before the next batch starts. Default 0. */
  soakSec?: number;
  /**
   * Cordon, drain, Ready and uncordon through kubectl on the first host of this group (its host var
   * `kubectl` names kubectl's path). Without it: batches only (Ansible's serial), no cluster phases.
   */
  control?: string;
  drainTimeoutSec?: number;
  onDrainTimeout?: DrainTimeoutPolicy;
  /** How long a node may take to be Ready after its tasks. Default 600 (Ansible win_reboot's reboot_timeout). */
  readyTimeoutSec?: number;
  /** Prometheus alerts that hold the next batch back (runner/rolling/alert-gate/). */
  alertGate?: { prometheus?: string; queries?: readonly string[]; alerts?: readonly string[] };
}

/** Asked before each batch: a query with a non-empty result, or one of these alerts firing, pauses the run. */
export interface AlertGate {
  /** Prometheus' base URL, without credentials (they come from the environment). */
  readonly prometheus: string;
  readonly queries: readonly string[];
  readonly alerts: readonly string[];
}

/** A rolling policy with every default filled in and every value checked. */
export interface RollingPolicy {
  readonly serial: readonly SerialStep[];
  readonly maxFail: FailBudgetSpec;
  readonly domainVar: string;
  readonly maxPerDomain: number | null;
  readonly soakSec: number;
  readonly control: string | null;
  readonly drainTimeoutSec: number;
  readonly onDrainTimeout: DrainTimeoutPolicy;
  readonly readyTimeoutSec: number;
  /** As given to --window, or null. */
  readonly window: string | null;
  /** The alert gate (rolling.alertGate, --gate-*); absent: none. */
  readonly prometheusGate?: AlertGate;
}

/** A host the planner places: its name and failure domain (null: none, never limited). */
export interface PlanHost {
  readonly name: string;
  readonly domain: string | null;
}

/** A host the planner moved to a later batch because its domain was full. */
export interface DeferredHost {
  readonly host: string;
  readonly domain: string;
  /** 1-based batch numbers. */
  readonly fromBatch: number;
  readonly toBatch: number;
}

export interface BatchPlan {
  /** Host names per batch, 1st batch first, inventory order within a batch. */
  readonly batches: readonly (readonly string[])[];
  readonly deferred: readonly DeferredHost[];
}

/**
 * Where one host is in a rolling run. The journal records each phase's begin and end; a host's
 * position is the last phase that ended.
 */
export type Phase =
  | 'planned' // needs work, in a batch
  | 'cordon' // cordoned (by us, or found cordoned: see cordonOwner)
  | 'drain' // pods evicted
  | 'apply' // the playbook's tasks ran (for hotfix-windows: installed and rebooted)
  | 'ready' // the node is Ready in the cluster again
  | 'gate' // the playbook's gate passed (hotfix-windows: the pod network); journals written before it never name it
  | 'uncordon' // schedulable again (only a node we cordoned)
  | 'done';

export const PHASES: readonly Phase[] = ['planned', 'cordon', 'drain', 'apply', 'ready', 'gate', 'uncordon', 'done'];

/** A run's state as the journal keeps it. Finished: done, stopped, failed. Unfinished: the rest. */
export type RolloutStatus =
  | 'running' // a process is working on it (or died doing so: its lock is stale)
  | 'paused' // outside the maintenance window, or held by the alert gate; resume later
  | 'interrupted' // Ctrl-C or SIGTERM; in-flight nodes were brought to a safe point
  | 'done'
  | 'stopped' // the failure budget or a health gate ended it
  | 'failed'; // play could not go on (an error before or between batches)

export const UNFINISHED: readonly RolloutStatus[] = ['running', 'paused', 'interrupted'];
