// The result of a pure diff: one action from a closed set, the fields that differ, and the
// before/after values of exactly those fields. `noop` has no fields.
import { isDeepStrictEqual } from 'node:util';

export const ACTIONS = ['noop', 'create', 'update', 'delete', 'replace', 'run'] as const;
export type Action = (typeof ACTIONS)[number];

export type Fields = Record<string, unknown>;

export interface Change {
  readonly action: Action;
  readonly fields: readonly string[];
  readonly before: Fields | null;
  readonly after: Fields | null;
  /** A unified diff of text content, where a step has one (file content, config files). */
  readonly textDiff?: string;
  /** Things the plan should say although they do not stop it (e.g. a value keepalived truncates). */
  readonly warnings?: readonly string[];
}

export const NOOP: Change = Object.freeze({ action: 'noop', fields: [], before: null, after: null });

/**
 * The common diff: compares the listed fields of desired against actual. A field whose desired
 * value is `undefined` is not managed and never differs. Absent actual (null) means `create`.
 */
export function diffFields<D extends object>(
  desired: D,
  actual: Partial<Record<keyof D, unknown>> | null,
  fields: readonly (keyof D & string)[],
): Change {
  const managed = fields.filter((f) => desired[f] !== undefined);
  if (actual === null) {
    return { action: 'create', fields: managed, before: null, after: pick(desired, managed) };
  }
  const changed = managed.filter((f) => !isDeepStrictEqual(desired[f], actual[f]));
  if (changed.length === 0) return NOOP;
  return { action: 'update', fields: changed, before: pick(actual, changed), after: pick(desired, changed) };
}

function pick(obj: object, keys: readonly string[]): Fields {
  return Object.fromEntries(keys.map((k) => [k, (obj as Fields)[k] ?? null]));
}
