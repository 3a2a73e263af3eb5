// Reading an inventory file into a YAML document that keeps positions, and reporting problems
// with the file, the line and the YAML path (`all.children.tor.hosts.tor1.ansible_port`).
import { type Alias, LineCounter, type Document, type Node, type ScalarTag, type Tags } from 'yaml';
import { InventoryError } from '../core/errors.js';
import { INVENTORY_FILE, InputFileError, type InputFileKind, readInputFile } from '../core/read-input-file.js';
import { isVaultText, VaultText } from '../vault/format.js';
import { VaultError, VaultKeyring } from '../vault/keyring.js';
import { AliasIndex } from './yaml-aliases.js';
import { parseYamlDocument } from './yaml-document.js';
import { flattenMergeKeys } from './yaml-merge.js';

/** Where something was written: the file (when known), a path in it and, when known, a line. */
export interface Origin {
  readonly file?: string;
  readonly path: string;
  readonly line?: number;
}

/** Anything with yaml's `range` (a node) or nothing. */
export interface Positioned {
  range?: [number, number, number] | null;
}

/** What the readers and checks report to: problems (which stop the load) and warnings. */
export interface Reporter {
  problem(origin: Origin, detail: string): void;
  warn(origin: Origin, detail: string): void;
  /** The load's vault passwords, for `!vault` values. */
  readonly vault?: VaultKeyring;
  /** True when the file being read was vault-encrypted: its values are kept as secrets (vars.ts). */
  readonly fromVault?: boolean;
}

/** At most this many problems are listed in one error; the rest are counted. */
const MAX_LISTED = 10;

/**
 * Problems and warnings of a whole load, across every file of the inventory: one error lists all
 * of them, so one fix-run cycle shows them all.
 */
export class Problems implements Reporter {
  readonly #problems: { origin: Origin; detail: string }[] = [];
  readonly #problemKeys = new Set<string>();
  readonly warnings: string[] = [];
  readonly #warningTexts = new Set<string>();
  /** Files in the order they were read: problems are listed in that order, then by line. */
  readonly #fileRank = new Map<string, number>();

  /** The files of this load that were vault-encrypted, decrypted as they were read. */
  readonly #decrypted = new Set<string>();

  /** `vault`: the passwords that decrypt the load's vault-encrypted files and `!vault` values. */
  constructor(
    readonly defaultFile: string,
    readonly vault: VaultKeyring = new VaultKeyring(),
  ) {}

  decrypted(file: string): void {
    this.#decrypted.add(file);
  }

  wasDecrypted(file: string): boolean {
    return this.#decrypted.has(file);
  }

