// A dependent chained onto its dependencies' round trip: when a host's ready steps are applied together
// (apply-group.ts), a step that waits only for some of them can ride in the same round trip, after
// them, instead of in a round trip of its own once they are done. Its plan is made from the probe
// taken before them, so on the host its apply is guarded (apply-then-probe.ts): it runs only if its
// probe, taken again after its dependencies' applies, prints exactly what that plan was made from, and
// each dependency's apply exited 0. Otherwise nothing of it runs, and it takes its turn as before, from
// the probe the round trip carried. Convergence is still proven by that probe, and a dependency that
// then turns out not converged is reported failed as always (its apply had exited 0).
//
// Only where nothing can come between: the dependencies are in the round trip as one quick script
// each (one-quick-script.ts: not a command, during which Ctrl-C must keep its dependents from
// starting) or were already in sync; the dependent opts in to a carried probe on the run's time
// limit, reads no input, and its plan's probe output is at most GUARD_MAX bytes.
import { isOneQuickScript } from '../core/one-quick-script.js';
import type { TaskNode } from '../playbook/compile.js';
import type { StepReport } from '../report/model.js';
import { channelOf } from './carried-probe.js';
import type { ProbeOutcome } from './host-session.js';
import { OutputTail, secretsIn } from './output-tail.js';
import { buildStep, type LifecycleEnv, type ToApply } from './step-lifecycle.js';

/** A chained step's apply did not run in the round trip: it takes its turn. */
export class NotChained extends Error {
  constructor() {
    super('not run after its dependencies in their round trip');
    this.name = 'NotChained';
  }
}

/** The most probe output a guard carries to the host to compare. */
export const GUARD_MAX = 16 * 1024;

/** A dependent applied after `shared` in their round trip, if its guard holds. */
export interface Chained extends ToApply {
  /** Indices in `shared` of its dependencies applied in the round trip. */
  readonly after: readonly number[];
  /** Its probe's output and status when its plan was made. */
  readonly seen: NonNullable<Extract<ProbeOutcome, { ok: true }>['seen']>;
}

/**
 * The candidates that can ride after `shared` (all sh): each needs only nodes of the `group` (applied
 * in `shared`, or in sync per `reports`) or nodes already done; a changed plan from the probe the
 * group's own probe batch took.
 */
export function chainOnto(
  candidates: readonly TaskNode[],
  group: readonly TaskNode[],
  shared: readonly ToApply[],
  reports: ReadonlyMap<TaskNode, StepReport>,
  env: LifecycleEnv,
  hostVars: Readonly<Record<string, unknown>>,
): Chained[] {
  const index = new Map(shared.map((p, i) => [p.node, i]));
  const inGroup = new Set(group);
  const chained: Chained[] = [];
  for (const node of candidates) {
    const after: number[] = [];
    const ready = node.deps.every((d) => {
      if (!inGroup.has(d)) return true; // done before the group (the scheduler's word)
      const i = index.get(d);
      if (i !== undefined) return isOneQuickScript(shared[i]!.step) && after.push(i) > 0;
      return reports.get(d)?.status === 'ok';
    });
    const probed = env.prefetched.get(node.id);
    if (!ready || after.length === 0 || !probed?.ok || !probed.seen || node.spec.timeoutSec !== undefined) continue;
    if (probed.seen.stdout.length > GUARD_MAX) continue;
    let step: ToApply['step'];
    try {
      step = buildStep(node, env);
    } catch {
      continue; // it reads an output of a dependency: it must wait for it
    }
    if (step.applyThenProbe !== true || channelOf(step) !== 'sh') continue;
    const change = step.diff(step.desired, probed.actual);
    if (change.action === 'noop') continue; // in sync now: its turn costs no round trip (the carried probe)
    const started = Date.now();
    const deadline = started + env.timeoutMs;
    const tail = new OutputTail(secretsIn(hostVars));
    chained.push({ node, step, change, actual: probed.actual, started, deadline, tail, after, seen: probed.seen });
  }
  return chained;
}
