// Task contexts and the outputs store: how a step function sees its host, the inventory and the
// outputs of the tasks it needs. Reading an output that is not known yet throws UnknownOutput,
// which the runner reports as `unknown (needs X)` in check mode: never a false ok.
import type { Host, Inventory } from '../inventory/model.js';
import { holdsEnvRef, resolveVar } from '../inventory/secrets.js';
import type { HostView, TaskContext } from '../playbook/define.js';
import type { TaskNode } from '../playbook/compile.js';

export class UnknownOutput extends Error {
  constructor(
    readonly task: string,
    readonly host: string,
    /** Why it will never be known in this run (`docker was left out by --tags`), if so. */
    readonly notRun?: string,
  ) {
    super(notRun ? `unknown (not run: ${notRun})` : `unknown (needs ${task} on ${host})`);
    this.name = 'UnknownOutput';
  }
}

export class OutputStore {
  readonly #byTaskTarget = new Map<string, object>();
  /** Tasks this run does not perform (--tags, --step, or an input that was left out), with why. */
  readonly #notRun = new Map<string, string>();
  /** A task that will not run: its readers get UnknownOutput naming why, never a made-up value. */
  leaveOut(task: string, why: string): void {
    if (!this.#notRun.has(task)) this.#notRun.set(task, why);
  }
  whyNotRun(task: string): string | undefined {
    return this.#notRun.get(task);
  }
  set(node: TaskNode, outputs: object): void {
    const key = `${node.task}@${node.target.name}`;
    if (!this.#byTaskTarget.has(key)) this.#byTaskTarget.set(key, outputs);
  }
  get(task: string, target: string): object | undefined {
    return this.#byTaskTarget.get(`${task}@${target}`);
  }
}

/**
 * The host's variables as step functions see them: extra vars win, and a variable that comes from
 * the environment (`{{ lookup('env', ...) }}`) is a Secret, resolved only when read, so a secret
 * one host needs never has to be set for a run that does not use it.
 */
function stepVars(host: Host, extraVars: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const vars: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(host.vars)) {
    if (Object.hasOwn(extraVars, name)) continue;
    if (holdsEnvRef(value)) {
      let cached: unknown;
      Object.defineProperty(vars, name, { enumerable: true, get: () => (cached ??= resolveVar(host, name)) });
    } else vars[name] = value;
  }
  return Object.freeze(Object.assign(vars, extraVars));
}

export function hostView(host: Host, extraVars: Readonly<Record<string, unknown>>): HostView {
  return Object.freeze({
    name: host.name,
    vars: stepVars(host, extraVars),
    groups: host.groups,
    os: host.connection.os,
  });
}

export class ContextFactory {
  readonly #views = new Map<string, HostView>();
  readonly #all: HostView[];

  constructor(
    private readonly inventory: Inventory,
    private readonly outputs: OutputStore,
    extraVars: Readonly<Record<string, unknown>>,
  ) {
    this.#all = inventory.hosts.map((h) => {
      const v = hostView(h, extraVars);
      this.#views.set(h.name, v);
      return v;
    });
  }

  view(name: string): HostView {
    return this.#views.get(name)!;
  }

  for(node: TaskNode): TaskContext {
    const allowed = new Set([...(node.spec.needs ?? []), ...(node.spec.triggeredBy ?? [])]);
    const output = (task: string, host: string): object => {
      if (!allowed.has(task))
        throw new Error(`task ${node.task} reads the output of '${task}' but does not list it in needs`);
      const out = this.outputs.get(task, host);
      if (!out) throw new UnknownOutput(task, host, this.outputs.whyNotRun(task));
      return out;
    };
    return {
      host: this.view(node.target.name),
      runsOn: this.view(node.runsOn.name),
      inventory: this.#all,
      group: (name) => {
        const g = this.inventory.groups.get(name);
        if (!g) throw new Error(`task ${node.task}: no group '${name}' in the inventory`);
        return g.hosts.map((h) => this.view(h));
      },
      output: <O extends object>(task: string, host = node.target.name): O => output(task, host) as O,
      optionalOutput: <O extends object>(task: string, host = node.target.name): O | undefined =>
        // Absent: the task has no node for that host (an optional task whose hosts the inventory lacks).
        node.deps.some((d) => d.task === task && d.target.name === host) ? (output(task, host) as O) : undefined,
    };
  }
}
