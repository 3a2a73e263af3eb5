// A step's options are declared once, as a zod schema: its type is inferred from it, its
// normalization is the schema's transforms, and a wrong option becomes one StepOptionError naming
// the step kind and the field, saying what was expected and what was given.
import { z } from 'zod';
import { StepOptionError } from './errors.js';
import { isSecret, type Secret } from './secret.js';

/** How a given value is named in a message: never a secret's text, never more than 40 characters. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isSecret(v)) return 'a secret';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  record: 'an object',
};

/** `ports[0].name` from zod's path. */
export function fieldOf(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out;
}

function detailOf(issue: z.core.$ZodIssue, known: readonly string[] | undefined, kind: string): [string, string] {
  const field = fieldOf(issue.path);
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0]!;
      const at = field === '' ? key : `${field}.${key}`;
      // A nested object may say whose option it is not (`z.strictObject(shape, { error })`).
      if (!issue.message.startsWith('Unrecognized key')) return [at, issue.message];
      return [at, `is not an option of ${kind}${known && field === '' ? ` (known: ${known.join(', ')})` : ''}`];
    }
    case 'invalid_union': {
      // The branch whose type the value has speaks for it: `command[1]` of an argv, not "no branch matched".
      const typed = issue.errors.filter((b) => !b.some((i) => i.path.length === 0 && i.code === 'invalid_type'));
      const inner = typed.length === 1 ? typed[0]![0] : undefined;
      if (inner) return detailOf({ ...inner, path: [...issue.path, ...inner.path] }, known, kind);
      return [field, issue.message];
    }
    case 'invalid_type':
      // A message set by the schema (`z.string({ error })`) wins over the generic one.
      if (issue.message && !issue.message.startsWith('Invalid input')) return [field, issue.message];
      return [field, `must be ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(input)}`];
    case 'too_small':
      if (issue.origin === 'number' || issue.origin === 'int')
        return [field, `must be at least ${String(issue.minimum)}, got ${String(input)}`];
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return [field, 'must not be empty'];
      return [field, issue.message];
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'int')
        return [field, `must be at most ${String(issue.maximum)}, got ${String(input)}`];
      return [field, issue.message];
    case 'invalid_value':
      if (issue.message && !issue.message.startsWith('Invalid')) return [field, issue.message];
      return [
        field,
        `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(input)}`,
      ];
    default:
      return [field, issue.message];
  }
}

/** The option names of an object schema, also when a transform follows it (a pipe). */
function knownKeys(schema: z.ZodType): string[] | undefined {
  const s = schema as { shape?: Record<string, unknown>; in?: z.ZodType };
  if (s.shape) return Object.keys(s.shape);
  return s.in ? knownKeys(s.in) : undefined;
}

/** The issue to report: a misspelt option first, since it is likely why another one seems missing. */
function firstIssue(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue {
  return issues.find((i) => i.code === 'unrecognized_keys' && i.path.length === 0) ?? issues[0]!;
}

/**
 * Parses a step's options with its schema. The first problem is thrown as a StepOptionError
 * (exit 65): `linux.sysctl: option 'key' must be a string, got number 5`.
 */
export function readOptions<S extends z.ZodType>(kind: string, schema: S, options: unknown): z.output<S> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new StepOptionError(kind, '(options)', `must be an object, got ${describeValue(options)}`);
  }
  const result = schema.safeParse(options, { reportInput: true });
  if (result.success) return result.data;
  const [field, detail] = detailOf(firstIssue(result.error.issues), knownKeys(schema), kind);
  throw new StepOptionError(kind, field === '' ? '(options)' : field, detail);
}

// The fields steps share. Each is a schema, so a step composes them in its own z.strictObject.

/** A string that is not empty. */
export const nonEmpty = () => z.string().min(1, { error: 'must not be empty' });

/** An absolute POSIX path without a newline or NUL; a trailing slash is dropped. */
export const absolutePath = () =>
  z
    .string()
    .refine((v) => v.startsWith('/'), { error: (iss) => `must be an absolute path, got ${describeValue(iss.input)}` })
    .refine((v) => !v.includes('\n') && !v.includes('\0'), { error: 'must not contain a newline or NUL' })
    .transform((v) => (v.length > 1 ? v.replace(/\/+$/, '') : v));

/** An integer, optionally within a range. */
export const integer = (range: { min?: number; max?: number } = {}) => {
  let s = z.int({
    error: (iss) => (iss.code === 'invalid_type' ? `must be an integer, got ${describeValue(iss.input)}` : undefined),
  });
  if (range.min !== undefined) s = s.min(range.min);
  if (range.max !== undefined) s = s.max(range.max);
  return s;
};

/**
 * A file mode as an octal string ('0644', '644'), normalized to four digits. Numbers are refused:
 * `mode: 644` would be decimal 644 (octal 1204), the classic mistake, and cannot be told apart from 0o644.
 */
export const fileMode = () =>
  z
    .custom<string>((v) => typeof v === 'string' && /^0?[0-7]{3,4}$/.test(v), {
      error: (iss) => `must be an octal mode written as a string such as '0644', got ${describeValue(iss.input)}`,
    })
    .transform((v) => v.replace(/^0+(?=[0-7]{3})/, '').padStart(4, '0'));

/** An absolute path that names a file: as absolutePath, and not `/`. */
export const filePath = () => absolutePath().refine((v) => v !== '/', { error: 'must name a file, not /' });

/** One of a few strings: `must be 'running' or 'stopped', got "started"`. */
export const oneOf = <const T extends readonly [string, ...string[]]>(...values: T) =>
  z.enum(values, {
    error: (iss) => {
      const given = typeof iss.input === 'string' ? JSON.stringify(iss.input) : describeValue(iss.input);
      return `must be ${orList(values.map((v) => `'${v}'`))}, got ${given}`;
    },
  });

/** `'a', 'b' or 'c'`. */
function orList(items: readonly string[]): string {
  return items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
}

/**
 * A user or group name (or numeric id), as the host's name service prints it: a directory service's
 * names hold spaces, `@` and `\\` (`domain users`, `alice@corp.example`, `CORP\\alice`). Refused: a
 * colon (chown's owner:group separator, and no passwd or group file can hold one), a slash, a control
 * character, and a first character that chown would read otherwise (`-` an option, `+` an id) or a
 * space at either end (a mistake: no name service trims it).
 */
export const principal = () =>
  z.string().refine((v) => /^[^\s:/+-](?:[^:/\p{Cc}]*[^\s:/])?$/u.test(v), {
    error: (iss) =>
      `must be a user or group name (no ':', '/' or control character, not starting with '-' or '+', no space at either end) or a numeric id, got ${describeValue(iss.input)}`,
  });

/** A play Secret (from the vault or the environment), never a plain value's place. */
export const secret = () =>
  z.custom<Secret>((v) => isSecret(v), { error: (iss) => `must be a secret, got ${describeValue(iss.input)}` });

/** A string, or a Secret that stays one. */
export const stringOrSecret = () =>
  z.custom<string | Secret>((v) => typeof v === 'string' || isSecret(v), {
    error: (iss) => `must be a string, got ${describeValue(iss.input)}`,
  });
