// Typed access to the remote half of the Windows steps: a PowerShell function is declared with its
// contract name (tasks/windows/remote/contract.ts), so a call's arguments and the value it returns are
// checked against the contract at compile time, and again at run time (validate.ts): arguments
// before the call leaves, the JSON coming back before a step reads it (a probe that returns
// nonsense fails with the function's name and the field, never guesses).
import { RemoteError } from '../../../runner/core/errors.js';
import { psCall, psFunction, type PsCall, type PsFunction } from '../../../runner/core/ps-call.js';
import { redact } from '../../../runner/core/secret.js';
import { callOn, type CallProbe, type Remote } from '../../../runner/core/step.js';
import type { CallArgs } from './call-args.js';
import type { ArgsOf, PlayFunctionName, ResultOf } from './contract.js';
import { validateArgs, validateResult } from './validate.js';

export type { CallArgs };
export { validateArgs, validateResult };

export interface PlayFunction<F extends PlayFunctionName> extends PsFunction {
  readonly name: F;
}

/** A contract function with its PowerShell body (constant text from our source). */
export function playFunction<F extends PlayFunctionName>(name: F, body: string): PlayFunction<F> {
  return psFunction(name, body) as PlayFunction<F>;
}

/** The call, once its arguments fit the contract (a Secret passes on unrevealed). */
export function call<F extends PlayFunctionName>(fn: PlayFunction<F>, args: CallArgs<ArgsOf<F>>): PsCall {
  validateArgs(fn.name, args);
  return psCall(fn, args as Readonly<Record<string, unknown>>);
}

/** A probe that is one call; `read` turns the returned value, checked against the contract, into the actual state (null: absent). */
export function probeCall<F extends PlayFunctionName, A>(
  fn: PlayFunction<F>,
  args: CallArgs<ArgsOf<F>>,
  read: (value: ResultOf<F>) => A | null,
): CallProbe<A> {
  return { call: call(fn, args), read: (value: unknown) => read(validateResult(fn.name, value)) };
}

/**
 * Runs one call on `remote` and returns its value; the call's error (the PowerShell exception message)
 * becomes a RemoteError saying `what` failed. Used by invoke and by the functions of one's own.
 */
export async function mustCall(remote: Remote, psCall: PsCall, what: string, timeoutMs?: number): Promise<unknown> {
  const result = await callOn(remote, psCall, timeoutMs === undefined ? undefined : { timeoutMs });
  if (result.ok) return result.value;
  // The end of the message is where the error usually is; the exit code is the one a failed call has always reported.
  const detail = redact(result.error.trim()).slice(-2000);
  throw new RemoteError(`${what} failed (exit 1)${detail ? `: ${detail}` : ''}`, 1, detail);
}

/**
 * Runs one call, through the remote's PowerShell channel: in a step that declares applyThenProbe, the
 * runner sends the step's probe calls in the same program, right after it.
 */
export async function invoke<F extends PlayFunctionName>(
  remote: Remote,
  fn: PlayFunction<F>,
  args: CallArgs<ArgsOf<F>>,
  what: string,
  timeoutMs?: number,
): Promise<ResultOf<F>> {
  return validateResult(fn.name, await mustCall(remote, call(fn, args), what, timeoutMs));
}

/** A RemoteError whose message names the step: for checks made before a call. */
export function stepFailure(title: string, message: string): RemoteError {
  return new RemoteError(`${title}: ${message}`, null);
}
