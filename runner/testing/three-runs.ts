// A step's three runs, as a test of a step of one's own states them (docs/own-repository.md): check
// reports the change and makes none, apply makes it and the probe after it finds nothing left, and a
// second run changes nothing. The runner's cycle (probe, pure diff, apply, probe again) driven by hand
// over any Remote: a real host's (openRemote), or a test double's.
import type { Change } from '../core/change.js';
import type { AnyStep, Remote } from '../core/step.js';

export interface ThreeRunsResult {
  /** What check mode would do (never a noop: a check that finds nothing is an error). */
  check: Change;
  /** What apply did. */
  apply: Change;
  /** The second run's plan: always a noop. */
  again: Change;
}

/** A run's verdict that is not what the three runs require. */
export class ThreeRunsError extends Error {
  override name = 'ThreeRunsError';
}

/** The step's plan on `remote`: its probe (read-only) and the pure diff. */
export async function planOn(step: AnyStep, remote: Remote): Promise<{ actual: unknown; change: Change }> {
  const probe = step.probe();
  const result = await remote.run(probe.script);
  if (result.code !== 0)
    throw new ThreeRunsError(
      `${step.title}: the probe failed on ${remote.name} (exit ${result.code}): ${result.stderr}`,
    );
  const actual = probe.parse(result);
  return { actual, change: step.diff(step.desired, actual) };
}

const fieldsOf = (c: Change) => c.fields.join(', ') || c.action;

/**
 * Check (must find a change), apply (the probe after it must find none: `not converged` otherwise),
 * then a second run (must be a noop). Throws a ThreeRunsError naming the run that broke the rule.
 */
export async function threeRuns(step: AnyStep, remote: Remote): Promise<ThreeRunsResult> {
  const check = (await planOn(step, remote)).change;
  if (check.action === 'noop')
    throw new ThreeRunsError(`${step.title}: check found nothing to change on ${remote.name}: the test proves nothing`);
  const before = await planOn(step, remote);
  if (JSON.stringify(before.change) !== JSON.stringify(check))
    throw new ThreeRunsError(`${step.title}: check changed ${remote.name} (its plan is not the same afterwards)`);
  await step.apply(remote, before.change, before.actual as never, step.desired);
  const after = (await planOn(step, remote)).change;
  if (after.action !== 'noop') throw new ThreeRunsError(`${step.title}: not converged: ${fieldsOf(after)}`);
  const again = (await planOn(step, remote)).change;
  if (again.action !== 'noop')
    throw new ThreeRunsError(`${step.title}: the second run would change ${fieldsOf(again)}`);
  return { check, apply: before.change, again };
}
