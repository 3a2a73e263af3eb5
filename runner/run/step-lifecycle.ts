// One node's life on its host: build the step, probe (batched with the host's other pending
// probes), diff, and in apply mode apply the changed fields and probe again to prove convergence.
import { NOOP, type Change } from '../core/change.js';
import { UnreachableError } from '../core/errors.js';
import { masked, redact } from '../core/secret.js';
import { callAsExec, type AnyStep, type ExecOptions, type Remote } from '../core/step.js';
import type { PsCall } from '../core/ps-call.js';
import type { Script } from '../core/quote.js';
import type { TaskNode } from '../playbook/compile.js';
import type { Mode, SkipReason, StepReport, StepStatus } from '../report/model.js';
import { reportsUnchanged } from '../core/applied.js';
import { UnknownOutput, type ContextFactory, type OutputStore } from './context.js';
import { buildUserStep } from './user-step.js';
import type { HostSession, ProbeOutcome } from './host-session.js';
import { OutputTail, secretsIn } from './output-tail.js';
import { CarriedProbe } from './carried-probe.js';
import { probeOf, shellOf } from './probe-of.js';

/** What building steps needs: contexts for step functions, and the steps built so far. */
export interface StepBuilder {
  contexts: ContextFactory;
  /** Steps already built, by node id. */
  steps: Map<string, AnyStep>;
}

export interface LifecycleEnv extends StepBuilder {
  mode: Mode;
  timeoutMs: number;
  outputs: OutputStore;
  /** Probe results taken since the host last changed, by node id. */
  prefetched: Map<string, ProbeOutcome>;
  /** The host's nodes that have not run yet, in order (for batching their probes). */
  pendingOnHost(host: string): readonly TaskNode[];
}

export class TimeoutError extends Error {}

/** Builds a node's step; `UnknownOutput` propagates (the caller decides what it means). */
export function buildStep(node: TaskNode, env: StepBuilder): AnyStep {
  const cached = env.steps.get(node.id);
  if (cached) return cached;
  const step = buildUserStep(node, env.contexts);
  env.steps.set(node.id, step);
  return step;
}

export type Batch = { node: TaskNode; step: AnyStep }[];

/** This node and every other pending node of the host whose step can be built now and probes in the same shell. */
export function probeBatch(node: TaskNode, step: AnyStep, session: HostSession, env: LifecycleEnv): Batch {
  const batch: Batch = [{ node, step }];
  for (const other of env.pendingOnHost(session.name)) {
    if (other === node || env.prefetched.has(other.id)) continue;
    try {
      const s = buildStep(other, env);
      if (shellOf(probeOf(s)) === shellOf(probeOf(step))) batch.push({ node: other, step: s });
    } catch {
      // not buildable yet (its inputs are unknown): it will be probed when its turn comes
    }
  }
  return batch;
}

/** This node's outcome; the others' successful ones are kept for their turn (a failure is this node's to report). */
function keepOthers(batch: Readonly<Batch>, outcomes: readonly ProbeOutcome[], env: LifecycleEnv): ProbeOutcome {
  batch.forEach((b, i) => {
    if (i > 0 && outcomes[i]!.ok) env.prefetched.set(b.node.id, outcomes[i]!);
  });
  return outcomes[0]!;
}

/**
 * Probes this node with the other pending nodes of its host (probeBatch), within this node's time
 * limit. Only the others' successful probes are kept: a failure (a hung probe, a dropped connection)
 * is this node's to report; the others probe again on their turn.
 */
export async function probeWithOthers(
  node: TaskNode,
  step: AnyStep,
  session: HostSession,
  env: LifecycleEnv,
  timeoutMs: number,
): Promise<ProbeOutcome> {
  const have = env.prefetched.get(node.id);
  if (have) return have;
  const batch = probeBatch(node, step, session, env);
  const outcomes = await session.probe(
    batch.map((b) => probeOf(b.step)),
    timeoutMs,
  );
  return keepOthers(batch, outcomes, env);
}

/** A command's time limit within the step's deadline (its own, if shorter); TimeoutError once past it. */
export function timeLeft(deadline: number, options?: ExecOptions): number {
  const left = deadline - Date.now();
  if (left <= 0) throw new TimeoutError('timed out');
  return Math.min(options?.timeoutMs ?? left, left);
}

function withDeadline(
  session: HostSession,
  deadline: number,
  tail: OutputTail,
  carried?: CarriedProbe<Batch[number]> | null,
): Remote {
  const limited = (options?: ExecOptions): ExecOptions => ({ ...options, timeoutMs: timeLeft(deadline, options) });
  return {
    name: session.name,
    run: async (script: Script, options?: ExecOptions) => {
      const within = limited(options);
      const r = await (carried?.run(session, script, within) ?? session.run(script, within));
      tail.add(r);
      return r;
    },
    callPowerShell: async (calls: readonly PsCall[], options?: ExecOptions) => {
      const within = limited(options);
      const results = await (carried?.call(session, calls, within) ?? session.callPowerShell(calls, within));
      for (const r of results) tail.add(callAsExec(r));
      return results;
    },
  };
}

