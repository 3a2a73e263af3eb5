// What one node's cycle (node-cycle.ts) is given and returns: the journal, the cluster, the playbook's
// tasks and the phases other modules add (the preflight's verdict, the gate, the rollback). Types only,
// in a module of their own so that those modules and the cycle do not import each other.
import type { ClusterOps } from './cluster.js';
import type { NodeGate } from './gate/look.js';
import type { RollingPolicy } from './model.js';
import type { RollbackOps } from './rollback-ops.js';

/** 'unrecorded': the journal could not be written, so the cycle stopped where its last record says. */
export type CycleResult = 'done' | 'ok' | 'failed' | 'interrupted' | 'not-started' | 'unrecorded';

export interface TasksOutcome {
  readonly ok: boolean;
  /** For the journal: what the tasks did ('hotfix changed, reboot changed'), or why they failed. */
  readonly detail: string;
  /** For the journal: facts of the apply (the updates it installed: rollback.ts). */
  readonly data?: object;
}

export interface CycleDeps {
  /** null: a serial run without a cluster (no cordon, drain or Ready gate). */
  readonly cluster: ClusterOps | null;
  readonly policy: RollingPolicy;
  /** The Kubernetes node name of a host. */
  nodeName(host: string): string;
  /** Appends to the journal (durable when it returns). */
  /**
   * Appends to the journal (durable when it returns). When the journal cannot be written it throws
   * JournalWriteError: the cycle stops at once, since nothing may be done that is not recorded first.
   */
  record(
    host: string,
    phase: string,
    state: 'begin' | 'end' | 'fail' | 'note',
    detail?: string,
    data?: object,
  ): Promise<void>;
  /** Check mode for the host: does it need work? */
  check(host: string): Promise<{ work: boolean } | { error: string }>;
  /** The playbook's tasks on the host, applied. */
  apply(host: string): Promise<TasksOutcome>;
  /** Waits until the host answers over SSH (a resumed node may be mid-reboot). */
  reachable(host: string, timeoutMs: number): Promise<boolean>;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Aborted: start nothing new (Ctrl-C, SIGTERM). */
  readonly stop: AbortSignal;
  /** Polling period of the Ready wait (default 1 s). */
  readonly pollMs?: number;
  /** Why the host's drain would block, as the batch's preflight predicts (null or absent: it passes). */
  predictedBlock?(host: string): string | null;
  /** Drain a node predicted to block anyway (--try-blocked); otherwise it is refused before its cordon. */
  readonly tryBlocked?: boolean;
  /** --on-failure rollback (rollback-node.ts): a node that fails after its install is rolled back. */
  readonly rollback?: RollbackOps | null;
  /** The playbook's gate after Ready, before uncordon (gate/): none, no such phase. */
  readonly gate?: NodeGate | null;
}
