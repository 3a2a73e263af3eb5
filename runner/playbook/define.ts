// The playbook DSL: a default-exported definePlaybook({...}) with tasks keyed by id. `needs` and
// `triggeredBy` only accept ids of the same playbook: a typo is a TypeScript compile error.
import type { AnyStep } from '../core/step.js';
import type { OsFamily } from '../inventory/model.js';
import type { RollingSpec } from '../rolling/model.js';

/** The host a task is for, as a step function sees it. */
export interface HostView {
  readonly name: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly groups: readonly string[];
  readonly os: OsFamily;
}

export interface TaskContext<K extends string = string> {
  /** The target host (for a delegated task: the host it runs for, not where it runs). */
  readonly host: HostView;
  /** Where the step runs: the target, or the delegate host. */
  readonly runsOn: HostView;
  /** Every host of the inventory, for values computed from the whole inventory (e.g. all VIPs). */
  readonly inventory: readonly HostView[];
  /** Hosts of a group, in inventory order. */
  group(name: string): readonly HostView[];
  /**
   * Outputs of an earlier task (listed in `needs`) for a host (default: the target host). When
   * they cannot be known yet (check mode before that task ran), the task is planned as unknown.
   */
  output<O extends object = Record<string, unknown>>(task: K, host?: string): O;
  /**
   * The same for a task declared `optional`: undefined when that task has no node for the host (its
   * hosts are not in the inventory); like `output` otherwise (unknown while it has not run).
   */
  optionalOutput<O extends object = Record<string, unknown>>(task: K, host?: string): O | undefined;
}

export type StepSource<K extends string> = AnyStep | ((ctx: TaskContext<K>) => AnyStep);

export interface TaskSpec<K extends string = string> {
  /** A group or host pattern (Ansible's grammar): the target hosts, narrowed by --limit. */
  on: string;
  step: StepSource<K>;
  description?: string;
  /** Tasks that must have finished (successfully) for the same target host first. */
  needs?: readonly K[];
  /** Runs only when one of these tasks changed something (like handlers); implies needs. */
  triggeredBy?: readonly K[];
  /** Runs for each target host, but on every host matching this pattern (e.g. 'tor'). */
  delegateTo?: string;
  /** Per-step time limit in seconds (default: the run's --timeout). */
  timeoutSec?: number;
  /**
   * The task's hosts may be absent: where `on` or `delegateTo` matches no host of the inventory (e.g.
   * an inventory without a `control` group), the task has no nodes instead of being an input error,
   * and tasks that need it run without it (they read it with `optionalOutput`). --limit never makes
   * a delegate absent: delegateTo is not narrowed by --limit.
   */
  optional?: boolean;
}

export interface Playbook<K extends string = string> {
  readonly name: string;
  readonly description: string;
  /** `play drift` checks it by default (its desired state is worth watching between runs). */
  readonly drift?: boolean;
  /** Runs a batch of hosts at a time (play hotfix-windows): docs/rolling.md. */
  readonly rolling?: RollingSpec;
  readonly tasks: { readonly [P in K]: TaskSpec<K> };
}

export function definePlaybook<K extends string>(playbook: {
  name: string;
  description: string;
  drift?: boolean;
  rolling?: RollingSpec;
  tasks: { [P in K]: TaskSpec<NoInfer<K>> };
}): Playbook<K> {
  return playbook;
}
