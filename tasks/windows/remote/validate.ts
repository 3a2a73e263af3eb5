// Run-time checks against the contract (contract.ts), with messages a person can act on. A call's
// arguments are checked before it leaves: a violation is a programming error in a step, reported as
// one line naming the function, the argument and what it must be. A result is checked when it comes
// back, from a real node or a simulated one: PowerShell that misnames a property or returns a number
// as a string fails here with the function, the field and the value, never further down in a step.
import type { z } from 'zod';
import { isSecret, masked } from '../../../runner/core/secret.js';
import type { CallArgs } from './calls.js';
import { CONTRACT, type ArgsOf, type PlayFunctionName, type ResultOf } from './contract.js';

type Path = readonly PropertyKey[];
type Issue = z.core.$ZodIssue;

/** The parts of a schema's definition this file reads (zod's own types name each kind separately). */
interface Def {
  readonly type: string;
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
  readonly out?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
}

const def = (s: z.ZodType): Def => s._zod.def as unknown as Def;

/** The schema of the value at `path` under `schema` (the first union member that has it). */
function schemaAt(schema: z.ZodType | undefined, path: Path): z.ZodType | undefined {
  if (schema === undefined || path.length === 0) return schema;
  const [key, ...rest] = path;
  const d = def(schema);
  switch (d.type) {
    case 'nullable':
    case 'optional':
      return schemaAt(d.innerType, path);
    case 'pipe':
      return schemaAt(d.out, path);
    case 'object':
      return typeof key === 'string' && Object.hasOwn(d.shape!, key) ? schemaAt(d.shape![key], rest) : undefined;
    case 'array':
      return typeof key === 'number' ? schemaAt(d.element, rest) : undefined;
    case 'union':
      for (const option of d.options!) {
        const found = schemaAt(option, path);
        if (found) return found;
      }
      return undefined;
    default:
      return undefined;
  }
}

function orList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

const PLURAL: Readonly<Record<string, string>> = {
  string: 'strings',
  number: 'numbers',
  boolean: 'true or false values',
  object: 'objects',
};

/** What a schema accepts, in words: `a string`, `one of Auto, Manual, Disabled`, `a number or null`. */
function describe(schema: z.ZodType | undefined): string {
  if (schema === undefined) return 'nothing';
  const d = def(schema);
  switch (d.type) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'object':
      return 'an object';
    case 'array':
      return `a list of ${PLURAL[def(d.element!).type] ?? `values (each ${describe(d.element)})`}`;
    case 'enum':
      return `one of ${Object.values(d.entries!).join(', ')}`;
    case 'literal':
      return orList(d.values!.map((v) => JSON.stringify(v)));
    case 'nullable':
      return `${describe(d.innerType)} or null`;
    case 'optional':
      return describe(d.innerType);
    case 'pipe':
      return describe(d.out);
    case 'union':
      return orList(d.options!.map(describe));
    default:
      return d.type;
  }
}

function formatPath(path: Path): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i ? '.' : ''}${String(k)}`)).join('');
}

const LONGEST = 80;

/** A value as the message shows it: JSON, secrets masked, long ones cut. */
function render(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (isSecret(value)) return 'a secret';
  const text = JSON.stringify(masked(value)) ?? String(value);
  return text.length > LONGEST ? `${text.slice(0, LONGEST - 3)}...` : text;
}

function valueAt(value: unknown, path: Path): unknown {
  let v = value;
  for (const key of path)
    v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

/** One finding: an unknown field, or a value that is not what the schema at its path accepts. */
type Finding =
  | { readonly kind: 'unknown'; readonly path: Path; readonly value: unknown; readonly known: readonly string[] }
  | { readonly kind: 'wrong'; readonly path: Path; readonly value: unknown; readonly expected: string };

function findings(
  schema: z.ZodType,
  issues: readonly Issue[],
  offending: (i: Issue, path: Path) => unknown,
): Finding[] {
  return issues.flatMap((issue): Finding[] => {
    if (issue.code === 'unrecognized_keys') {
      const owner = schemaAt(schema, issue.path);
      const known = owner && def(owner).type === 'object' ? Object.keys(def(owner).shape!) : [];
      return issue.keys.map((key) => {
        const path = [...issue.path, key];
        return { kind: 'unknown', path, value: offending(issue, path), known };
      });
    }
    return [
      {
        kind: 'wrong',
        path: issue.path,
        value: offending(issue, issue.path),
        expected: describe(schemaAt(schema, issue.path)),
      },
    ];
  });
}

/** Enough to act on, one line. */
const SHOWN = 3;

function joined(parts: readonly string[]): string {
  const more = parts.length - SHOWN;
  return parts.slice(0, SHOWN).join('; ') + (more > 0 ? `; and ${more} more` : '');
}

function entry<F extends PlayFunctionName>(fn: F): (typeof CONTRACT)[F] {
  if (!Object.hasOwn(CONTRACT, fn)) throw new Error(`${fn} is not a function of the Windows contract`);
  return CONTRACT[fn];
}

/**
 * Throws unless `args` fit the function's arguments; a Secret is accepted where a string is. The
 * message is one line: `Set-PlayService: argument startMode must be one of Auto, Manual, Disabled, got "Automatic"`.
 */
export function validateArgs<F extends PlayFunctionName>(fn: F, args: unknown): asserts args is CallArgs<ArgsOf<F>> {
  checkArgs(fn, entry(fn).args, args);
}

/** validateArgs against any schema: a function of one's own (open-function.ts) is checked the same way. */
export function checkArgs(fn: string, schema: z.ZodType, args: unknown): void {
  // A Secret stands where a string may: checked as its mask, a string; the caller sends the original.
  const checked = schema.safeParse(masked(args));
  if (checked.success) return;
  const parts = findings(schema, checked.error.issues, (_i, path) => valueAt(args, path)).map((f) => {
    const at = formatPath(f.path);
    if (f.kind === 'unknown')
      return `argument ${at} is unknown (${f.known.length ? `known: ${f.known.join(', ')}` : `${fn} takes none`})`;
    return f.path.length === 0
      ? `the arguments must be ${f.expected}, got ${render(f.value)}`
      : `argument ${at} must be ${f.expected}, got ${render(f.value)}`;
  });
  throw new Error(`${fn}: ${joined(parts)}`);
}

/**
 * The result, checked and normalized (lists, see contract.ts); throws one line such as
 * `Get-PlayOsInfo returned build = "17763", expected a number`.
 */
export function validateResult<F extends PlayFunctionName>(fn: F, value: unknown): ResultOf<F> {
  return checkResult(fn, entry(fn).result, value) as ResultOf<F>;
}

/** validateResult against any schema: the value as the schema outputs it, or one line naming the field. */
export function checkResult(fn: string, schema: z.ZodType, value: unknown): unknown {
  const checked = schema.safeParse(value, { reportInput: true });
  if (checked.success) return checked.data;
  const offending = (issue: Issue, path: Path): unknown =>
    issue.code === 'unrecognized_keys' ? valueAt(issue.input, path.slice(issue.path.length)) : issue.input;
  const parts = findings(schema, checked.error.issues, offending).map((f) => {
    const at = formatPath(f.path);
    if (f.kind === 'unknown') return `an unknown field ${at} = ${render(f.value)}`;
    return f.path.length === 0
      ? `${render(f.value)}, expected ${f.expected}`
      : `${at} = ${render(f.value)}, expected ${f.expected}`;
  });
  throw new Error(`${fn} returned ${joined(parts)}`);
}
