// A YAML file play reads, checked by a zod schema: every problem is one line naming the file, the
// line the YAML document puts the value at (or, for a missing field, its mapping), and what is wrong.
// The schema says what is wrong; the caller says how a path reads (`entry 3: 'expires' ...`).
import { isMap, isNode, isScalar, isSeq, LineCounter, type YAMLMap } from 'yaml';
import type { z } from 'zod';
import { parseYamlDocument } from '../inventory/yaml-document.js';
import { InputError } from './errors.js';

/** At most this many problems are listed in one error; the rest are counted. */
const MAX_LISTED = 10;

/** One problem as the caller words it: `path` is the value's, or for an unknown key the key's. */
export interface SchemaProblem {
  path: readonly PropertyKey[];
  /** The key the problem is about (an unknown key), when it is a key rather than a value. */
  key?: string;
  issue: z.core.$ZodIssue;
}

/** Turns a problem into its text (without the `file:line: ` the loader puts in front). */
export type ProblemText = (problem: SchemaProblem) => string;

/** A parsed YAML text and where its nodes are. */
export interface YamlText {
  /** The document's value as plain data (null for an empty document). */
  value: unknown;
  /** The line of the value at `path` (1-based); for a path that stops short, of the last node on it. */
  lineOf(path: readonly PropertyKey[], key?: string): number;
}

/** Parses `text` as YAML; a syntax error is an InputError naming the file and the line. */
export function readYamlText(file: string, text: string): YamlText {
  const lines = new LineCounter();
  const doc = parseYamlDocument(file, text, lines);
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0].line;
    const what = syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`${line ? `${file}:${line}` : file}: YAML syntax error: ${what}`);
  }
  const lineAt = (node: unknown, fallback: number) => {
    const offset = isNode(node) ? node.range?.[0] : undefined;
    return offset === undefined ? fallback : lines.linePos(offset).line;
  };
  return {
    value: doc.toJS(),
    lineOf: (path, key) => {
      let node: unknown = doc.contents;
      let line = lineAt(node, 1);
      for (const step of path) {
        if (isSeq(node) && typeof step === 'number') node = node.items[step];
        else {
          const pair = isMap(node) ? pairOf(node, step) : undefined;
          if (!pair) return line;
          line = lineAt(pair.key, line);
          node = pair.value;
        }
        line = lineAt(node, line);
      }
      const pair = key !== undefined && isMap(node) ? pairOf(node, key) : undefined;
      return pair ? lineAt(pair.key, line) : line;
    },
  };
}

const pairOf = (map: YAMLMap, key: PropertyKey) =>
  map.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));

/** zod's issues as problems: an unknown keys issue becomes one problem per key. */
function problemsOf(error: z.ZodError): SchemaProblem[] {
  return error.issues.flatMap<SchemaProblem>((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: issue.path, key, issue }))
      : [{ path: issue.path, issue }],
  );
}

/**
 * `yaml.value` checked by `schema`. Throws InputError (exit 65) listing every problem in file
 * order, `file:line: text`, the first ten and a count of the rest.
 */
export function parseWithSchema<S extends z.ZodType>(
  file: string,
  yaml: YamlText,
  schema: S,
  text: ProblemText,
): z.output<S> {
  const result = schema.safeParse(yaml.value);
  if (result.success) return result.data;
  const listed = problemsOf(result.error)
    .map((p) => ({ line: yaml.lineOf(p.path, p.key), text: text(p) }))
    .sort((a, b) => a.line - b.line)
    .map((p) => `${file}:${p.line}: ${p.text}`);
  const [first, ...rest] = listed;
  const more = rest
    .slice(0, MAX_LISTED - 1)
    .map((p) => `\n  also: ${p}`)
    .join('');
  const unlisted = rest.length > MAX_LISTED - 1 ? `\n  ... and ${rest.length - (MAX_LISTED - 1)} more` : '';
  throw new InputError(first + more + unlisted);
}

/** How a value was written, for "got ...": a list, a mapping, nothing, "text", 7. */
export function shownYaml(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return 'nothing';
  if (typeof value === 'object') return 'a mapping';
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
