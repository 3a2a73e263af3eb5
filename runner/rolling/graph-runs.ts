// The playbook's own tasks inside a rolling run: the planning check of every targeted host, and per
// node its check and its apply, each a normal graph run (compile, prebuild, schedule) narrowed to
// exactly those hosts. The rolling run never runs steps itself.
import type { AnyStep } from '../core/step.js';
import type { Host, Inventory } from '../inventory/model.js';
import type { Playbook } from '../playbook/define.js';
import { compileGraph, type TaskGraph } from '../playbook/compile.js';
import type { HostReport, Mode, RunReport } from '../report/model.js';
import { prebuildSteps, type RunEvent, runGraph } from '../run/run-graph.js';
import type { ShellConnection } from '../run/host-session.js';

export interface GraphRunsOptions {
  readonly playbook: Playbook;
  readonly inventory: Inventory;
  readonly limit?: string;
  readonly extraVars: Readonly<Record<string, unknown>>;
  readonly forks: number;
  readonly timeoutMs: number;
  connect(host: Host): Promise<ShellConnection>;
  release(hostName: string): void;
  onEvent?(e: RunEvent): void;
}

export class GraphRuns {
  #full: TaskGraph | undefined;

  constructor(private readonly o: GraphRunsOptions) {}

  /** The playbook over every targeted host, compiled once for targets() and prebuild(). */
  #graph(): TaskGraph {
    this.#full ??= compileGraph(this.o.playbook, this.o.inventory, { limit: this.o.limit });
    return this.#full;
  }

  /** The hosts the playbook's tasks target (not the hosts they are delegated to), in inventory order. */
  targets(): Host[] {
    const graph = this.#graph();
    const targeted = new Set(graph.nodes.map((n) => n.target.name));
    return graph.hosts.filter((h) => targeted.has(h.name));
  }

  /** Every step that can be built now: bad options or vars stop the run before any host is touched. */
  prebuild(): void {
    prebuildSteps(this.#graph(), this.o.inventory, this.o.extraVars);
  }

  async run(hosts: readonly string[], mode: Mode, signal?: AbortSignal): Promise<RunReport> {
    const graph = compileGraph(this.o.playbook, this.o.inventory, { limit: this.o.limit, only: new Set(hosts) });
    const steps: Map<string, AnyStep> = prebuildSteps(graph, this.o.inventory, this.o.extraVars);
    return runGraph(graph, this.o.inventory, steps, {
      mode,
      forks: this.o.forks,
      timeoutMs: this.o.timeoutMs,
      connect: (h) => this.o.connect(h),
      release: (h) => this.o.release(h),
      extraVars: this.o.extraVars,
      signal,
      onEvent: (e) => this.o.onEvent?.(e),
    });
  }
}

/** Whether a host's check found work, or what stopped it (failed, unreachable). */
export function checkOutcome(h: HostReport | undefined): { work: boolean } | { error: string } {
  if (!h) return { work: false };
  if (h.status === 'failed' || h.status === 'unreachable' || h.status === 'interrupted') {
    const step = h.steps.find((s) => s.status === h.status || s.status === 'failed') ?? h.steps.find((s) => s.error);
    return { error: `${h.status}${step ? ` (task ${step.task}: ${step.error ?? step.status})` : ''}` };
  }
  return { work: h.status === 'changed' };
}

/** What an apply did, in one line for the journal: the tasks that changed, or the one that failed. */
export function applyOutcome(h: HostReport | undefined): { ok: boolean; detail: string } {
  if (!h) return { ok: false, detail: 'no tasks ran' };
  const failedStep = h.steps.find((s) => s.status === 'failed' || s.status === 'unreachable');
  if (failedStep || h.status === 'failed' || h.status === 'unreachable' || h.status === 'interrupted')
    return {
      ok: false,
      detail: `task ${failedStep?.task ?? '?'} ${failedStep?.status ?? h.status}: ${failedStep?.error ?? h.status}`,
    };
  const changed = h.steps.filter((s) => s.status === 'changed').map((s) => s.task);
  return { ok: true, detail: changed.length ? `changed: ${changed.join(', ')}` : 'nothing to change' };
}
