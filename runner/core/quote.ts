// Commands are built from parts with quoting tags, never by joining strings: every interpolated
// value is data and arrives on the host as the literal text it was.
//   sh`mkdir -p ${path}`  -> mkdir -p '/srv/a b'
//   ps`Get-Item ${path}`  -> Get-Item '/srv/a b'
// A Script of the same shell interpolates as-is (composition); raw() marks trusted text.
// A Secret is refused: secrets never go on a command line (send them on stdin).
import { isSecret } from './secret.js';

export type Shell = 'sh' | 'ps';

/** What a probe batch can do for a script (probe-batch.ts): each is optional, the script works without. */
export interface ScriptUses {
  /** Paths whose stat line the script reads from the one `stat` a probe batch may run for all its
   *  probes (shared-stat.ts). */
  readonly statPaths?: readonly string[];
  /** Those of statPaths whose stat line must carry the owner and group names (shared-stat.ts). */
  readonly namedStatPaths?: readonly string[];
  /** Paths whose content the script reads as base64 through content-read.ts, so a read cache
   *  can answer it from a digest. */
  readonly readPaths?: readonly string[];
  /** A probe that may run in its batch's own shell, not a subshell of its own (sharesShell). */
  readonly sharesShell?: boolean;
}

export type UsedPaths = 'statPaths' | 'namedStatPaths' | 'readPaths';

export class Script {
  readonly statPaths: readonly string[];
  readonly namedStatPaths: readonly string[];
  readonly readPaths: readonly string[];
  readonly sharesShell: boolean;

  constructor(
    readonly shell: Shell,
    readonly text: string,
    uses: ScriptUses = {},
  ) {
    this.statPaths = uses.statPaths ?? [];
    this.namedStatPaths = uses.namedStatPaths ?? [];
    this.readPaths = uses.readPaths ?? [];
    this.sharesShell = uses.sharesShell ?? false;
  }

  toString(): string {
    return this.text;
  }
}

/**
 * `script` as a probe that runs in its batch's shell: a subshell per probe costs the host a fork,
 * and play's own probes need none. Only for a probe that never exits, changes directory, sets
 * shell options or traps, or reads stdin, and sets no variable but `play_` ones it sets before use.
 */
export function sharesShell(script: Script): Script {
  return new Script(script.shell, script.text, { ...usesOf(script), sharesShell: true });
}

export class Raw {
  constructor(readonly text: string) {}
}

/** Trusted text inserted without quoting: only for constants written in our own source. */
export function raw(text: string): Raw {
  return new Raw(text);
}

export function quoteSh(value: string): string {
  if (value.includes('\0')) throw new TypeError('a NUL byte cannot be passed to a shell');
  if (value !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

// PowerShell treats the typographic single quotes as quote characters too; doubling each one
// inside a single-quoted string makes it literal, which is the only escape such strings have.
export function quotePs(value: string): string {
  if (value.includes('\0')) throw new TypeError('a NUL byte cannot be passed to PowerShell');
  return `'${value.replace(/['\u2018\u2019\u201a\u201b]/g, (q) => q + q)}'`;
}

type Part = string | number | boolean | bigint | Script | Raw | readonly Part[];

function render(shell: Shell, value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (value instanceof Script) {
    if (value.shell !== shell) throw new TypeError(`cannot embed a ${value.shell} script in a ${shell} script`);
    return value.text;
  }
  if (isSecret(value)) throw new TypeError('a secret cannot be placed on a command line; send it on stdin');
  if (Array.isArray(value)) return value.map((v) => render(shell, v)).join(shell === 'ps' ? ',' : ' ');
  if (typeof value === 'string') return shell === 'sh' ? quoteSh(value) : quotePs(value);
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new TypeError(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return shell === 'ps' ? (value ? '$true' : '$false') : String(value);
  throw new TypeError(`cannot interpolate ${value === null ? 'null' : typeof value} into a ${shell} script`);
}

/** What `script` lets a batch do for it, to carry over to a script made from it. */
function usesOf(script: Script): ScriptUses {
  const { statPaths, namedStatPaths, readPaths, sharesShell } = script;
  return { statPaths, namedStatPaths, readPaths, sharesShell };
}

/** The stat or read paths of the scripts embedded in `values`, in order, each once. */
function pathsOf(values: readonly unknown[], which: UsedPaths): string[] {
  const paths = new Set<string>();
  const visit = (v: unknown): void => {
    if (v instanceof Script) for (const p of v[which]) paths.add(p);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  values.forEach(visit);
  return [...paths];
}

/** A script of `text` carrying the paths of the scripts it embeds. */
function composed(shell: Shell, text: string, parts: readonly unknown[]): Script {
  return new Script(shell, text, {
    statPaths: pathsOf(parts, 'statPaths'),
    namedStatPaths: pathsOf(parts, 'namedStatPaths'),
    readPaths: pathsOf(parts, 'readPaths'),
  });
}

function tag(shell: Shell) {
  return (strings: TemplateStringsArray, ...values: Part[]): Script => {
    let text = strings[0]!;
    values.forEach((v, i) => {
      text += render(shell, v) + strings[i + 1];
    });
    return composed(shell, text, values);
  };
}

export const sh = tag('sh');
export const ps = tag('ps');

/** Joins scripts of one shell with a separator (default: newline). */
export function joinScripts(shell: Shell, scripts: readonly Script[], separator = '\n'): Script {
  for (const s of scripts) if (s.shell !== shell) throw new TypeError(`cannot join a ${s.shell} script into ${shell}`);
  return composed(shell, scripts.map((s) => s.text).join(separator), scripts);
}
