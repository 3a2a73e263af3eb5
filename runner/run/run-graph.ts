// Runs a compiled graph: hosts in parallel (at most `forks` steps at once, p-queue), each host's
// own steps one at a time in graph order. A failure skips what depends on it, with the reason;
// other hosts go on. An abort (Ctrl-C) starts nothing new and lets running steps finish.
import PQueue from 'p-queue';
import type { AnyStep } from '../core/step.js';
import type { Inventory } from '../inventory/model.js';
import type { TaskGraph, TaskNode } from '../playbook/compile.js';
import { hostStatus, summarize, type HostReport, type Mode, type RunReport, type StepReport } from '../report/model.js';
import { ContextFactory, OutputStore, UnknownOutput } from './context.js';
import { HostSession, type Connect, type ProbeOutcome } from './host-session.js';
import { buildStep, runLifecycle, stepReport, type LifecycleEnv } from './step-lifecycle.js';

const NOT_TRIGGERED = 'not triggered';
const WOULD_RUN = 'would run';

/** A skip that is not a failure: its dependents still run. */
export function isBenignSkip(r: StepReport): boolean {
  return r.status === 'skipped' && !!r.error && (r.error.startsWith(NOT_TRIGGERED) || r.error.startsWith(WOULD_RUN));
}

export type RunEvent =
  | { type: 'step-start'; node: TaskNode }
  | { type: 'step-done'; node: TaskNode; report: StepReport }
  | { type: 'host-done'; host: string; report: HostReport };

export interface RunOptions {
  mode: Mode;
  forks: number;
  /** Default per-step time limit. */
  timeoutMs: number;
  connect: Connect;
  extraVars?: Readonly<Record<string, unknown>>;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
}

/** Builds every step that does not need outputs, so bad options fail before any host is touched. */
export function prebuildSteps(graph: TaskGraph, inventory: Inventory, extraVars: Readonly<Record<string, unknown>> = {}): Map<string, AnyStep> {
  const steps = new Map<string, AnyStep>();
  const env = { contexts: new ContextFactory(inventory, new OutputStore(), extraVars), steps };
  for (const node of graph.nodes) {
    try {
      buildStep(node, env);
    } catch (e) {
      if (e instanceof UnknownOutput) continue;
      const err = e as Error;
      err.message = `task '${node.task}' for host ${node.target.name}: ${err.message}`;
      throw err;
    }
  }
  return steps;
}

