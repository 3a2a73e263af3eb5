// Run-time checks of a call against its function's schemas, with messages a person can act on. A call's
// arguments are checked before it leaves: a violation is a programming error in a step, reported as
// one line naming the function, the argument and what it must be. A result is checked when it comes
// back, from a real node or a simulated one: PowerShell that misnames a property or returns a number
// as a string fails here with the function, the field and the value, never further down in a step.
import { z } from 'zod';
import { isSecret, masked } from '../../../runner/core/secret.js';

type Path = readonly PropertyKey[];
type Issue = z.core.$ZodIssue;
/** A schema as zod types the parts of another (`.shape`, `.element`, `.options`); built by `z`, they are z.ZodType. */
type Schema = z.core.$ZodType;

/** The schema of the value at `path` under `schema` (the first union member that has it). */
function schemaAt(schema: Schema | undefined, path: Path): Schema | undefined {
  if (schema === undefined || path.length === 0) return schema;
  const [key, ...rest] = path;
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return schemaAt(schema.unwrap(), path);
  if (schema instanceof z.ZodPipe) return schemaAt(schema.out, path);
  if (schema instanceof z.ZodObject)
    return typeof key === 'string' && Object.hasOwn(schema.shape, key) ? schemaAt(schema.shape[key], rest) : undefined;
  if (schema instanceof z.ZodArray) return typeof key === 'number' ? schemaAt(schema.element, rest) : undefined;
  if (schema instanceof z.ZodUnion) {
    for (const option of schema.options) {
      const found = schemaAt(option, path);
      if (found) return found;
    }
  }
  return undefined;
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
function describe(schema: Schema | undefined): string {
  if (schema === undefined) return 'nothing';
  if (!(schema instanceof z.ZodType)) return 'a value';
  if (schema instanceof z.ZodArray)
    return `a list of ${PLURAL[kind(schema.element)] ?? `values (each ${describe(schema.element)})`}`;
  if (schema instanceof z.ZodEnum) return `one of ${schema.options.join(', ')}`;
  if (schema instanceof z.ZodLiteral) return orList([...schema.values].map((v) => JSON.stringify(v)));
  if (schema instanceof z.ZodNullable) return `${describe(schema.unwrap())} or null`;
  if (schema instanceof z.ZodOptional) return describe(schema.unwrap());
  if (schema instanceof z.ZodPipe) return describe(schema.out);
  if (schema instanceof z.ZodUnion) return orList(schema.options.map(describe));
  return IN_WORDS[schema.type] ?? schema.type;
}

function kind(schema: Schema): string {
  return schema instanceof z.ZodType ? schema.type : 'unknown';
}

/** The kinds that read the same whatever their options. */
const IN_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  null: 'null',
  object: 'an object',
};

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
      const known = owner instanceof z.ZodObject ? Object.keys(owner.shape) : [];
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

/**
 * Throws unless `args` fit the schema; a Secret is accepted where a string is. The message is one
 * line: `Set-PlayService: argument startMode must be one of Auto, Manual, Disabled, got "Automatic"`.
 */
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
 * The value as the schema outputs it (lists normalized, see contract.ts), or one line naming the
 * field: `Get-PlayOsInfo returned build = "17763", expected a number`.
 */
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
