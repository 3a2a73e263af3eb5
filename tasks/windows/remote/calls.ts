// Typed access to the remote half of the Windows steps: a PowerShell function is declared with its
// contract name (tasks/windows/remote/contract.ts), so a call's arguments and the value it returns are
// checked against the contract at compile time, and again at run time (validate.ts): arguments
// before the call leaves, the JSON coming back before a step reads it (a probe that returns
// nonsense fails with the function's name and the field, never guesses).
import { RemoteError } from '../../../runner/core/errors.js';
import { psCall, psFunction, type PsCall, type PsFunction } from '../../../runner/core/ps-call.js';
import { mustRun } from '../../../runner/core/remote.js';
import type { ExecResult, Probe, Remote } from '../../../runner/core/step.js';
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

function parseJson(fn: string, result: ExecResult): unknown {
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`${fn} returned no JSON: ${JSON.stringify(result.stdout.slice(0, 200))}`);
  }
}

/** A probe that is one call; `read` turns the returned value into the actual state (null: absent). */
export function probeCall<F extends PlayFunctionName, A>(
  fn: PlayFunction<F>,
  args: CallArgs<ArgsOf<F>>,
  read: (value: ResultOf<F>) => A | null,
): Probe<A> {
  return {
    script: call(fn, args),
    parse: (result: ExecResult) => read(validateResult(fn.name, parseJson(fn.name, result))),
  };
}

/** Runs one call; its error (the PowerShell exception message) becomes a RemoteError saying `what` failed. */
export async function invoke<F extends PlayFunctionName>(
  remote: Remote,
  fn: PlayFunction<F>,
  args: CallArgs<ArgsOf<F>>,
  what: string,
  timeoutMs?: number,
): Promise<ResultOf<F>> {
  const result = await mustRun(remote, call(fn, args), what, timeoutMs === undefined ? undefined : { timeoutMs });
  return validateResult(fn.name, parseJson(fn.name, result));
}

/** A RemoteError whose message names the step: for checks made before a call. */
export function stepFailure(title: string, message: string): RemoteError {
  return new RemoteError(`${title}: ${message}`, null);
}
