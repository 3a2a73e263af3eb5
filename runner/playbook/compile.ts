// Compiles a playbook against an inventory into one graph of task x host nodes. Every check that
// can fail on input (unknown task ids, cycles, patterns matching nothing) fails here, before any
// host is touched. Ordering comes only from needs/triggeredBy; declaration order breaks ties.
import { InputError, UsageError } from '../core/errors.js';
import type { Host, Inventory } from '../inventory/model.js';
import { selectHosts } from '../inventory/pattern.js';
import type { Playbook, TaskSpec } from './define.js';
import { checkTaskTags, leftOutTasks, type TaskSelection } from './select-tasks.js';

export interface TaskNode {
  /** `task@target`, or `task@target>runsOn` when delegated. */
  readonly id: string;
  readonly task: string;
  readonly spec: TaskSpec;
  readonly target: Host;
  readonly runsOn: Host;
  /** Nodes that must finish first. */
  readonly deps: readonly TaskNode[];
  /** The subset of deps whose change triggers this node (empty: not a triggered task). */
  readonly triggers: readonly TaskNode[];
  /** Needed tasks that have no node at all here (their hosts are outside --limit): the node is skipped. */
  readonly unmet: readonly string[];
  /** Position in the topological order of all nodes. */
  readonly order: number;
}

export interface TaskGraph {
  readonly playbook: Playbook;
  /** Task ids in topological order. */
  readonly taskOrder: readonly string[];
  /** All nodes in topological order. */
  readonly nodes: readonly TaskNode[];
  /** Hosts that run steps, in inventory order. */
  readonly hosts: readonly Host[];
  /** Tasks that were left without hosts (their pattern and --limit did not meet). */
  readonly emptyTasks: readonly string[];
  /** Tasks the run leaves out (--tags, --skip-tags, --start-at-task), with why; their nodes stay in the
   *  graph, reported skipped, and what needs them still runs after them, as in Ansible. */
  readonly leftOut?: ReadonlyMap<string, string>;
}

export interface CompileOptions {
  limit?: string;
  /** Narrows the targets further to exactly these host names (a rolling run's batch): no pattern
   *  parsing, so any host name works. */
  only?: ReadonlySet<string>;
  cwd?: string;
  /** Run a part of the playbook (select-tasks.ts): the tasks left out become graph.leftOut. */
  select?: TaskSelection;
}

export function taskOrder(pb: Playbook): string[] {
  const ids = Object.keys(pb.tasks);
  const deps = new Map<string, string[]>();
  for (const id of ids) {
    const spec = pb.tasks[id]!;
    if (!spec || typeof spec !== 'object' || typeof spec.on !== 'string' || !spec.step) {
      throw new InputError(`playbook ${pb.name}: task '${id}' needs 'on' (a host pattern) and 'step'`);
    }
    checkTaskTags(pb.name, id, spec.tags);
    const all = [...(spec.needs ?? []), ...(spec.triggeredBy ?? [])];
    for (const d of all) {
      if (!Object.hasOwn(pb.tasks, d)) {
        throw new InputError(
          `playbook ${pb.name}: task '${id}' needs '${d}', which is not a task of this playbook (tasks: ${ids.join(', ')})`,
        );
      }
      if (d === id) throw new InputError(`playbook ${pb.name}: task '${id}' needs itself`);
    }
    deps.set(id, [...new Set(all)]);
  }
  // Kahn's algorithm; among ready tasks, the one declared first goes first.
  const done = new Set<string>();
  const order: string[] = [];
  while (order.length < ids.length) {
    const next = ids.find((id) => !done.has(id) && deps.get(id)!.every((d) => done.has(d)));
    if (!next) {
      const stuck = ids.filter((id) => !done.has(id));
      throw new InputError(`playbook ${pb.name}: tasks ${stuck.join(', ')} depend on each other in a cycle`);
    }
    done.add(next);
    order.push(next);
  }
  return order;
}

/** The hosts of a task's pattern; an optional task's pattern may match nothing (then: none). */
function select(inv: Inventory, pattern: string, what: string, options: { cwd?: string; optional?: boolean }): Host[] {
  try {
    return selectHosts(inv, pattern, { cwd: options.cwd });
  } catch (e) {
    if (e instanceof UsageError) {
      if (options.optional) return [];
      throw new InputError(`${what}: ${e.message}`);
    }
    throw e;
  }
}

export function compileGraph(pb: Playbook, inv: Inventory, options: CompileOptions = {}): TaskGraph {
  const order = taskOrder(pb);
  const leftOut = options.select ? leftOutTasks(pb, order, options.select) : undefined;
  const limited = options.limit
    ? new Set(selectHosts(inv, options.limit, { cwd: options.cwd }).map((h) => h.name))
    : null;
  const nodes: TaskNode[] = [];
  const byTask = new Map<string, TaskNode[]>();
  /** A task's nodes by target: a node's deps are found without scanning all of a task's nodes (which,
   *  per target, made compiling a thousand hosts cost a million comparisons per dependency). */
  const byTaskTarget = new Map<string, Map<string, TaskNode[]>>();
  const emptyTasks: string[] = [];

  for (const task of order) {
    const spec = pb.tasks[task]!;
    const how = { cwd: options.cwd, optional: spec.optional === true };
    const targets = select(inv, spec.on, `playbook ${pb.name}, task '${task}', on '${spec.on}'`, how).filter(
      (h) => (!limited || limited.has(h.name)) && (!options.only || options.only.has(h.name)),
    );
    const delegates = spec.delegateTo
      ? select(inv, spec.delegateTo, `playbook ${pb.name}, task '${task}', delegateTo '${spec.delegateTo}'`, how)
      : null;
    const mine: TaskNode[] = [];
    for (const target of targets) {
      const depsOf = (ids: readonly string[]) =>
        ids.flatMap((d) => {
          const sameTarget = byTaskTarget.get(d)?.get(target.name);
          return sameTarget ?? byTask.get(d) ?? [];
        });
      const triggers = depsOf(spec.triggeredBy ?? []);
      const deps = [...new Set([...depsOf(spec.needs ?? []), ...triggers])];
      // An optional task without nodes is not unmet: its dependents run without it.
      const unmet = [...(spec.needs ?? []), ...(spec.triggeredBy ?? [])].filter(
        (d) => (byTask.get(d) ?? []).length === 0 && pb.tasks[d]!.optional !== true,
      );
      for (const runsOn of delegates ?? [target]) {
        const id = runsOn === target ? `${task}@${target.name}` : `${task}@${target.name}>${runsOn.name}`;
        const node: TaskNode = { id, task, spec, target, runsOn, deps, triggers, unmet, order: nodes.length };
        nodes.push(node);
        mine.push(node);
      }
    }
    if (mine.length === 0) emptyTasks.push(task);
    byTask.set(task, mine);
    const byTarget = new Map<string, TaskNode[]>();
    for (const node of mine) {
      const list = byTarget.get(node.target.name) ?? [];
      list.push(node);
      byTarget.set(node.target.name, list);
    }
    byTaskTarget.set(task, byTarget);
  }
  if (nodes.length === 0) {
    throw new UsageError(
      options.limit
        ? `--limit '${options.limit}' selects no host that any task of ${pb.name} runs on`
        : `playbook ${pb.name} has no task with a host in this inventory`,
    );
  }
  const used = new Set(nodes.map((n) => n.runsOn.name));
  const hosts = inv.hosts.filter((h) => used.has(h.name));
  return { playbook: pb, taskOrder: order, nodes, hosts, emptyTasks, ...(leftOut?.size ? { leftOut } : {}) };
}
