// Reading a waivers file: every problem reported with the file, the line, the
// entry and the field, and how to fix it, as the inventory's loader does (runner/inventory/source.ts).
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, type Node, type Pair } from 'yaml';
import { InputError } from '../core/errors.js';
import { InputFileError, readInputFile, WAIVERS_FILE } from '../core/read-input-file.js';
import { pythonRegExp } from '../inventory/glob.js';
import { splitHostPattern } from '../inventory/pattern.js';
import { closeNames } from '../inventory/suggest.js';
import { parseYamlDocument } from '../inventory/yaml-document.js';
import type { Waiver } from './waiver.js';

/** The waivers file play reads when `--waivers` is not given. */
export const DEFAULT_WAIVERS_NAME = 'waivers.yml';

/** At most this many problems are listed in one error; the rest are counted. */
const MAX_LISTED = 10;

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

/** Collects problems so that one error lists them all, in file order. */
class Problems {
  readonly #list: { line: number; text: string }[] = [];
  constructor(
    readonly file: string,
    private readonly lines: LineCounter,
  ) {}

  line(node: { range?: [number, number, number] | null } | null | undefined, fallback: number): number {
    const offset = node?.range?.[0];
    return offset === undefined ? fallback : this.lines.linePos(offset).line;
  }

  add(line: number, text: string): void {
    this.#list.push({ line, text: `${this.file}:${line}: ${text}` });
  }

  throwIfAny(): void {
    const [first, ...rest] = [...this.#list].sort((a, b) => a.line - b.line);
    if (!first) return;
    const more = rest
      .slice(0, MAX_LISTED - 1)
      .map((p) => `\n  also: ${p.text}`)
      .join('');
    const unlisted = rest.length > MAX_LISTED - 1 ? `\n  ... and ${rest.length - (MAX_LISTED - 1)} more` : '';
    throw new InputError(first.text + more + unlisted);
  }
}

/** How a value was written, for "got ...". */
function shown(node: unknown): string {
  if (isSeq(node)) return 'a list';
  if (isMap(node)) return 'a mapping';
  const v = isScalar(node) ? node.value : node;
  if (v === null || v === undefined) return 'nothing';
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

/**
 * Validates the text of a waivers file (YAML 1.2: `2026-12-31` is text here, checked as a date).
 * An empty file has no waivers. Throws InputError (exit 65) listing every problem.
 */
export function parseWaivers(text: string, file: string): Waiver[] {
  const lines = new LineCounter();
  const doc = parseYamlDocument(file, text, lines);
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0].line;
    const what = syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`${line ? `${file}:${line}` : file}: YAML syntax error: ${what}`);
  }
  const top = doc.contents;
  if (top === null || (isScalar(top) && top.value === null)) return [];
  const problems = new Problems(file, lines);
  if (!isSeq(top)) {
    problems.add(
      problems.line(top, 1),
      `expected a list of waivers (entries starting with '- hosts:'), got ${shown(top)}`,
    );
    problems.throwIfAny();
    return [];
  }
  const waivers: Waiver[] = [];
  top.items.forEach((node, i) => {
    const w = readEntry(node, i + 1, problems, problems.line(top, 1));
    if (w) waivers.push(w);
  });
  problems.throwIfAny();
  return waivers;
}

function readEntry(node: unknown, n: number, problems: Problems, fallback: number): Waiver | null {
  const at = problems.line(node as Node, fallback);
  const say = (line: number, text: string) => problems.add(line, `entry ${n}: ${text}`);
  if (!isMap(node)) {
    say(at, `expected a mapping of hosts, playbook, task, reason and expires, got ${shown(node)}`);
    return null;
  }
  const found = new Map<Field, Pair>();
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : shown(pair.key);
    if ((FIELDS as readonly string[]).includes(key)) found.set(key as Field, pair);
    else {
      const close = closeNames(key, FIELDS, 1);
      const hint = close.length ? `: did you mean '${close[0]}'?` : '';
      say(problems.line(pair.key as Node, at), `unknown field '${key}'${hint} (fields: ${FIELDS.join(', ')})`);
    }
  }
  const w: Partial<Waiver> = { source: `${problems.file}:${at}` };
  let ok = true;
  for (const field of FIELDS) {
    const pair = found.get(field);
    if (!pair && field !== 'fields') say(at, `'${field}' is missing: ${MISSING[field]}`);
    const lineOf = (v: unknown) => problems.line(v as Node, problems.line(pair?.key as Node, at));
    const wrong = pair ? readField(w, field, pair.value, lineOf) : [];
    for (const p of wrong) say(p.line, p.text);
    ok &&= (pair !== undefined || field === 'fields') && wrong.length === 0;
  }
  return ok ? (w as Waiver) : null;
}

type Wrong = { line: number; text: string }[];

/** Sets `w[field]` from `value`, or returns what is wrong with it. */
function readField(w: Partial<Waiver>, field: Field, value: unknown, lineOf: (node: unknown) => number): Wrong {
  const wrong = (text: string): Wrong => [{ line: lineOf(value), text }];
  if (field === 'fields') return readFieldList(w, value, lineOf);
  const v = isScalar(value) ? value.value : undefined;
  if (field === 'expires') {
    const problem = typeof v === 'string' ? dateProblem(v) : `must be a date like 2026-12-31, got ${shown(value)}`;
    if (problem) return wrong(`'expires' ${problem}`);
    w.expires = (v as string).trim();
    return [];
  }
  if (typeof v !== 'string' || !v.trim()) return wrong(`'${field}' must be ${TEXT_WANTED[field]}, got ${shown(value)}`);
  const problem = field === 'hosts' ? hostsProblem(v.trim()) : null;
  if (problem) return wrong(`'hosts' ${problem}`);
  w[field] = v.trim();
  return [];
}

function readFieldList(w: Partial<Waiver>, value: unknown, lineOf: (node: unknown) => number): Wrong {
  if (!isSeq(value)) {
    return [
      { line: lineOf(value), text: `'fields' must be a list of field names such as [binPath], got ${shown(value)}` },
    ];
  }
  if (value.items.length === 0) {
    const text = "'fields' is empty: list the fields it covers, or leave it out to cover every field of the task";
    return [{ line: lineOf(value), text }];
  }
  const names: string[] = [];
  const wrong: Wrong = [];
  value.items.forEach((item, i) => {
    const v = isScalar(item) ? item.value : undefined;
    if (typeof v === 'string' && v.trim()) names.push(v.trim());
    else wrong.push({ line: lineOf(item), text: `'fields' item ${i + 1} must be a field name, got ${shown(item)}` });
  });
  w.fields = names;
  return wrong;
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