  fileRead(file: string): void {
    if (!this.#fileRank.has(file)) this.#fileRank.set(file, this.#fileRank.size);
  }

  where(origin: Origin): string {
    const file = origin.file ?? this.defaultFile;
    return origin.line ? `${file}:${origin.line}` : file;
  }

  error(origin: Origin, detail: string): InventoryError {
    return new InventoryError(this.where(origin), origin.path, detail);
  }

  problem(origin: Origin, detail: string): void {
    // A group variable is checked once per host of the group: report it once. A Set, not a
    // search of the list: an inventory of 100,000 hosts may have as many problems.
    const key = JSON.stringify([origin.file, origin.path, origin.line, detail]);
    if (this.#problemKeys.has(key)) return;
    this.#problemKeys.add(key);
    this.#problems.push({ origin, detail });
  }

  warn(origin: Origin, detail: string): void {
    const text = `${this.where(origin)}: ${origin.path ? `at ${origin.path}: ` : ''}${detail}`;
    if (this.#warningTexts.has(text)) return;
    this.#warningTexts.add(text);
    this.warnings.push(text);
  }

  get hasProblems(): boolean {
    return this.#problems.length > 0;
  }

  /** Throws the first problem; its message lists the others too. */
  throwIfProblems(): void {
    const rank = (o: Origin) => this.#fileRank.get(o.file ?? this.defaultFile) ?? -1;
    // In file order, whatever order the checks found them in.
    const [first, ...rest] = [...this.#problems].sort(
      (a, b) => rank(a.origin) - rank(b.origin) || (a.origin.line ?? 0) - (b.origin.line ?? 0),
    );
    if (!first) return;
    const more = rest
      .slice(0, MAX_LISTED - 1)
      .map((p) => `\n  also: ${this.error(p.origin, p.detail).message}`)
      .join('');
    const unlisted = rest.length > MAX_LISTED - 1 ? `\n  ... and ${rest.length - (MAX_LISTED - 1)} more` : '';
    throw this.error(first.origin, first.detail + more + unlisted);
  }
}

/** One file being read: its problems and warnings go to the load's Problems, tagged with the file. */
export class FileReporter implements Reporter {
  readonly report: Problems;
  constructor(
    readonly file: string,
    report?: Problems,
  ) {
    this.report = report ?? new Problems(file);
    this.report.fileRead(file);
  }

  problem(origin: Origin, detail: string): void {
    this.report.problem({ file: this.file, ...origin }, detail);
  }

  warn(origin: Origin, detail: string): void {
    this.report.warn({ file: this.file, ...origin }, detail);
  }

  error(origin: Origin, detail: string): InventoryError {
    return this.report.error({ file: this.file, ...origin }, detail);
  }

  get warnings(): readonly string[] {
    return this.report.warnings;
  }

  get vault(): VaultKeyring {
    return this.report.vault;
  }

  get fromVault(): boolean {
    return this.report.wasDecrypted(this.file);
  }

  get hasProblems(): boolean {
    return this.report.hasProblems;
  }

  throwIfProblems(): void {
    this.report.throwIfProblems();
  }
}

/**
 * Entries (mapping pairs, sequence items) the aliases followed in one file's groups and hosts may
 * stand for together, nested aliases expanded (README.md, Limits).
 */
export const MAX_ALIASED_ENTRIES = 10_000_000;

/** A YAML file being read, with the positions of its nodes. */
export class Source extends FileReporter {
  #aliases: AliasIndex | null = null;
  #aliasedEntriesLeft = MAX_ALIASED_ENTRIES;

  constructor(
    file: string,
    readonly doc: Document,
    private readonly lines: LineCounter,
    report?: Problems,
  ) {
    super(file, report);
  }

  /**
   * The node `alias` stands for. What it stands for is counted first, against the file's budget:
   * aliases of aliases multiply (a "billion laughs" bomb), and the walk stops before following one
   * that would take it past the limit.
   */
  resolveAlias(alias: Alias): Node | null {
    this.#aliases ??= new AliasIndex(this.doc);
    this.#aliasedEntriesLeft -= this.#aliases.entries(alias);
    if (this.#aliasedEntriesLeft < 0)
      throw this.error(
        this.at('', alias),
        `YAML aliases expand the groups and hosts of this file past ${MAX_ALIASED_ENTRIES.toLocaleString('en-US')} ` +
          'entries (aliases of aliases multiply): write the groups out rather than nesting aliases',
      );
    return this.#aliases.target(alias) ?? null;
  }

  /** The node `alias` stands for, not counted against the budget (a look before the walk). */
  aliasTarget(alias: Alias): Node | null {
    this.#aliases ??= new AliasIndex(this.doc);
    return this.#aliases.target(alias) ?? null;
  }

  /** The origin of `node` at `path`. */
  at(path: string, node?: Positioned | null): Origin {
    const offset = node?.range?.[0];
    return offset === undefined
      ? { file: this.file, path }
      : { file: this.file, path, line: this.lines.linePos(offset).line };
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

/** Ansible's `!vault` tag, on a scalar (a tag on a mapping or a list is refused where it is read). */
const VAULT_TAG: ScalarTag = {
  tag: '!vault',
  identify: (value) => value instanceof VaultText,
  resolve: (text) => new VaultText(text),
};

function pyyamlTags(tags: Tags): Tags {
  const swapped = tags.map((tag) => {
    if (typeof tag === 'string' || !('test' in tag) || !tag.test) return tag;
    const test = tag.test;
    const swap = PYYAML_TESTS.find(([from]) => from.source === test.source);
    return swap ? { ...tag, test: swap[1] } : tag;
  });
  return [...swapped, VAULT_TAG];
}

/** The text of an inventory (or vars) file, or an InventoryError saying why it cannot be read. */
export function readText(file: string, kind: InputFileKind = INVENTORY_FILE): string {
  try {
    return readInputFile(file, kind);
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    if (e.why === undefined) throw new InventoryError(file, '', e.detail);
    throw new InventoryError(file, '', `cannot read the inventory (${e.why}): expected an Ansible inventory file`);
  }
}

/**
 * The text of an inventory or vars file, decrypted when it is vault-encrypted (then `report` records
 * it, so that its values are kept as secrets); null when no password given decrypts it, after
 * reporting that as a problem of the file (so that every such file is named at once).
 */
export function readPlainText(file: string, report: Problems, kind: InputFileKind = INVENTORY_FILE): string | null {
  const text = readText(file, kind);
  if (!isVaultText(text)) return text;
  try {
    const plain = report.vault.decrypt(text).toString('utf8');
    report.decrypted(file);
    return plain;
  } catch (e) {
    if (!(e instanceof VaultError)) throw e;
    report.fileRead(file);
    report.problem({ file, path: '' }, e.sentence('is'));
    return null;
  }
}

/**
 * Parses `text` (of `file`) as YAML 1.1, the version ansible's loader (PyYAML) speaks: `yes` is a
 * boolean there and `022` is octal, and values must mean the same here as for ansible.
 */
export function parseYaml(file: string, text: string, report?: Problems): Source {
  const lines = new LineCounter();
  const doc = parseYamlDocument(file, text, lines, { version: '1.1', customTags: pyyamlTags });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0].line;
    throw new InventoryError(
      line ? `${file}:${line}` : file,
      '',
      `YAML syntax error: ${syntax.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
    );
  }
  const src = new Source(file, doc, lines, report);
  // A file without `<<` has no merge key: no need to walk it.
  if (text.includes('<<')) flattenMergeKeys(src);
  return src;
}
