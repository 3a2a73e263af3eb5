// A step's three runs, as a test of a step of one's own states them (docs/own-repository.md): check
// reports the change and makes none, apply makes it and the probe after it finds nothing left, and a
// second run changes nothing. The runner's cycle (probe, pure diff, apply, probe again) driven by hand
// over any Remote: a real host's (openRemote), or a test double's.
import type { Change } from '../core/change.js';
import { callOn, isCallProbe, type AnyStep, type Probe, type Remote } from '../core/step.js';
import { probeOf } from '../run/probe-of.js';

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

type Probed<A> = { ok: true; actual: A | null } | { ok: false; why: string };

async function probeAlone<A>(remote: Remote, probe: Probe<A>): Promise<Probed<A>> {
  if (isCallProbe(probe)) {
    const result = await callOn(remote, probe.call);
    if (!result.ok) return { ok: false, why: `the probe failed on ${remote.name}: ${result.error}` };
    return { ok: true, actual: probe.read(result.value) };
  }
  const result = await remote.run(probe.script);
  if (result.code !== 0)
    return { ok: false, why: `the probe failed on ${remote.name} (exit ${result.code}): ${result.stderr}` };
  return { ok: true, actual: probe.parse(result) };
}

/** What `probe` finds on `remote`, in a round trip of its own; a probe that fails on the host throws, saying so. */
export async function probeOn<A>(remote: Remote, probe: Probe<A>): Promise<A | null> {
  const probed = await probeAlone(remote, probe);
  if (!probed.ok) throw new Error(probed.why);
  return probed.actual;
}

/** The step's plan on `remote`: its probe (read-only, built once per step as the runner does) and the pure diff. */
export async function planOn(step: AnyStep, remote: Remote): Promise<{ actual: unknown; change: Change }> {
  const probed = await probeAlone(remote, probeOf(step));
  if (!probed.ok) throw new ThreeRunsError(`${step.title}: ${probed.why}`);
  return { actual: probed.actual, change: step.diff(step.desired, probed.actual) };
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
