// The remote half of a step folder (tasks/windows/steps/<step>/remote.ts): each PowerShell function
// it calls, made from the zod schemas of its one argument and its result (as in remote/contract.ts)
// and its body, read from the folder's <Function>.ps1. The folder's step calls these functions
// directly; the contract and the functions registry (remote/contract.ts, remote/functions.ts) merge
// every folder's `<STEP>_REMOTE` export that ./index.ts lists.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { psFunction } from '../../../runner/core/ps-call.js';
import type { AnyStep } from '../../../runner/core/step.js';
import { type PlayFunction, withSchemas } from '../remote/calls.js';

export interface StepFunctionSpec {
  readonly args: z.ZodType;
  readonly result: z.ZodType;
  /** The function's body: PowerShell 5.1 text that reads `$a` and returns one value. */
  readonly body: string;
}

/** A folder's functions by name, each with its schemas (what `stepRemote` returns). */
export type StepRemote = Readonly<Record<string, PlayFunction>>;

type FunctionsOf<S extends Record<string, StepFunctionSpec>> = {
  readonly [F in keyof S]: PlayFunction<z.input<S[F]['args']>, z.output<S[F]['result']>> & { readonly name: F };
};

/** A folder's functions, from the specs of each: `stepRemote({ 'Get-PlayX': { args, result, body } })`. */
export function stepRemote<S extends Record<string, StepFunctionSpec>>(specs: S): FunctionsOf<S> {
  const functions = Object.entries(specs).map(([name, spec]) => [
    name,
    withSchemas(psFunction(name, spec.body), spec.args, spec.result),
  ]);
  return Object.freeze(Object.fromEntries(functions)) as FunctionsOf<S>;
}

/**
 * A .ps1 file of a step folder, as text. Read once, when the folder's remote.ts loads: the build
 * copies the .ps1 files beside the compiled .js (scripts/build.mjs), so sources and dist/ agree.
 */
export function powerShellFile(moduleUrl: string, file: string): string {
  return readFileSync(new URL(file, moduleUrl), 'utf8').replace(/^\uFEFF/, '');
}

/** A list in a result, read as contract.ts reads one (5.1 may give one element as itself, none as null). */
export function psList<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => (v === null ? [] : v === undefined || Array.isArray(v) ? v : [v]), z.array(item));
}

type Union<T> = T[keyof T];
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The remote halves among a module's exports (./index.ts: factories, their types, `<STEP>_REMOTE`s). */
type RemotesOf<M> = { readonly [K in keyof M as K extends `${string}_REMOTE` ? K : never]: M[K] };

/** Every folder's functions in one table: `import * as STEPS from './index.js'`, its remote halves merged. */
export type MergedRemotes<M> = Intersection<Union<RemotesOf<M>>>;

export function mergeRemotes<M extends object>(steps: M): MergedRemotes<M> {
  const merged: Record<string, PlayFunction> = {};
  for (const [key, remote] of Object.entries(steps)) {
    if (!key.endsWith('_REMOTE')) continue;
    for (const [name, fn] of Object.entries(remote as StepRemote)) {
      if (Object.hasOwn(merged, name)) throw new Error(`two step folders define ${name}`);
      merged[name] = fn;
    }
  }
  return merged as MergedRemotes<M>;
}

/** A function's two cases (happy path, main failure), run under real PowerShell by test/lab/windows. */
export interface StepFunctionCase {
  /** Calls made first on the same fresh node (set-up through the functions themselves). */
  readonly before?: readonly { readonly fn: string; readonly args: Readonly<Record<string, unknown>> }[];
  readonly args: Readonly<Record<string, unknown>>;
  /** What the result must satisfy (happy), or the error message it must match (failure). */
  readonly expect: ((value: any) => boolean) | RegExp;
}

export type StepCases<R extends StepRemote> = {
  readonly [F in keyof R]: { readonly happy: StepFunctionCase; readonly failure: StepFunctionCase };
};

/** The texts ps-syntax.test.ts gives a folder's syntax cases: hostile to quoting, and a hostile path. */
export interface HostileValues {
  /** Quotes of every kind (typographic too), `$(...)`, backticks, `;`, `#`, `%TEMP%`: one line. */
  readonly text: string;
  /** A Windows path holding quotes, `$(...)` and backticks. */
  readonly path: string;
}

/**
 * A folder's PowerShell syntax cases (`SYNTAX_CASES` of its cases.ts): for each factory it exports,
 * option sets whose every program test/tasks/windows/ps-syntax.test.ts parses as 5.1 would, run in
 * order on one simulated node (so a case may change or remove what the one before made).
 */
export type SyntaxCases = (hostile: HostileValues) => Readonly<Record<string, readonly (() => AnyStep)[]>>;

/** What a function takes, as a step passes it (optional fields may be left out). */
export type FunctionArgs<F extends PlayFunction> = z.input<F['args']>;
/** What a function returns, as a step reads it once checked (lists normalized). */
export type FunctionResult<F extends PlayFunction> = z.output<F['result']>;
