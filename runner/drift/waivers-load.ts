// Reading a waivers file: a zod schema of its entries, every problem reported with the file, the line,
// the entry and the field, and how to fix it (runner/core/yaml-schema.ts).
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { InputFileError, readInputFile, WAIVERS_FILE } from '../core/read-input-file.js';
import { parseWithSchema, readYamlText, type SchemaProblem, shownYaml as shown } from '../core/yaml-schema.js';
import { pythonRegExp } from '../inventory/glob.js';
import { splitHostPattern } from '../inventory/pattern.js';
import { closeNames } from '../inventory/suggest.js';
import type { Waiver } from './waiver.js';

/** The waivers file play reads when `--waivers` is not given. */
export const DEFAULT_WAIVERS_NAME = 'waivers.yml';

const FIELDS = ['hosts', 'playbook', 'task', 'fields', 'reason', 'expires'] as const;
type Field = (typeof FIELDS)[number];

const MISSING: Record<Exclude<Field, 'fields'>, string> = {
  hosts: 'name the hosts it covers, such as `hosts: node010` or `hosts: node01*`',
  playbook: 'name the playbook, such as `playbook: onboard-windows`',
  task: 'name the task, such as `task: kubelet`',
  reason: 'say why this drift is accepted, such as `reason: vendor hotfix, ticket OPS-123`',
  expires: 'give the last day it holds, such as `expires: 2026-12-31`',
};

const TEXT_WANTED: Record<'hosts' | 'playbook' | 'task' | 'reason', string> = {
  hosts: 'a host pattern such as node01* (several: node009,node010)',
  playbook: 'a playbook name',
  task: 'a task id',
  reason: 'a text saying why this drift is accepted',
};

const MONTHS = 'January February March April May June July August September October November December'.split(' ');

/** `waivers.yml` beside the inventory file, or inside an inventory directory (as group_vars/ is). */
export function defaultWaiversFile(inventoryFile: string): string {
  let directory = false;
  try {
    directory = statSync(inventoryFile).isDirectory();
  } catch {
    // A missing inventory fails elsewhere; its neighbour is as good a guess as any.
  }
  return join(directory ? inventoryFile : dirname(inventoryFile), DEFAULT_WAIVERS_NAME);
}

/** A file given with `--waivers`: it must exist. Throws InputError (exit 65). */
export function loadWaivers(file: string): Waiver[] {
  return parseWaivers(readWaivers(file, false) ?? '', file);
}

/** The default file: absent means no waivers ([]); present, it must be valid. */
export function loadWaiversIfPresent(file: string): Waiver[] {
  const text = readWaivers(file, true);
  return text === null ? [] : parseWaivers(text, file);
}

function readWaivers(file: string, optional: boolean): string | null {
  try {
    return readInputFile(file, WAIVERS_FILE);
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    if (e.reason === 'missing' && optional) return null;
    if (e.reason === 'directory') throw new InputError(`${file}: is a directory: expected a YAML file of waivers`);
    if (e.why !== undefined) throw new InputError(`${file}: cannot read the waivers file (${e.why})`);
    throw e;
  }
}

/** A text field: a non-blank string, trimmed; `check` says what else is wrong with it, or null. */
function text(field: keyof typeof TEXT_WANTED, check: (v: string) => string | null = () => null) {
  const wanted = (input: unknown) => `'${field}' must be ${TEXT_WANTED[field]}, got ${shown(input)}`;
  return z
    .string({ error: (iss) => (iss.input === undefined ? missing(field) : wanted(iss.input)) })
    .refine((v) => v.trim() !== '', { error: (iss) => wanted(iss.input) })
    .transform((v) => v.trim())
    .superRefine((v, ctx) => {
      const problem = check(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `'${field}' ${problem}`, input: v });
    });
}

const missing = (field: keyof typeof MISSING) => `'${field}' is missing: ${MISSING[field]}`;

