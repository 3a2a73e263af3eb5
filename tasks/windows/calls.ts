// Typed access to the remote half of the Windows steps: a PowerShell function is declared with its
// contract name (tasks/windows/contract.ts), so a call's arguments and the value it returns are
// checked against the contract at compile time, and the JSON coming back is read defensively at
// run time (a probe that returns nonsense fails with the function's name, never guesses).
import { RemoteError } from '../../runner/core/errors.js';
import { psCall, psFunction, type PsCall, type PsFunction } from '../../runner/core/ps-call.js';
import { mustRun } from '../../runner/core/remote.js';
import type { Secret } from '../../runner/core/secret.js';
import type { ExecResult, Probe, Remote } from '../../runner/core/step.js';
import type { ArgsOf, PlayFunctionName, ResultOf } from './contract.js';

export interface PlayFunction<F extends PlayFunctionName> extends PsFunction {
  readonly name: F;
}

/** A contract function with its PowerShell body (constant text from our source). */
export function playFunction<F extends PlayFunctionName>(name: F, body: string): PlayFunction<F> {
  return psFunction(name, body) as PlayFunction<F>;
}

/** Arguments as the TypeScript side passes them: a string may be a Secret (revealed only in the program on stdin). */
export type CallArgs<T> = { [K in keyof T]: NonNullable<T[K]> extends string ? T[K] | Secret : T[K] };

export function call<F extends PlayFunctionName>(fn: PlayFunction<F>, args: CallArgs<ArgsOf<F>>): PsCall {
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
    parse: (result: ExecResult) => read(parseJson(fn.name, result) as ResultOf<F>),
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
  return parseJson(fn.name, result) as ResultOf<F>;
}

// --- reading returned values ---------------------------------------------------------------

/** Throws a clear error unless `value` is an object; returns it for field access. */
export function record(fn: string, value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(
      `${fn} returned ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}, expected an object`,
    );
  }
  return value as Record<string, unknown>;
}

function fieldError(fn: string, field: string, expected: string, got: unknown): never {
  throw new Error(`${fn} returned ${field} = ${JSON.stringify(got) ?? 'nothing'}, expected ${expected}`);
}

export function str(fn: string, o: Record<string, unknown>, field: string): string {
  const v = o[field];
  return typeof v === 'string' ? v : fieldError(fn, field, 'a string', v);
}

export function strOrNull(fn: string, o: Record<string, unknown>, field: string): string | null {
  const v = o[field];
  return v === null || v === undefined
    ? null
    : typeof v === 'string'
      ? v
      : fieldError(fn, field, 'a string or null', v);
}

export function num(fn: string, o: Record<string, unknown>, field: string): number {
  const v = o[field];
  return typeof v === 'number' && Number.isFinite(v) ? v : fieldError(fn, field, 'a number', v);
}

export function numOrNull(fn: string, o: Record<string, unknown>, field: string): number | null {
  const v = o[field];
  return v === null || v === undefined
    ? null
    : typeof v === 'number' && Number.isFinite(v)
      ? v
      : fieldError(fn, field, 'a number or null', v);
}

export function bool(fn: string, o: Record<string, unknown>, field: string): boolean {
  const v = o[field];
  return typeof v === 'boolean' ? v : fieldError(fn, field, 'true or false', v);
}

/** PowerShell 5.1 turns a one-element array into a scalar in some paths: accept both. */
export function strings(fn: string, o: Record<string, unknown>, field: string): string[] {
  const v = o[field];
  if (v === null || v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((x) => (typeof x === 'string' ? x : fieldError(fn, field, 'strings', v)));
}

/** A list of objects, which PowerShell 5.1 may unwrap to one object or leave out when empty. */
export function records(fn: string, o: Record<string, unknown>, field: string): Record<string, unknown>[] {
  const v = o[field];
  if (v === null || v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => record(`${fn} ${field}`, x));
}

export function oneOf<T extends string>(
  fn: string,
  o: Record<string, unknown>,
  field: string,
  values: readonly T[],
): T {
  const v = o[field];
  return values.includes(v as T) ? (v as T) : fieldError(fn, field, values.map((x) => `'${x}'`).join(' | '), v);
}

/** A RemoteError whose message names the step: for checks made before a call. */
export function stepFailure(title: string, message: string): RemoteError {
  return new RemoteError(`${title}: ${message}`, null);
}
