// `serial` (how many hosts a batch takes) and `maxFail` (how many failures the run tolerates): their
// values as a playbook or the command line gives them, and the numbers they come to. Pure.
import type { FailBudgetSpec, SerialStep } from './model.js';

/**
 * A rolling option with a wrong value. `field` is the flag (`--serial`) or the playbook path
 * (`rolling.serial`) so that the CLI can tell a usage mistake (64) from a playbook one (65); the
 * message starts with where the value came from.
 */
export class RollingOptionError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'RollingOptionError';
  }
}

const PERCENT = /^(\d+)(?:\.(\d+))?%$/;

/**
 * floor(pct% of n), exactly: '12.5%' is 125/1000. Ansible computes `int(pct / 100.0 * n)` in floating
 * point, which for a few values lands just under the whole number ('29%' of 100 is 28 there); the
 * intent, rounding down, is what we keep, without that artefact.
 */
function percentOf(pct: `${number}%`, n: number): number {
  const m = PERCENT.exec(pct);
  if (!m) throw new RangeError(`not a percentage: ${pct}`);
  const frac = m[2] ?? '';
  const num = Number(m[1] + frac) * n;
  const den = 100 * 10 ** frac.length;
  return (num - (num % den)) / den;
}

/**
 * The hosts one serial step takes out of `total`: a count as is, a percentage rounded down but at
 * least 1 (Ansible's pct_to_int).
 */
export function stepSize(step: SerialStep, total: number): number {
  return typeof step === 'number' ? step : Math.max(1, percentOf(step, total));
}

/**
 * The sizes of the successive batches covering `total` hosts. As Ansible's serial: the steps in
 * order, the last one repeating until every host is placed, a percentage taken of the whole
 * `total` (not of the hosts left) and rounded down with a minimum of 1, the last batch taking what
 * is left. We keep Ansible's rounding so that an Ansible user gets the batches they expect, and
 * rounding down errs towards smaller batches, the safe side in a rollout. The one difference: our
 * `total` is the hosts that need work, not every targeted host; a node already at the revision is
 * never in a batch, so it neither takes a batch's place nor makes the percentages bigger.
 */
export function batchSizes(steps: readonly SerialStep[], total: number): number[] {
  if (steps.length === 0) throw new RangeError('batchSizes: no serial steps');
  const sizes: number[] = [];
  for (let left = total, k = 0; left > 0; k++) {
    const size = Math.min(stepSize(steps[Math.min(k, steps.length - 1)]!, total), left);
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/**
 * How many failed hosts the run tolerates: it stops (before its next batch) at one more. A percentage
 * p of `targeted` gives floor(p% of targeted): Ansible's max_fail_percentage aborts when
 * failed / total > p%, i.e. when failed > p% of total, i.e. (failed being whole) when failed exceeds
 * floor(p% of total), the same threshold. Ansible applies it per batch; ours is one budget for the
 * whole run, so a percentage is of every targeted host.
 */
export function allowedFailures(spec: FailBudgetSpec, targeted: number): number {
  return typeof spec === 'number' ? spec : percentOf(spec, targeted);
}

/** A value as an error quotes it: strings in double quotes, numbers, lists and the rest as JSON. */
export const shown = (value: unknown): string =>
  typeof value === 'number' ? String(value) : value === undefined ? 'nothing' : String(JSON.stringify(value));

/**
 * A count (a whole number, or its digits as the command line gives them) or a well-formed
 * percentage string, with its number; null for anything else. Strings are trimmed.
 */
function countOrPercent(value: unknown): { count: number } | { pct: `${number}%`; p: number } | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? { count: value } : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d+$/.test(text) && Number.isSafeInteger(Number(text))) return { count: Number(text) };
  return PERCENT.test(text) ? { pct: text as `${number}%`, p: Number(text.slice(0, -1)) } : null;
}

const SERIAL_EXPECTED = "expected a host count (1, 2, ...) or a percentage ('25%')";

/** One serial step: a count of at least 1, or a percentage above 0% and at most 100%. */
export function parseSerialStep(value: unknown, where: string): SerialStep {
  const v = countOrPercent(value);
  if (v && 'count' in v && v.count >= 1) return v.count;
  if (v && 'pct' in v) {
    if (v.p > 0 && v.p <= 100) return v.pct;
    throw new RollingOptionError(
      where,
      `${where}: a percentage must be above 0% and at most 100%, got ${shown(value)}`,
    );
  }
  throw new RollingOptionError(where, `${where}: ${SERIAL_EXPECTED}, got ${shown(value)}`);
}

/**
 * `serial`: one step, a non-empty list of steps, or (from the command line) the steps separated by
 * commas: "1,25%,100%".
 */
export function parseSerial(value: unknown, where: string): SerialStep[] {
  const list = typeof value === 'string' && value.includes(',') ? value.split(',') : value;
  if (!Array.isArray(list)) return [parseSerialStep(value, where)];
  if (list.length === 0) {
    throw new RollingOptionError(where, `${where}: ${SERIAL_EXPECTED}, or a list of them, got an empty list`);
  }
  return list.map((step) => parseSerialStep(step, where));
}

/** `maxFail`: a count of failures (0 included) or a percentage from 0% to 100% of the targeted hosts. */
export function parseFailBudget(value: unknown, where: string): FailBudgetSpec {
  const v = countOrPercent(value);
  if (v && 'count' in v && v.count >= 0) return v.count;
  if (v && 'pct' in v) {
    if (v.p <= 100) return v.pct;
    throw new RollingOptionError(where, `${where}: a percentage must be from 0% to 100%, got ${shown(value)}`);
  }
  throw new RollingOptionError(
    where,
    `${where}: expected a number of failures (0, 1, ...) or a percentage of the targeted hosts ('20%'), got ${shown(value)}`,
  );
}
