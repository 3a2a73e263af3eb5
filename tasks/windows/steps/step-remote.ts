// The remote half of a step folder (tasks/windows/steps/<step>/remote.ts): each PowerShell function
// it calls, with the zod schemas of its one argument and its result (as in remote/contract.ts) and
// its body, read from the folder's <Function>.ps1. The contract and the functions registry
// (remote/contract.ts, remote/functions.ts) merge every folder listed in ./remote.ts into theirs.
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export interface StepFunctionSpec {
  readonly args: z.ZodType;
  readonly result: z.ZodType;
  /** The function's body: PowerShell 5.1 text that reads `$a` and returns one value. */
  readonly body: string;
}

export type StepRemote = Readonly<Record<string, StepFunctionSpec>>;

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

/** Every folder's functions in one table: `import * as STEP_REMOTES from './remote.js'` merged. */
export type MergedRemotes<M> = Intersection<Union<M>>;

export function mergeRemotes<M extends { readonly [K in keyof M]: StepRemote }>(folders: M): MergedRemotes<M> {
  const merged: Record<string, StepFunctionSpec> = {};
  for (const remote of Object.values<StepRemote>(folders))
    for (const [name, spec] of Object.entries(remote)) {
      if (Object.hasOwn(merged, name)) throw new Error(`two step folders define ${name}`);
      merged[name] = spec;
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
