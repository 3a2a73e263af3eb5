// Reading an inventory file into a YAML document that keeps positions, and reporting problems
// with the file, the line and the YAML path (`all.children.tor.hosts.tor1.ansible_port`).
import { readFileSync, statSync } from 'node:fs';
import { LineCounter, parseDocument, type Document, type Tags } from 'yaml';
import { InventoryError } from '../core/errors.js';

/** Where something was written: a YAML path and, when known, a line. */
export interface Origin {
  readonly path: string;
  readonly line?: number;
}

/** Anything with yaml's `range` (a node) or nothing. */
export interface Positioned {
  range?: [number, number, number] | null;
}

/** At most this many problems are listed in one error; the rest are counted. */
const MAX_LISTED = 10;

export class Source {
  readonly #problems: { origin: Origin; detail: string }[] = [];
  readonly warnings: string[] = [];

  constructor(
    readonly file: string,
    readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  /** The origin of `node` at `path`. */
  at(path: string, node?: Positioned | null): Origin {
    const offset = node?.range?.[0];
    return offset === undefined ? { path } : { path, line: this.lines.linePos(offset).line };
  }

  error(origin: Origin, detail: string): InventoryError {
    return new InventoryError(origin.line ? `${this.file}:${origin.line}` : this.file, origin.path, detail);
  }

  /** Records a problem; loading goes on so that one run reports all of them. */
  problem(origin: Origin, detail: string): void {
    // A group variable is checked once per host of the group: report it once.
    if (
      this.#problems.some((p) => p.origin.path === origin.path && p.origin.line === origin.line && p.detail === detail)
    )
      return;
    this.#problems.push({ origin, detail });
  }

  warn(origin: Origin, detail: string): void {
    this.warnings.push(
      `${origin.line ? `${this.file}:${origin.line}` : this.file}: ${origin.path ? `at ${origin.path}: ` : ''}${detail}`,
    );
  }

  get hasProblems(): boolean {
    return this.#problems.length > 0;
  }

  /** Throws the first problem; its message lists the others too, so one fix-run cycle shows them all. */
  throwIfProblems(): void {
    // In file order, whatever order the checks found them in.
    const [first, ...rest] = [...this.#problems].sort((a, b) => (a.origin.line ?? 0) - (b.origin.line ?? 0));
    if (!first) return;
    const more = rest
      .slice(0, MAX_LISTED - 1)
      .map((p) => `\n  also: ${this.error(p.origin, p.detail).message}`)
      .join('');
    const unlisted = rest.length > MAX_LISTED - 1 ? `\n  ... and ${rest.length - (MAX_LISTED - 1)} more` : '';
    throw this.error(first.origin, first.detail + more + unlisted);
  }
}

/** `all.children.tor` + `hosts` -> `all.children.tor.hosts`; odd keys are quoted: `all.hosts["10.0.0.1"]`. */
export function joinPath(base: string, key: string): string {
  if (/^[A-Za-z0-9_-]+$/.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

// yaml's 1.1 schema is the spec's; ansible's loader is PyYAML, which differs on a few plain
// scalars: `y`/`n` stay strings (a host named `y`), and a float needs a dot (`1e3` is a string).
const PYYAML_TESTS: [RegExp, RegExp][] = [
  [/^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/, /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/],
  [/^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/, /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/],
  [
    /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
    /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)[eE][-+][0-9]+$/,
  ],
  [/^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/, /^(?:[-+]?[0-9][0-9_]*\.[0-9_]*|\.[0-9][0-9_]*)$/],
];

function pyyamlTags(tags: Tags): Tags {
  return tags.map((tag) => {
    if (typeof tag === 'string' || !('test' in tag) || !tag.test) return tag;
    const test = tag.test;
    const swap = PYYAML_TESTS.find(([from]) => from.source === test.source);
    return swap ? { ...tag, test: swap[1] } : tag;
  });
}

const INI_SECTION = /^\s*\[[^\]]+\]\s*$/;

/**
 * Reads and parses `file` as YAML 1.1, the version ansible's loader (PyYAML) speaks: `yes` is a
 * boolean there and `022` is octal, and values must mean the same here as for ansible.
 */
export function readSource(file: string): Source {
  let text: string;
  try {
    if (statSync(file).isDirectory()) {
      throw new InventoryError(
        file,
        '',
        'is a directory: expected one YAML inventory file (play does not read inventory directories)',
      );
    }
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof InventoryError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
    throw new InventoryError(file, '', `cannot read the inventory (${why}): expected an Ansible YAML inventory file`);
  }
  const firstLine = text.split('\n').find((l) => l.trim() && !/^\s*[#;]/.test(l));
  if (firstLine && INI_SECTION.test(firstLine)) {
    throw new InventoryError(
      file,
      '',
      "this looks like an INI inventory; play reads Ansible's YAML inventory format: " +
        `convert it with \`ansible-inventory -i ${file} --list --yaml > inventory.yaml\``,
    );
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { version: '1.1', lineCounter: lines, customTags: pyyamlTags });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0].line;
    throw new InventoryError(
      line ? `${file}:${line}` : file,
      '',
      `YAML syntax error: ${syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  return new Source(file, doc, lines);
}