export async function runGraph(graph: TaskGraph, inventory: Inventory, steps: Map<string, AnyStep>, options: RunOptions): Promise<RunReport> {
  const startedAt = new Date();
  const outputs = new OutputStore();
  const contexts = new ContextFactory(inventory, outputs, options.extraVars ?? {});
  const queue = new PQueue({ concurrency: Math.max(1, options.forks) });
  const results = new Map<string, StepReport>();
  const dependents = new Map<string, TaskNode[]>();
  const waiting = new Map<string, number>();
  const ready = new Map<string, TaskNode[]>();
  const pending = new Map<string, TaskNode[]>();
  const busy = new Set<string>();
  const sessions = new Map<string, HostSession>();
  const envs = new Map<string, LifecycleEnv>();
  const totalOnHost = new Map<string, number>();
  let finished = 0;
  let interrupted = false;
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => { resolveDone = r; });

  for (const node of graph.nodes) {
    waiting.set(node.id, node.deps.length);
    for (const d of node.deps) {
      if (!dependents.has(d.id)) dependents.set(d.id, []);
      dependents.get(d.id)!.push(node);
    }
    const host = node.runsOn.name;
    if (!pending.has(host)) pending.set(host, []);
    pending.get(host)!.push(node);
    totalOnHost.set(host, (totalOnHost.get(host) ?? 0) + 1);
    if (!sessions.has(host)) {
      sessions.set(host, new HostSession(node.runsOn, options.connect));
      envs.set(host, {
        mode: options.mode, timeoutMs: options.timeoutMs, contexts, outputs, steps,
        prefetched: new Map<string, ProbeOutcome>(),
        pendingOnHost: (h) => pending.get(h) ?? [],
      });
    }
  }

  const hostReport = (host: string): HostReport => {
    const stepsOf = graph.nodes.filter((n) => n.runsOn.name === host && results.has(n.id)).map((n) => results.get(n.id)!);
    return { status: hostStatus(stepsOf), steps: stepsOf };
  };

  const finish = (node: TaskNode, report: StepReport) => {
    results.set(node.id, report);
    const host = node.runsOn.name;
    pending.set(host, pending.get(host)!.filter((n) => n !== node));
    options.onEvent?.({ type: 'step-done', node, report });
    if (pending.get(host)!.length === 0) options.onEvent?.({ type: 'host-done', host, report: hostReport(host) });
    finished++;
    for (const next of dependents.get(node.id) ?? []) {
      const left = waiting.get(next.id)! - 1;
      waiting.set(next.id, left);
      if (left === 0) becomeReady(next);
    }
    if (finished === graph.nodes.length) resolveDone();
  };

  /** Why a node must not run, or null. */
  const skipReason = (node: TaskNode): string | null => {
    if (interrupted) return 'interrupted';
    if (node.unmet.length) return `needs ${node.unmet.join(', ')}, which runs on no selected host (widen --limit or use delegateTo)`;
    for (const d of node.deps) {
      const r = results.get(d.id)!;
      if (r.status === 'failed' || r.status === 'unreachable') return `needs ${d.task} on ${d.runsOn.name}, which ${r.status === 'failed' ? 'failed' : 'was unreachable'}`;
      if (r.status === 'skipped' && !isBenignSkip(r)) return `needs ${d.task} on ${d.runsOn.name}, which was skipped`;
    }
    if (node.triggers.length) {
      const fired = [...new Set(node.triggers.filter((t) => results.get(t.id)!.status === 'changed').map((t) => t.task))];
      if (fired.length === 0) return `${NOT_TRIGGERED}: ${[...new Set(node.triggers.map((t) => t.task))].join(', ')} did not change`;
      // A triggered task is a consequence of a change, not drift: check mode names it, runs nothing.
      if (options.mode === 'check') return `${WOULD_RUN}: triggered by ${fired.join(', ')} (check mode does not run triggered tasks)`;
    }
    return null;
  };

  const becomeReady = (node: TaskNode) => {
    const unreachable = sessions.get(node.runsOn.name)!.unreachable;
    if (unreachable) {
      finish(node, stepReport(node, steps.get(node.id) ?? null, null, 'unreachable', Date.now(), unreachable.message));
      return;
    }
    const reason = skipReason(node);
    if (reason !== null) {
      finish(node, stepReport(node, steps.get(node.id) ?? null, null, 'skipped', Date.now(), reason));
      return;
    }
    const host = node.runsOn.name;
    const list = ready.get(host) ?? [];
    list.push(node);
    list.sort((a, b) => a.order - b.order);
    ready.set(host, list);
    dispatch();
  };

  const dispatch = () => {
    for (const [host, list] of ready) {
      if (busy.has(host) || list.length === 0) continue;
      const node = list.shift()!;
      const session = sessions.get(host)!;
      if (interrupted) {
        finish(node, stepReport(node, null, null, 'skipped', Date.now(), 'interrupted'));
        continue;
      }
      if (session.unreachable) {
        finish(node, stepReport(node, null, null, 'unreachable', Date.now(), session.unreachable.message));
        continue;
      }
      busy.add(host);
      // Hosts that have begun go first, so hosts finish rather than all crawl along together.
      const started = pending.get(host)!.length < totalOnHost.get(host)!;
      void queue.add(async () => {
        options.onEvent?.({ type: 'step-start', node });
        return runLifecycle(node, session, envs.get(host)!);
      }, { priority: started ? 1 : 0 }).then((report) => {
        busy.delete(host);
        finish(node, report!);
        dispatch();
      });
    }
  };

  const onAbort = () => {
    interrupted = true;
    for (const [, list] of ready) {
      while (list.length) {
        const node = list.shift()!;
        finish(node, stepReport(node, null, null, 'skipped', Date.now(), 'interrupted'));
      }
    }
  };
  if (options.signal?.aborted) interrupted = true;
  options.signal?.addEventListener('abort', onAbort, { once: true });

  for (const node of graph.nodes) if (node.deps.length === 0) becomeReady(node);
  if (graph.nodes.length > 0) await done;
  options.signal?.removeEventListener('abort', onAbort);

  const hosts: Record<string, HostReport> = {};
  for (const h of graph.hosts) hosts[h.name] = hostReport(h.name);
  return {
    playbook: graph.playbook.name,
    mode: options.mode,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    interrupted,
    hosts,
    summary: summarize(hosts),
  };
}
