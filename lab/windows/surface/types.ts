// The shape of the simulated node's Windows surface: operations the mock cmdlets and .NET shims of
// the real PowerShell (lab/windows/pwsh-host) call back, each answered from the node's model. An op
// throws a WindowsError with the text the real cmdlet or API gives; anything else is a simulator bug.
import { WindowsError } from '../errors.js';
import type { SimulatedWindowsNode } from '../model.js';

export type Args = Record<string, unknown>;
export type Op = (node: SimulatedWindowsNode, args: Args) => unknown;
export type Ops = Record<string, Op>;

/** A mock passed something the op cannot take: a bug in a mock module, said plainly. */
function wrongArg(name: string, expected: string, got: unknown): Error {
  return new Error(
    `surface argument '${name}' must be ${expected}, got ${JSON.stringify(got)} (a bug in a mock module)`,
  );
}

export function str(a: Args, name: string): string {
  const v = a[name];
  if (typeof v !== 'string') throw wrongArg(name, 'a string', v);
  return v;
}

export function optStr(a: Args, name: string): string | null {
  const v = a[name];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw wrongArg(name, 'a string or null', v);
  return v;
}

export function num(a: Args, name: string): number {
  const v = a[name];
  if (typeof v !== 'number') throw wrongArg(name, 'a number', v);
  return v;
}

export function bool(a: Args, name: string): boolean {
  const v = a[name];
  if (typeof v !== 'boolean') throw wrongArg(name, 'true or false', v);
  return v;
}

export function strs(a: Args, name: string): string[] {
  const v = a[name];
  if (v === null || v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  if (!list.every((x) => typeof x === 'string')) throw wrongArg(name, 'a list of strings', v);
  return list as string[];
}

export { WindowsError };