const EXPIRES = z
  .string({
    error: (iss) =>
      iss.input === undefined
        ? missing('expires')
        : `'expires' must be a date like 2026-12-31, got ${shown(iss.input)}`,
  })
  .transform((v) => v.trim())
  .superRefine((v, ctx) => {
    const problem = dateProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: `'expires' ${problem}`, input: v });
  });

const FIELD_NAMES = z
  .array(
    z
      .string({ error: (iss) => `must be a field name, got ${shown(iss.input)}` })
      .refine((v) => v.trim() !== '', { error: (iss) => `must be a field name, got ${shown(iss.input)}` })
      .transform((v) => v.trim()),
    { error: (iss) => `'fields' must be a list of field names such as [binPath], got ${shown(iss.input)}` },
  )
  .min(1, {
    error: "'fields' is empty: list the fields it covers, or leave it out to cover every field of the task",
  });

/** One entry; its fields in the order problems about one line are listed. */
const ENTRY = z.strictObject(
  {
    hosts: text('hosts', hostsProblem),
    playbook: text('playbook'),
    task: text('task'),
    fields: FIELD_NAMES.optional(),
    reason: text('reason'),
    expires: EXPIRES,
  },
  {
    error: (iss) =>
      iss.code === 'invalid_type'
        ? `expected a mapping of hosts, playbook, task, reason and expires, got ${shown(iss.input)}`
        : undefined,
  },
);

const FILE = z.array(ENTRY, {
  error: (iss) => `expected a list of waivers (entries starting with '- hosts:'), got ${shown(iss.input)}`,
});

/** A problem as the waivers file's reader words it: `entry 2: 'expires' ...`. */
function problemText({ path, key, issue }: SchemaProblem): string {
  if (path.length === 0) return issue.message;
  const entry = `entry ${Number(path[0]) + 1}: `;
  if (key !== undefined) {
    const close = closeNames(key, FIELDS, 1);
    const hint = close.length ? `: did you mean '${close[0]}'?` : '';
    return `${entry}unknown field '${key}'${hint} (fields: ${FIELDS.join(', ')})`;
  }
  if (path[1] === 'fields' && typeof path[2] === 'number')
    return `${entry}'fields' item ${path[2] + 1} ${issue.message}`;
  return entry + issue.message;
}

/**
 * Validates the text of a waivers file (YAML 1.2: `2026-12-31` is text here, checked as a date).
 * An empty file has no waivers. Throws InputError (exit 65) listing every problem.
 */
export function parseWaivers(text: string, file: string): Waiver[] {
  const yaml = readYamlText(file, text);
  if (yaml.value === null) return [];
  const entries = parseWithSchema(file, yaml, FILE, problemText);
  return entries.map((entry, i) => {
    const { fields, ...rest } = entry;
    return { source: `${file}:${yaml.lineOf([i])}`, ...rest, ...(fields && { fields }) };
  });
}

/** Why `text` is not a yyyy-mm-dd day of the calendar, or null. */
function dateProblem(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return `must be a date like 2026-12-31, got ${JSON.stringify(text)}`;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12) return `${text} is not a day of the calendar: there is no month ${mo}`;
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > days) return `${text} is not a day of the calendar: ${MONTHS[mo - 1]} ${y} has ${days} days`;
  return null;
}

/** Why `pattern` cannot be a waiver's host pattern, or null. */
function hostsProblem(pattern: string): string | null {
  for (const term of splitHostPattern(pattern)) {
    const bare = term.replace(/^[&!]/, '');
    // A waiver says which hosts it covers in the file itself, not in another one.
    if (bare[0] === '@') return `cannot take hosts from a file ('${term}'): write the pattern itself`;
    if (bare[0] !== '~') continue;
    try {
      pythonRegExp(bare.slice(1));
    } catch (e) {
      return `is not a valid host pattern: invalid regular expression in '${term}': ${(e as Error).message}`;
    }
  }
  return null;
}
