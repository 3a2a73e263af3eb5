// PowerShell functions of one's own, for a Windows step written outside play (docs/own-repository.md):
// the same machinery as the built-in steps (a function with its body and the zod schemas of its one
// JSON argument object and its JSON result, all of a host's probe calls in one PowerShell program;
// calls.ts), given next to the step instead of in play's table (contract.ts). Arguments are checked
// before a call leaves and results when they come back (validate.ts's messages), so `read` and apply
// see typed, checked values. windows.powershell and windows.command are built on it.
import type { z } from 'zod';
import { InputError } from '../../../runner/core/errors.js';
import { psFunction } from '../../../runner/core/ps-call.js';
import { invoke, type PlayFunction, probeCall, withSchemas } from './calls.js';
import { PLAY_FUNCTIONS } from './functions.js';

/** A function of one's own: its PowerShell definition and the schemas of its argument and result. */
export type OpenFunction<Args extends object, Result> = PlayFunction<Args, Result>;

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
  return withSchemas(fn, spec.args, spec.result);
}

/** A probe that is one call, batched with the host's other calls; `read` turns the checked result into the actual state. */
export const probeFunction = probeCall;

/** Runs one call in apply; a PowerShell error becomes a RemoteError saying `what` failed. */
export const invokeFunction = invoke;
