// The runner's cycle for one Windows step, driven by hand against a Remote that records the names of
// the calls it ran (SimulatedWindowsRemote, lab/windows/powershell/call.ts): plan (probe and diff)
// and threeRuns (check, apply, converge, noop).
import type { Change } from '../../../runner/core/change.js';
import type { AnyStep, Remote, Step } from '../../../runner/core/step.js';
import { probeOn } from '../../../runner/testing/three-runs.js';

/** A Remote that keeps the calls it ran, in order. */
export interface RecordingRemote extends Remote {
  readonly calls: readonly { fn: string }[];
  namesSince(from: number): string[];
}

const READ_ONLY = /^(Get|Test)-/;

export async function plan<A>(remote: Remote, step: Step<any, A, any>): Promise<{ actual: A | null; change: Change }> {
  const actual = await probeOn(remote, step.probe());
  return { actual, change: step.diff(step.desired, actual) };
}

/**
 * The runner's cycle three times: check mode reports the change and changes nothing; apply makes
 * it and the probe after it shows convergence; the next run is a noop that calls nothing but
 * probes. Returns the first change and the outputs as the runner would record them.
 */
export async function threeRuns(
  node: RecordingRemote,
  step: AnyStep,
): Promise<{ first: Change; applied: Change; outputs: Record<string, unknown>; applyCalls: string[] }> {
  const start = node.calls.length;
  const first = (await plan(node, step)).change;
  if (first.action === 'noop') throw new Error('check mode found nothing to change');
  const writes = node.namesSince(start).filter((n) => !READ_ONLY.test(n));
  if (writes.length) throw new Error(`check mode called ${writes.join(', ')}`);

  const second = await plan(node, step);
  const mark = node.calls.length;
  const applied = (await step.apply(node, second.change, second.actual, step.desired)) ?? {};
  const applyCalls = node.namesSince(mark);
  const after = await plan(node, step);
  if (after.change.action !== 'noop')
    throw new Error(`not converged: ${after.change.fields.join(', ')} (${JSON.stringify(after.change)})`);
  const outputs = { ...(step.outputs?.(step.desired, after.actual) ?? {}), ...applied };

  const third = node.calls.length;
  const again = await plan(node, step);
  if (again.change.action !== 'noop') throw new Error(`the third run is not a noop: ${JSON.stringify(again.change)}`);
  const more = node.namesSince(third).filter((n) => !READ_ONLY.test(n));
  if (more.length) throw new Error(`the third run called ${more.join(', ')}`);
  return { first, applied: second.change, outputs, applyCalls };
}
