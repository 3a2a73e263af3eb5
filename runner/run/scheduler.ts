// The scheduler of one run: every node of the graph goes waiting -> ready -> running -> done, or
// waiting -> done when it is skipped (with a typed reason) or its host is unreachable. Hosts work in
// parallel (at most `forks` steps at once, p-queue); each host's own nodes run one at a time, in graph
// order, through its lane, or in apply mode all its ready nodes at once, as a group (apply-group.ts),
// which the host's nodes that wait only for some of them may follow in the same round trip (chain.ts):
// one that did is done with the group and never becomes ready.
// A failure skips what depends on it; other hosts go on. An abort (Ctrl-C) starts nothing new and lets
// running steps finish.
import PQueue from 'p-queue';
import type { AnyStep } from '../core/step.js';
import type { TaskGraph, TaskNode } from '../playbook/compile.js';
import {
  BENIGN_SKIPS,
  hostStatus,
  type HostReport,
  type Mode,
  type RunReport,
  type SkipReason,
  type StepReport,
} from '../report/model.js';
import { type ContextFactory, type OutputStore, UnknownOutput } from './context.js';
import { HostSession, type Connect, type ProbeOutcome } from './host-session.js';
import { runGroup, type GroupReports } from './apply-group.js';
import { buildStep, runLifecycle, skippedReport, stepReport, type LifecycleEnv } from './step-lifecycle.js';

export type RunEvent =
  | { type: 'run-start'; playbook: string; mode: Mode; hosts: readonly string[]; inventory?: string }
  | { type: 'host-start'; host: string }
  | { type: 'step-start'; node: TaskNode }
  | { type: 'step-done'; node: TaskNode; report: StepReport }
  | { type: 'host-done'; host: string; report: HostReport }
  | { type: 'run-done'; report: RunReport }
  /** -vv (what is sent) and -vvv (the connection) detail, already masked. */
  | { type: 'trace'; level: 2 | 3; host: string; text: string };

export interface SchedulerOptions {
  mode: Mode;
  forks: number;
  /** Default per-step time limit. */
  timeoutMs: number;
  connect: Connect;
  /** A host whose nodes are all done: its connection is not needed again in this run (memory at scale). */
  release?: (host: string) => void;
  onEvent?: (event: RunEvent) => void;
  /** --step: asked before a task's first node starts; false leaves the task out (runner/cli/step-prompt.ts). */
  confirm?: (task: string) => Promise<boolean>;
}

/** A skip that is not a failure: its dependents still run. */
export function isBenignSkip(r: StepReport): boolean {
  return r.status === 'skipped' && r.skip !== undefined && BENIGN_SKIPS.has(r.skip);
}

interface Skip {
  skip: SkipReason;
  text: string;
}
const INTERRUPTED: Skip = { skip: 'interrupted', text: 'interrupted' };

/** One host's nodes: the session they share, the ones ready to run in graph order, whether one runs now. */
class HostLane {
  readonly ready: TaskNode[] = [];
  /** Nodes not done yet, in graph order (their probes are batched with the running one's). */
  pending: TaskNode[];
  busy = false;
  /** Whether host-start was sent (before its first step starts). */
  announced = false;
  constructor(
    readonly session: HostSession,
    readonly env: LifecycleEnv,
    readonly nodes: TaskNode[],
  ) {
    this.pending = [...nodes];
  }
  get started(): boolean {
    return this.pending.length < this.nodes.length;
  }
  enqueue(node: TaskNode): void {
    // Kept sorted: a lane holds a handful of ready nodes at most, so insertion is cheap.
    let i = this.ready.length;
    while (i > 0 && this.ready[i - 1]!.order > node.order) i--;
    this.ready.splice(i, 0, node);
  }
}

