// The playbook DSL: a default-exported definePlaybook({...}) with tasks keyed by id, and .andThen({...})
// for tasks that read outputs of the ones above. `needs` and `triggeredBy` only accept ids of the same
// playbook, and `output('id')` only ids of earlier blocks, typed by that task's step: a typo is a
// TypeScript compile error. (One object cannot type its functions by its own members' types: TypeScript
// infers the object from them, a cycle; a block reads only the blocks above, so there is none.)
import { InputError } from '../core/errors.js';
import type { AnyStep, Step } from '../core/step.js';
import type { RollingSpec } from '../rolling/model.js';
import type { RollingGate } from '../rolling/gate/model.js';
import type { HostView } from './host-view.js';

export type { HostView } from './host-view.js';

export interface TaskContext<Outputs extends object = Record<string, object>> {
  /** The target host (for a delegated task: the host it runs for, not where it runs). */
  readonly host: HostView;
  /** Where the step runs: the target, or the delegate host. */
  readonly runsOn: HostView;
  /** Every host of the inventory, for values computed from the whole inventory (e.g. all VIPs). */
  readonly inventory: readonly HostView[];
  /** Hosts of a group, in inventory order. */
  group(name: string): readonly HostView[];
  /**
   * Outputs of an earlier task (listed in `needs`) for a host (default: the target host), typed by
   * that task's step. When they cannot be known yet (check mode before that task ran), the task is
   * planned as unknown.
   */
  output<K extends keyof Outputs & string>(task: K, host?: string): Outputs[K];
  /**
   * The same for a task declared `optional`: undefined when that task has no node for the host (its
   * hosts are not in the inventory); like `output` otherwise (unknown while it has not run).
   */
  optionalOutput<K extends keyof Outputs & string>(task: K, host?: string): Outputs[K] | undefined;
}

/** What a step's outputs are (`Step<D, A, O>`'s O). */
export type OutputsOf<S> = S extends Step<any, any, infer O> ? O : never;

/** A step, or a function of the task's context that makes it (values from host vars and outputs). */
export type StepSource<Outputs extends object = Record<string, object>, S = AnyStep> =
  | S
  | ((ctx: TaskContext<Outputs>) => S);

/**
 * One task. `Id` is the ids `needs` and `triggeredBy` may name; `Outputs` the outputs its step
 * function may read (the tasks of earlier blocks); `S` its step, whose outputs other tasks read.
 */
export interface TaskSpec<Id extends string = string, Outputs extends object = Record<string, object>, S = AnyStep> {
  /** A group or host pattern (Ansible's grammar): the target hosts, narrowed by --limit. */
  on: string;
  step: StepSource<Outputs, S>;
  description?: string;
  /** Tasks that must have finished (successfully) for the same target host first. */
  needs?: readonly Id[];
  /** Runs only when one of these tasks changed something (like handlers); implies needs. */
  triggeredBy?: readonly Id[];
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
  /**
   * Words to run a part of the playbook by (--tags, --skip-tags; `always` runs unless skipped by
   * name, `never` only when asked by name), as ansible-playbook's tags: runner/playbook/select-tasks.ts.
   */
  tags?: readonly string[];
  /**
   * A staging task: run only by `--stage` (ahead of a rolling run's window: runner/rolling/stage-run.ts),
   * never by a normal run, a check or play drift. It is kept apart, in the playbook's `staging`.
   */
  stage?: boolean;
}

/** A block of tasks keyed by id; `Before` are the outputs of the blocks above it. */
type TaskBlock<Steps, Before extends object> = {
  [Id in keyof Steps]: TaskSpec<NoInfer<(keyof Steps | keyof Before) & string>, Before, Steps[Id]>;
};
type BlockOutputs<Steps> = { [Id in keyof Steps]: OutputsOf<Steps[Id]> };

export interface Playbook<Outputs extends object = Record<string, object>> {
  readonly name: string;
  readonly description: string;
  /** `play drift` checks it by default (its desired state is worth watching between runs). */
  readonly drift?: boolean;
  /** Runs a batch of hosts at a time (play hotfix-windows): docs/rolling.md. */
  readonly rolling?: RollingSpec;
  /** Read-only checks a rolling run's node passes after Ready, before uncordon: docs/rolling.md#pod-network-gate. */
  readonly gate?: RollingGate;
  /** Every task of every block, by id (staging tasks, `stage: true`, are in `staging` instead). */
  readonly tasks: { readonly [id: string]: TaskSpec };
  /** The tasks declared `stage: true`, by id: what `--stage` runs. */
  readonly staging?: { readonly [id: string]: TaskSpec };
  /**
   * More tasks, whose step functions read the outputs of the tasks above (typed by their steps:
   * `output('hotfix').rebootRequired` is a boolean). Blocks are a scope for types only: the order
   * of execution still comes from `needs` alone.
   */
  andThen<Steps extends Record<string, AnyStep>>(
    tasks: TaskBlock<Steps, Outputs>,
  ): Playbook<Outputs & BlockOutputs<Steps>>;
}

export function definePlaybook<Steps extends Record<string, AnyStep>>(playbook: {
  name: string;
  description: string;
  drift?: boolean;
  rolling?: RollingSpec;
  gate?: RollingGate;
  // biome-ignore lint/complexity/noBannedTypes: the first block reads no outputs: {} has no task ids.
  tasks: TaskBlock<Steps, {}>;
}): Playbook<BlockOutputs<Steps>> {
  return withTasks(playbook, playbook.tasks as Playbook['tasks']);
}

function withTasks<O extends object>(head: Omit<Playbook, 'tasks' | 'andThen'>, tasks: Playbook['tasks']): Playbook<O> {
  const { name, description, drift, rolling, gate } = head;
  return Object.freeze({
    name,
    description,
    ...(drift === undefined ? {} : { drift }),
    ...(rolling === undefined ? {} : { rolling }),
    ...(gate === undefined ? {} : { gate }),
    tasks: Object.freeze(Object.fromEntries(Object.entries(tasks).filter(([, t]) => t.stage !== true))),
    ...(Object.values(tasks).some((t) => t.stage === true)
      ? { staging: Object.freeze(Object.fromEntries(Object.entries(tasks).filter(([, t]) => t.stage === true))) }
      : {}),
    andThen(more: Playbook['tasks']) {
      const twice = Object.keys(more).filter((id) => Object.hasOwn(tasks, id));
      if (twice.length > 0) throw new InputError(`playbook ${name}: task ids defined twice: ${twice.join(', ')}`);
      return withTasks(head, { ...tasks, ...more });
    },
  }) as unknown as Playbook<O>;
}