export function stepReport(
  node: TaskNode,
  step: AnyStep | null,
  change: Change | null,
  status: StepStatus,
  startedAt: number,
  error: string | null,
): StepReport {
  const c = change ?? NOOP;
  return {
    task: node.task,
    ...(node.runsOn !== node.target ? { target: node.target.name } : {}),
    kind: step?.kind ?? null,
    title: step ? redact(step.title) : null,
    action: change ? c.action : null,
    fields: [...c.fields],
    before: c.before ? (masked(c.before) as Record<string, unknown>) : null,
    after: c.after ? (masked(c.after) as Record<string, unknown>) : null,
    ...(c.textDiff ? { textDiff: redact(c.textDiff) } : {}),
    ...(c.warnings?.length ? { warnings: [...c.warnings] } : {}),
    status,
    durationMs: Date.now() - startedAt,
    error: error === null ? null : redact(error),
  };
}

/** A step that did not run, and why: the reason's kind (typed) and its text for people. */
export function skippedReport(node: TaskNode, step: AnyStep | null, skip: SkipReason, text: string): StepReport {
  return { ...stepReport(node, step, null, 'skipped', Date.now(), text), skip };
}

export async function runLifecycle(node: TaskNode, session: HostSession, env: LifecycleEnv): Promise<StepReport> {
  const tail = new OutputTail(secretsIn(session.host.vars));
  const prepared = await prepare(node, session, env, tail);
  const report = isApply(prepared) ? await applyAlone(prepared, session, env) : prepared;
  return withOutput(report, tail);
}

/** The report with the output the step's commands printed (masked), if any. */
export function withOutput(report: StepReport, tail: OutputTail): StepReport {
  const output = tail.snapshot();
  return output ? { ...report, output } : report;
}

/** A node whose step has a change to make: what applying it, and proving it, needs. */
export interface ToApply {
  readonly node: TaskNode;
  readonly step: AnyStep;
  readonly change: Change;
  readonly actual: unknown;
  readonly started: number;
  readonly deadline: number;
  readonly tail: OutputTail;
}

export function isApply(p: StepReport | ToApply): p is ToApply {
  return 'deadline' in p;
}

/** Builds, probes (batched with the host's other pending probes) and diffs: the report when nothing is
 *  left to do (in sync, check mode, a failure), else what to apply. */
export async function prepare(
  node: TaskNode,
  session: HostSession,
  env: LifecycleEnv,
  tail: OutputTail,
): Promise<StepReport | ToApply> {
  const started = Date.now();
  let step: AnyStep | null = null;
  let change: Change | null = null;
  try {
    try {
      step = buildStep(node, env);
    } catch (e) {
      if (e instanceof UnknownOutput && env.mode === 'check')
        return stepReport(node, null, null, 'unknown', started, e.message);
      throw e;
    }
    const timeoutMs = (node.spec.timeoutSec ?? env.timeoutMs / 1000) * 1000;
    const probed = await probeWithOthers(node, step, session, env, timeoutMs);
    if (!probed.ok) throw probed.error;
    change = step.diff(step.desired, probed.actual);
    if (change.action === 'noop') {
      env.outputs.set(node, step.outputs?.(step.desired, probed.actual) ?? {});
      return stepReport(node, step, change, 'ok', started, null);
    }
    if (env.mode === 'check') return stepReport(node, step, change, 'changed', started, null);
    return { node, step, change, actual: probed.actual, started, deadline: started + timeoutMs, tail };
  } catch (e) {
    return failedReport(node, step, change, started, e as Error, env);
  }
}

/** Applies one step (its re-probe carried when it opts in) and proves convergence with a real probe. */
export async function applyAlone(p: ToApply, session: HostSession, env: LifecycleEnv): Promise<StepReport> {
  const { node, step } = p;
  try {
    env.prefetched.clear(); // the host is about to change: every earlier probe may be stale
    const carried = step.applyThenProbe ? CarriedProbe.of(step, probeBatch(node, step, session, env)) : null;
    const applied = await step.apply(
      withDeadline(session, p.deadline, p.tail, carried),
      p.change,
      p.actual,
      step.desired,
    );
    const after = carried?.outcomes
      ? keepOthers(carried.batch, carried.outcomes, env)
      : await probeWithOthers(node, step, session, env, Math.max(1000, p.deadline - Date.now()));
    return settle(p, applied, after, env);
  } catch (e) {
    return failedReport(node, step, p.change, p.started, e as Error, env);
  }
}

/** After the apply: the step's report from the probe taken after it (not converged is a failure). */
export function settle(
  p: ToApply,
  applied: Awaited<ReturnType<AnyStep['apply']>>,
  after: ProbeOutcome,
  env: LifecycleEnv,
): StepReport {
  const { node, step, change, started } = p;
  if (!after.ok) return failedReport(node, step, change, started, after.error, env);
  const rest = step.diff(step.desired, after.actual);
  if (rest.action !== 'noop' && step.converges !== false) {
    return stepReport(node, step, change, 'failed', started, `not converged: ${rest.fields.join(', ') || rest.action}`);
  }
  env.outputs.set(node, { ...(step.outputs?.(step.desired, after.actual) ?? {}), ...(applied ?? {}) });
  return stepReport(node, step, change, reportsUnchanged(applied) ? 'ok' : 'changed', started, null);
}

/** A step that failed (or whose host went away) on the way: the error as its report says it. */
export function failedReport(
  node: TaskNode,
  step: AnyStep | null,
  change: Change | null,
  started: number,
  err: Error,
  env: { timeoutMs: number },
): StepReport {
  const status: StepStatus = err instanceof UnreachableError ? 'unreachable' : 'failed';
  const msg =
    err.name === 'TimeoutError' || err instanceof TimeoutError
      ? `timed out after ${node.spec.timeoutSec ?? env.timeoutMs / 1000} s: ${err.message}`
      : err.message;
  return stepReport(node, step, change, status, started, msg);
}