export class Scheduler {
  readonly results = new Map<string, StepReport>();
  #interrupted = false;
  readonly #queue: PQueue;
  readonly #lanes = new Map<string, HostLane>();
  /** Lanes with ready nodes and nothing running: what dispatch looks at (never every host). */
  readonly #idleWithWork = new Set<HostLane>();
  /** Per node: how many of its dependencies are not done yet. */
  readonly #unfinishedDeps = new Map<string, number>();
  readonly #dependents = new Map<string, TaskNode[]>();
  /** Nodes that ran after their dependencies in their group's round trip, until they are finished. */
  readonly #chained = new Set<TaskNode>();
  #done = 0;
  #allDone!: () => void;
  readonly #outputs: OutputStore;

  constructor(
    private readonly graph: TaskGraph,
    private readonly steps: Map<string, AnyStep>,
    private readonly options: SchedulerOptions,
    shared: { contexts: ContextFactory; outputs: OutputStore },
  ) {
    this.#queue = new PQueue({ concurrency: Math.max(1, options.forks) });
    this.#outputs = shared.outputs;
    const byHost = new Map<string, TaskNode[]>();
    for (const node of graph.nodes) {
      this.#unfinishedDeps.set(node.id, node.deps.length);
      for (const d of node.deps) {
        if (!this.#dependents.has(d.id)) this.#dependents.set(d.id, []);
        this.#dependents.get(d.id)!.push(node);
      }
      const list = byHost.get(node.runsOn.name) ?? [];
      if (list.length === 0) byHost.set(node.runsOn.name, list);
      list.push(node);
    }
    for (const [host, nodes] of byHost) {
      const lane: HostLane = new HostLane(
        new HostSession(nodes[0]!.runsOn, options.connect, (text) =>
          options.onEvent?.({ type: 'trace', level: 2, host, text }),
        ),
        {
          mode: options.mode,
          timeoutMs: options.timeoutMs,
          ...shared,
          steps,
          prefetched: new Map<string, ProbeOutcome>(),
          pendingOnHost: () => lane.pending,
        },
        nodes,
      );
      this.#lanes.set(host, lane);
    }
  }

  get interrupted(): boolean {
    return this.#interrupted;
  }

  /** Runs every node; resolves when each has a report. */
  async run(signal?: AbortSignal): Promise<void> {
    const onAbort = () => this.#abort();
    if (signal?.aborted) this.#interrupted = true;
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (this.graph.nodes.length === 0) return;
      const allDone = new Promise<void>((r) => {
        this.#allDone = r;
      });
      for (const node of this.graph.nodes) if (node.deps.length === 0) this.#becomeReady(node);
      this.#dispatch();
      await allDone;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** A host's report: its nodes' results in graph order. */
  hostReport(host: string): HostReport {
    const steps = (this.#lanes.get(host)?.nodes ?? [])
      .filter((n) => this.results.has(n.id))
      .map((n) => this.results.get(n.id)!);
    return { status: hostStatus(steps), steps };
  }

  #finish(node: TaskNode, report: StepReport): void {
    this.results.set(node.id, report);
    const lane = this.#lanes.get(node.runsOn.name)!;
    lane.pending = lane.pending.filter((n) => n !== node);
    this.options.onEvent?.({ type: 'step-done', node, report });
    if (lane.pending.length === 0) {
      lane.session.detach();
      this.options.release?.(lane.session.name);
      this.options.onEvent?.({
        type: 'host-done',
        host: lane.session.name,
        report: this.hostReport(lane.session.name),
      });
    }
    this.#done++;
    for (const next of this.#dependents.get(node.id) ?? []) {
      const left = this.#unfinishedDeps.get(next.id)! - 1;
      this.#unfinishedDeps.set(next.id, left);
      if (left === 0) this.#becomeReady(next);
    }
    if (this.#done === this.graph.nodes.length) this.#allDone();
  }

  /** Why a node must not run, or null. */
  #skipReason(node: TaskNode): Skip | null {
    if (this.#interrupted) return INTERRUPTED;
    const leftOut = this.graph.leftOut?.get(node.task);
    if (leftOut) return { skip: 'not-selected', text: leftOut };
    if (node.unmet.length)
      return {
        skip: 'unmet',
        text: `needs ${node.unmet.join(', ')}, which runs on no selected host (widen --limit or use delegateTo)`,
      };
    for (const d of node.deps) {
      const r = this.results.get(d.id)!;
      if (r.status === 'failed' || r.status === 'unreachable') {
        return {
          skip: 'dependency',
          text: `needs ${d.task} on ${d.runsOn.name}, which ${r.status === 'failed' ? 'failed' : 'was unreachable'}`,
        };
      }
      if (r.status === 'skipped' && !isBenignSkip(r))
        return { skip: 'dependency', text: `needs ${d.task} on ${d.runsOn.name}, which was skipped` };
    }
    if (node.triggers.length === 0) return null;
    const fired = [
      ...new Set(node.triggers.filter((t) => this.results.get(t.id)!.status === 'changed').map((t) => t.task)),
    ];
    if (fired.length === 0)
      return {
        skip: 'not-triggered',
        text: `not triggered: ${[...new Set(node.triggers.map((t) => t.task))].join(', ')} did not change`,
      };
    // A triggered task is a consequence of a change, not drift: check mode names it, runs nothing.
    if (this.options.mode === 'check')
      return {
        skip: 'would-run',
        text: `would run: triggered by ${fired.join(', ')} (check mode does not run triggered tasks)`,
      };
    return null;
  }

  #becomeReady(node: TaskNode): void {
    if (this.results.has(node.id) || this.#chained.has(node)) return; // it rode with its dependencies' group
    const lane = this.#lanes.get(node.runsOn.name)!;
    const unreachable = lane.session.unreachable;
    if (unreachable) {
      this.#finish(
        node,
        stepReport(node, this.steps.get(node.id) ?? null, null, 'unreachable', Date.now(), unreachable.message),
      );
      return;
    }
    const reason = this.#skipReason(node);
    if (reason !== null) {
      if (reason.skip === 'not-selected') this.#outputs.leaveOut(node.task, `${node.task} was ${reason.text}`);
      this.#finish(node, skippedReport(node, this.steps.get(node.id) ?? null, reason.skip, reason.text));
      return;
    }
    lane.enqueue(node);
    if (!lane.busy) this.#idleWithWork.add(lane);
  }

  /** Whether a lane's ready nodes may run as one group (runGroup): in apply mode, when no node may
   *  be left out on the way (an output left out, --step), since each would be asked about alone. */
  #groups(lane: HostLane): boolean {
    return this.#mayGroup() && lane.ready.length > 1;
  }

  #mayGroup(): boolean {
    return this.options.mode === 'apply' && !this.graph.leftOut && !this.options.confirm;
  }

