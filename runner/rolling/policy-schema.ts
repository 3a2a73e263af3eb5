// The playbook's `rolling` block as a zod schema, and the field schemas the command line's flags are
// checked with too: one declaration per field, whichever side gives the value. An issue's message is
// what is wrong with the value; the caller puts where it came from in front. Pure.
import { z } from 'zod';
import { MAX_WAIT_SEC } from '../core/long-sleep.js';
import type { DrainTimeoutPolicy } from './model.js';
import { parseFailBudget, parseSerial, RollingOptionError, shown } from './serial.js';

/** A whole number of at least `min` (`unit`: what it counts, for the message). */
export const whole = (min: number, unit: string) =>
  z.custom<number>((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min, {
    error: (iss) => `expected a whole number of ${unit} (${min} or more), got ${shown(iss.input)}`,
  });

/** A wait (soak, drain, Ready): whole seconds from `min` to MAX_WAIT_SEC. */
export const waitSeconds = (min: number) =>
  whole(min, 'seconds').refine((s) => s <= MAX_WAIT_SEC, {
    error: (iss) => `expected at most ${MAX_WAIT_SEC} seconds (7 days), got ${shown(iss.input)}`,
  });

/** A non-empty string (matching `pattern` when given); `expected` says what it names. */
const name = (expected: string, pattern?: RegExp) =>
  z.custom<string>((v) => typeof v === 'string' && v.trim() !== '' && (!pattern || pattern.test(v)), {
    error: (iss) => `expected ${expected}, got ${shown(iss.input)}`,
  });

const DRAIN_POLICIES: readonly DrainTimeoutPolicy[] = ['uncordon', 'keep-cordoned'];

export const drainPolicy = () =>
  z.custom<DrainTimeoutPolicy>((v) => DRAIN_POLICIES.includes(v as DrainTimeoutPolicy), {
    error: (iss) => `expected ${DRAIN_POLICIES.join(' or ')}, got ${shown(iss.input)}`,
  });

/**
 * serial.ts's parser as a schema (its values are shared with --serial, which is parsed there): its
 * refusal becomes the issue, without the `where: ` it starts with.
 */
const parsedBy = <T>(parse: (value: unknown, where: string) => T) =>
  z.unknown().transform((value, ctx) => {
    try {
      return parse(value, '');
    } catch (e) {
      if (!(e instanceof RollingOptionError)) throw e;
      ctx.issues.push({ code: 'custom', message: e.message.replace(/^: /, ''), input: value });
      return z.NEVER;
    }
  });

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The block without its alertGate (checked on its own, alert-gate/spec.ts); the keys in the order listed. */
export const rollingBlockSchema = z.strictObject(
  {
    serial: parsedBy(parseSerial).optional(),
    maxFail: parsedBy(parseFailBudget).optional(),
    domainVar: name('a host variable name (e.g. failure_domain)', VAR_NAME).optional(),
    maxPerDomain: whole(1, 'hosts').optional(),
    soakSec: waitSeconds(0).optional(),
    control: name('the group whose first host runs kubectl (e.g. control)').optional(),
    drainTimeoutSec: waitSeconds(1).optional(),
    onDrainTimeout: drainPolicy().optional(),
    readyTimeoutSec: waitSeconds(1).optional(),
  },
  {
    error: (iss) =>
      iss.code === 'invalid_type' ? `expected a mapping of options, got ${shown(iss.input)}` : undefined,
  },
);

/** The first problem as [path under `rolling`, what is wrong]: a misspelt option first. */
export function rollingProblem(error: z.ZodError): [field: string, text: string] {
  const unknown = error.issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown) {
    const known = Object.keys(rollingBlockSchema.shape).join(', ');
    return [`rolling.${unknown.keys[0]!}`, `unknown option (known: ${known})`];
  }
  const issue = error.issues[0]!;
  return [['rolling', ...issue.path.map(String)].join('.'), issue.message];
}

/** `value` checked by a field schema given on the command line as `flag`. Throws RollingOptionError. */
export function flagValue<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new RollingOptionError(flag, `${flag}: ${result.error.issues[0]!.message}`);
}
