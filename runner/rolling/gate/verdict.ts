// A gate's verdict from its checks' results, and a check's result when its probe could not be built
// or failed on some host: pure.
import type { CheckResult, GateVerdict, Seen } from './model.js';

/** Passes when every check passes; the message names what is wrong, or what was seen when all is well. */
export function gateVerdict(gate: string, results: readonly CheckResult[]): GateVerdict {
  const failing = results.filter((r) => !r.ok);
  const pass = failing.length === 0;
  const texts = (pass ? results : failing).map((r) => r.text);
  return {
    pass,
    message: pass ? `${gate} gate passed: ${texts.join('; ')}` : `${gate} gate: ${texts.join('; ')}`,
    results,
  };
}

/** A check that could not look: its probe could not be built (no pod CIDR) or could not run. */
export function cannotCheck(check: string, why: string): CheckResult {
  return { check, ok: false, text: `${check}: cannot check: ${why}` };
}

/** The first host whose probe failed, as a failing result (null: every probe answered). */
export function probeFailure<A>(check: string, seen: readonly Seen<A>[]): CheckResult | null {
  const bad = seen.find((s) => !s.ok);
  return bad && !bad.ok ? cannotCheck(check, `${bad.host}: ${bad.error}`) : null;
}
