// Reading a host's variables inside step functions, with errors that name the variable, the host
// and what was expected (a step function's InputError stops the run before any host is touched).
// Values given with `-e` are strings: integers and booleans written as text count as such.
import { InputError } from '../core/errors.js';
import { isSecret } from '../core/secret.js';
import type { HostView } from './define.js';

/** A value as an error message shows it (never a secret's clear text). */
export function showValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (isSecret(v)) return 'a secret';
  return JSON.stringify(v) ?? String(v);
}

/** What reading a var needs of a host: an inventory Host or a step's HostView. */
export type VarsOf = Pick<HostView, 'name' | 'vars'>;

/** `host.vars[name]`, with null meaning unset (as an empty YAML value does). */
export function hostVar(h: VarsOf, name: string): unknown {
  const v = h.vars[name];
  return v === null ? undefined : v;
}

export function stringVar(h: VarsOf, name: string, fallback?: string): string {
  const v = hostVar(h, name) ?? fallback;
  if (typeof v !== 'string' || v.trim() === '')
    throw new InputError(`${name} of ${h.name} must be a non-empty string, got ${showValue(v)}`);
  return v;
}

export function optionalStringVar(h: HostView, name: string): string | undefined {
  return hostVar(h, name) === undefined ? undefined : stringVar(h, name);
}

export function boolVar(h: HostView, name: string, fallback: boolean): boolean {
  const v = hostVar(h, name) ?? fallback;
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new InputError(`${name} of ${h.name} must be true or false, got ${showValue(v)}`);
}

/** An integer in [min, max]; `what` says what it becomes, e.g. "keepalived's priority". */
export function intVar(
  h: HostView,
  name: string,
  fallback: number | undefined,
  min: number,
  max: number,
  what?: string,
): number {
  const v = hostVar(h, name) ?? fallback;
  const n = typeof v === 'string' && /^\s*-?[0-9]+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new InputError(
      `${name} of ${h.name}${what ? ` (${what})` : ''} must be an integer ${min}-${max}, got ${showValue(v)}`,
    );
  }
  return n;
}

/** A list of strings: a YAML list, or (from -e) a comma-separated string. */
export function listVar(h: HostView, name: string, required: boolean): string[] {
  const v = hostVar(h, name);
  if (v === undefined) {
    if (required) throw new InputError(`${name} of ${h.name} is required (a list)`);
    return [];
  }
  const items =
    typeof v === 'string'
      ? v
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : v;
  if (!Array.isArray(items) || items.some((x) => typeof x !== 'string' || x.trim() === ''))
    throw new InputError(`${name} of ${h.name} must be a list of strings, got ${showValue(v)}`);
  if (required && items.length === 0) throw new InputError(`${name} of ${h.name} must not be empty`);
  return items as string[];
}
