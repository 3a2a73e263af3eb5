// Typed access to the remote half of the Windows steps. A PowerShell function carries the zod schemas
// of its one argument and of its result (play's own: functions.ts from the contract, a step folder's
// remote.ts; one's own: defineFunction), so a call's arguments and the value it returns are checked
// at compile time, and again at run time (validate.ts): arguments before the call leaves, the JSON
// coming back before a step reads it (a probe that returns nonsense fails with the function's name
// and the field, never guesses). Nothing here knows the contract's table: the function is enough.
import type { z } from 'zod';
import { RemoteError } from '../../../runner/core/errors.js';
import { psCall, type PsCall, type PsFunction } from '../../../runner/core/ps-call.js';
import { redact } from '../../../runner/core/secret.js';
import { callOn, type CallProbe, type Remote } from '../../../runner/core/step.js';
import type { CallArgs } from './call-args.js';
import { checkArgs, checkResult } from './validate.js';

export type { CallArgs };

/** A remote function: its PowerShell definition, and the schemas of its one argument and of its result. */
export interface PlayFunction<Args = object, Result = unknown> extends PsFunction {
  readonly args: z.ZodType<unknown, Args>;
  readonly result: z.ZodType<Result>;
}

/** A named body with the schemas of its argument and result: a function a step can call. */
export function withSchemas<A extends z.ZodType, R extends z.ZodType>(
  fn: PsFunction,
  args: A,
  result: R,
): PlayFunction<z.input<A>, z.output<R>> {
  return Object.freeze({ ...fn, args, result }) as unknown as PlayFunction<z.input<A>, z.output<R>>;
}

/** The call, once its arguments fit the function's schema (a Secret passes on unrevealed). */
export function call<Args>(fn: PlayFunction<Args, unknown>, args: NoInfer<CallArgs<Args>>): PsCall {
  checkArgs(fn.name, fn.args, args);
  return psCall(fn, args as Readonly<Record<string, unknown>>);
}

/** A probe that is one call; `read` turns the returned value, checked against the function's result schema, into the actual state (null: absent). */
export function probeCall<Args, R, A>(
  fn: PlayFunction<Args, R>,
  args: NoInfer<CallArgs<Args>>,
  read: (value: R) => A | null,
): CallProbe<A> {
  return { call: call(fn, args), read: (value: unknown) => read(checkResult(fn.name, fn.result, value) as R) };
}

/**
 * Runs one call on `remote` and returns its value; the call's error (the PowerShell exception message)
 * becomes a RemoteError saying `what` failed.
 */
export async function mustCall(remote: Remote, psCall: PsCall, what: string, timeoutMs?: number): Promise<unknown> {
  const result = await callOn(remote, psCall, timeoutMs === undefined ? undefined : { timeoutMs });
  if (result.ok) return result.value;
  // The end of the message is where the error usually is; the exit code is the one a failed call has always reported.
  const detail = redact(result.error.trim()).slice(-2000);
  throw new RemoteError(`${what} failed (exit 1)${detail ? `: ${detail}` : ''}`, 1, detail);
}

/**
 * Runs one call, through the remote's PowerShell channel, and returns its checked result: in a step
 * that declares applyThenProbe, the runner sends the step's probe calls in the same program, right after it.
 */
export async function invoke<Args, R>(
  remote: Remote,
  fn: PlayFunction<Args, R>,
  args: NoInfer<CallArgs<Args>>,
  what: string,
  timeoutMs?: number,
): Promise<R> {
  return checkResult(fn.name, fn.result, await mustCall(remote, call(fn, args), what, timeoutMs)) as R;
}

/** A RemoteError whose message names the step: for checks made before a call. */
export function stepFailure(title: string, message: string): RemoteError {
  return new RemoteError(`${title}: ${message}`, null);
}
