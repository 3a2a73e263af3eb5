// Commands are built from parts with quoting tags, never by joining strings: every interpolated
// value is data and arrives on the host as the literal text it was.
//   sh`mkdir -p ${path}`  -> mkdir -p '/srv/a b'
//   ps`Get-Item ${path}`  -> Get-Item '/srv/a b'
// A Script of the same shell interpolates as-is (composition); raw() marks trusted text.
// A Secret is refused: secrets never go on a command line (send them on stdin).
import { isSecret } from './secret.js';

export type Shell = 'sh' | 'ps';

export class Script {
  constructor(
    readonly shell: Shell,
    readonly text: string,
    /** Paths whose stat line the script reads from the one `stat` a probe batch may run for all its
     *  probes (shared-stat.ts); the script works the same without it. */
    readonly statPaths: readonly string[] = [],
  ) {}
  toString(): string {
    return this.text;
  }
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

/** The stat paths of the scripts embedded in `values`, in order, each once. */
function statPathsOf(values: readonly unknown[]): string[] {
  const paths = new Set<string>();
  const visit = (v: unknown): void => {
    if (v instanceof Script) for (const p of v.statPaths) paths.add(p);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  values.forEach(visit);
  return [...paths];
}

function tag(shell: Shell) {
  return (strings: TemplateStringsArray, ...values: Part[]): Script => {
    let text = strings[0]!;
    values.forEach((v, i) => {
      text += render(shell, v) + strings[i + 1];
    });
    return new Script(shell, text, statPathsOf(values));
  };
}

export const sh = tag('sh');
export const ps = tag('ps');

/** Joins scripts of one shell with a separator (default: newline). */
export function joinScripts(shell: Shell, scripts: readonly Script[], separator = '\n'): Script {
  for (const s of scripts) if (s.shell !== shell) throw new TypeError(`cannot join a ${s.shell} script into ${shell}`);
  return new Script(shell, scripts.map((s) => s.text).join(separator), statPathsOf(scripts));
}