  /** Starts the next node (or group of ready nodes) of every idle lane that has one; call it after
   *  nodes become ready, so that a lane's ready nodes are seen together. */
  #dispatch(): void {
    while (this.#idleWithWork.size > 0) {
      const lane: HostLane = this.#idleWithWork.values().next().value!;
      this.#idleWithWork.delete(lane);
      const nodes = this.#groups(lane) ? lane.ready.splice(0) : lane.ready.splice(0, 1);
      if (nodes.length === 0) continue;
      const unreachable = lane.session.unreachable;
      if (this.#interrupted || unreachable) {
        if (lane.ready.length > 0) this.#idleWithWork.add(lane);
        for (const node of nodes)
          this.#finish(
            node,
            this.#interrupted
              ? skippedReport(node, null, INTERRUPTED.skip, INTERRUPTED.text)
              : stepReport(node, null, null, 'unreachable', Date.now(), unreachable!.message),
          );
        continue;
      }
      lane.busy = true;
      // Hosts that have begun go first, so hosts finish rather than all crawl along together.
      void this.#queue
        .add(() => this.#run(nodes, lane), { priority: lane.started ? 1 : 0 })
        .then((done) => {
          const { reports, chained } = done!;
          lane.busy = false;
          for (const node of chained.keys()) this.#chained.add(node);
          nodes.forEach((node, i) => {
            this.#finish(node, reports[i]!);
          });
          // They ran in the group's round trip, together: all started before any is done.
          for (const node of chained.keys()) this.options.onEvent?.({ type: 'step-start', node });
          for (const [node, report] of chained) {
            this.#finish(node, report);
            this.#chained.delete(node);
          }
          if (lane.ready.length > 0) this.#idleWithWork.add(lane);
          this.#dispatch();
        });
    }
  }

  async #run(nodes: readonly TaskNode[], lane: HostLane): Promise<GroupReports> {
    const none = new Map<TaskNode, StepReport>();
    if (nodes.length === 1) {
      const notRun = await this.#leaveOut(nodes[0]!, lane);
      if (notRun) return { reports: [notRun], chained: none };
    }
    if (!lane.announced) this.options.onEvent?.({ type: 'host-start', host: lane.session.name });
    lane.announced = true;
    for (const node of nodes) this.options.onEvent?.({ type: 'step-start', node });
    // A single node runs as a group too when others may follow it (chain.ts).
    const followers = this.#mayGroup() ? this.#mayFollow(nodes, lane) : [];
    return nodes.length > 1 || followers.length > 0
      ? runGroup(nodes, lane.session, lane.env, followers)
      : { reports: [await runLifecycle(nodes[0]!, lane.session, lane.env)], chained: none };
  }

  /** The lane's nodes that wait for some of `nodes` and for nothing else that is not done. */
  #mayFollow(nodes: readonly TaskNode[], lane: HostLane): TaskNode[] {
    if (this.#interrupted) return [];
    const group = new Set(nodes);
    return lane.pending.filter(
      (n) =>
        !group.has(n) &&
        n.triggers.length === 0 &&
        n.unmet.length === 0 &&
        n.deps.some((d) => group.has(d)) &&
        n.deps.every((d) => group.has(d) || this.#doneWell(d)),
    );
  }

  /** Done, and not in a way that skips what needs it. */
  #doneWell(node: TaskNode): boolean {
    const r = this.results.get(node.id);
    return r !== undefined && (r.status === 'ok' || r.status === 'changed' || isBenignSkip(r));
  }

  /** A node that reads an output of a task left out is not run (unknown in check mode), and --step may
   *  leave its task out; either way its own readers learn why. Null: it runs. */
  async #leaveOut(node: TaskNode, lane: HostLane): Promise<StepReport | null> {
    if (!this.graph.leftOut && !this.options.confirm) return null;
    try {
      buildStep(node, lane.env);
    } catch (e) {
      if (!(e instanceof UnknownOutput) || e.notRun === undefined) return null; // runLifecycle reports it
      this.#outputs.leaveOut(node.task, e.notRun);
      return this.options.mode === 'check'
        ? stepReport(node, null, null, 'unknown', Date.now(), e.message)
        : skippedReport(node, null, 'input-not-run', `not applied: its input is ${e.message}`);
    }
    const perform = !this.options.confirm || (await this.options.confirm(node.task));
    if (this.#interrupted) return skippedReport(node, null, INTERRUPTED.skip, INTERRUPTED.text);
    if (perform) return null;
    this.#outputs.leaveOut(node.task, `${node.task} was left out at --step`);
    return skippedReport(node, this.steps.get(node.id) ?? null, 'not-selected', 'left out at --step');
  }

  /** Ctrl-C: every ready node is reported interrupted; running ones finish; nothing new starts. */
  #abort(): void {
    this.#interrupted = true;
    for (const lane of this.#lanes.values()) {
      while (lane.ready.length > 0) {
        const node = lane.ready.shift()!;
        this.#finish(node, skippedReport(node, null, INTERRUPTED.skip, INTERRUPTED.text));
      }
    }
  }
}
