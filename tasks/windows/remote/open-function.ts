// PowerShell functions of one's own, for a Windows step written outside play (docs/own-repository.md):
// the same machinery as the built-in steps (a function with its body, one JSON argument object, a
// JSON result, all of a host's probe calls in one PowerShell program), with the contract given next
// to the function as zod schemas instead of in play's closed table (contract.ts). Arguments are
// checked before a call leaves and results when they come back (validate.ts's messages), so `read`
// and apply see typed, checked values. windows.powershell and windows.command are built on it.
import type { z } from 'zod';
import { InputError } from '../../../runner/core/errors.js';
import { psCall, psFunction, type PsCall, type PsFunction } from '../../../runner/core/ps-call.js';
import type { CallProbe, Remote } from '../../../runner/core/step.js';
import { type CallArgs, mustCall } from './calls.js';
import { PLAY_FUNCTIONS } from './functions.js';
import { checkArgs, checkResult } from './validate.js';

/** A function of one's own: its PowerShell definition and the schemas of its argument and result. */
export interface OpenFunction<Args extends object, Result> extends PsFunction {
  readonly args: z.ZodType<unknown, Args>;
  readonly result: z.ZodType<Result>;
}

export interface OpenFunctionSpec<A extends z.ZodType<object, object>, R extends z.ZodType> {
  /** `Verb-PlayNoun`: the `Play` prefix keeps it from shadowing a cmdlet (`Get-Item`) the body calls. */
  readonly name: string;
  /** The schema of the one argument, an object (`$a` in the body). */
  readonly args: A;
  /** The schema of what the body returns (converted to JSON with depth 20). */
  readonly result: R;
  /** The body: PowerShell 5.1 text that reads `$a` and returns one value (e.g. `[ordered]@{ ... }`). */
  readonly body: string;
}

/** Names defined so far and their definitions: one name is one function in a program. */
const defined = new Map<string, string>();

export function defineFunction<A extends z.ZodType<object, object>, R extends z.ZodType>(
  spec: OpenFunctionSpec<A, R>,
): OpenFunction<z.input<A>, z.output<R>> {
  const where = `defineFunction '${spec.name}'`;
  if (!/^[A-Za-z]+-Play[A-Za-z0-9]+$/.test(spec.name))
    throw new InputError(`${where}: the name must be Verb-PlayNoun (letters and digits, e.g. Get-PlayMyThing)`);
  if (Object.hasOwn(PLAY_FUNCTIONS, spec.name))
    throw new InputError(`${where}: play's own steps use that name; choose another`);
  if (typeof spec.body !== 'string' || spec.body.trim() === '') throw new InputError(`${where}: the body is empty`);
  if ((spec.args?._zod?.def as { type?: string } | undefined)?.type !== 'object')
    throw new InputError(`${where}: args must be a zod object schema (z.strictObject({ ... }))`);
  if (!spec.result?._zod) throw new InputError(`${where}: result must be a zod schema`);
  const fn = psFunction(spec.name, spec.body);
  const known = defined.get(fn.name);
  if (known !== undefined && known !== fn.definition)
    throw new InputError(`${where}: a function of that name is already defined with another body`);
  defined.set(fn.name, fn.definition);
  return Object.freeze({ ...fn, args: spec.args, result: spec.result }) as unknown as OpenFunction<
    z.input<A>,
    z.output<R>
  >;
}

/** The call, once its arguments fit the schema (a top-level string may be a Secret: it travels apart, on stdin). */
export function callOf<Args extends object>(fn: OpenFunction<Args, unknown>, args: CallArgs<Args>): PsCall {
  checkArgs(fn.name, fn.args, args);
  return psCall(fn, args as Readonly<Record<string, unknown>>);
}

/** A probe that is one call, batched with the host's other calls; `read` turns the checked result into the actual state. */
export function probeFunction<Args extends object, R, A>(
  fn: OpenFunction<Args, R>,
  args: CallArgs<Args>,
  read: (value: R) => A | null,
): CallProbe<A> {
  return { call: callOf(fn, args), read: (value: unknown) => read(checkResult(fn.name, fn.result, value) as R) };
}

/** Runs one call in apply; a PowerShell error becomes a RemoteError saying `what` failed. */
export async function invokeFunction<Args extends object, R>(
  remote: Remote,
  fn: OpenFunction<Args, R>,
  args: CallArgs<Args>,
  what: string,
  timeoutMs?: number,
): Promise<R> {
  return checkResult(fn.name, fn.result, await mustCall(remote, callOf(fn, args), what, timeoutMs)) as R;
}
