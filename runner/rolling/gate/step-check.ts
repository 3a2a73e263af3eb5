// A gate check made of a step: the step's own probe, read-only, and its own pure diff against what the
// gate expects. An empty diff passes; `create` is "missing"; any other difference names its fields with
// what the node has and what it should have. The step is never applied: a gate only looks.
import type { AnyStep } from '../../core/step.js';
import type { CheckResult, GateCheck, GateTarget, Seen } from './model.js';
import { probeFailure } from './verdict.js';

const shown = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** The step's diff as a result: `HNS network l2bridge missing`, `... addressPrefix 10.0.0.0/24 (want 10.1.0.0/24)`. */
export function stepResult(check: string, step: AnyStep, actual: unknown, passText: string): CheckResult {
  const change = step.diff(step.desired, actual);
  if (change.action === 'noop') return { check, ok: true, text: passText };
  if (change.action === 'create') return { check, ok: false, text: `${step.title} missing` };
  const fields = change.fields.map(
    (f) => `${f} ${shown(change.before?.[f] ?? 'none')} (want ${shown(change.after?.[f] ?? 'none')})`,
  );
  return { check, ok: false, text: `${step.title} differs: ${fields.join(', ')}` };
}

/** A check on the node itself, by a step built for the target (throws: the check cannot look). */
export function stepCheck(
  name: string,
  build: (t: GateTarget) => AnyStep,
  passText: (t: GateTarget, step: AnyStep) => string,
): GateCheck {
  return {
    name,
    on: 'node',
    probe: (t) => build(t).probe(),
    judge(t: GateTarget, seen: readonly Seen<unknown>[]): CheckResult {
      const failed = probeFailure(name, seen);
      if (failed) return failed;
      const answer = seen[0];
      if (!answer?.ok) return { check: name, ok: false, text: `${name}: the node did not answer` };
      const step = build(t);
      return stepResult(name, step, answer.actual, passText(t, step));
    },
  };
}
