// The read-only probe of one filesystem path, shared by the file-like steps. Output format
// (one record per line; the content section only for regular files when asked for):
//
//   type absent | type symlink | type other | type directory | type file
//   stat <mode octal> <uid> <gid> <size> [<owner name>:<group name>]  (directory and file; the names
//                                          only when asked for, and may hold spaces: shared-stat.ts)
//   base64 / <base64 lines> / end          (file of at most contentLimit bytes), or
//   sha256 <64 hex>  -                     (larger file: only its digest)
//
// GNU stat prints UNKNOWN for an id without a name; ids are printed too, so nothing is lost.
import { boundedMemo } from '../../runner/core/bounded-memo.js';
import { Script, sh, sharesShell } from '../../runner/core/quote.js';
import { STAT_SIZE, statLineScript } from '../../runner/core/shared-stat.js';
import { contentReadScript } from '../../runner/core/content-read.js';
import type { ProbeLines } from './probe-lines.js';
import { sha256Hex, textOf } from '../common/content.js';

export { sha256Hex, textOf };

export type FsType = 'file' | 'directory' | 'symlink' | 'other';

export interface FsStat {
  /** Four octal digits, e.g. '0644', '2775'. */
  readonly mode: string;
  readonly uid: string;
  readonly gid: string;
  /** The owner's and group's names; null when the probe did not ask for them (FsProbeOptions.names). */
  readonly owner: string | null;
  readonly group: string | null;
  readonly size: number;
}

export interface FsEntry {
  readonly type: FsType;
  /** For files and directories. */
  readonly stat: FsStat | null;
  /** For files, when content was asked for. */
  readonly sha256: string | null;
  /** The bytes of a file no larger than the content limit; null otherwise. */
  readonly content: Buffer | null;
}

export interface FsProbeOptions {
  /** Follow a symbolic link at the path (directories); otherwise a link is reported as such. */
  readonly follow?: boolean;
  /** Send files up to this many bytes, and a digest of larger ones; undefined: neither. */
  readonly contentLimit?: number;
  /** Report the owner's and group's names: for a step given either by name. */
  readonly names?: boolean;
}

/** An owner or group given as a number: an id, compared without its name. */
const isId = (principal: string) => /^\d+$/.test(principal);

/** The owner and group as a step that wants `desired` shows them: an id where it gave an id, else the name. */
export function principalsView(
  desired: { readonly owner?: string; readonly group?: string },
  st: FsStat,
): { owner: string | null; group: string | null } {
  return {
    owner: desired.owner !== undefined && isId(desired.owner) ? st.uid : st.owner,
    group: desired.group !== undefined && isId(desired.group) ? st.gid : st.group,
  };
}

/** Whether a step's owner and group need their names probed: one of them given by name. */
export function namesNeeded(owner: string | undefined, group: string | undefined): boolean {
  return [owner, group].some((p) => p !== undefined && !isId(p));
}

export function fsProbeScript(path: string, opts: FsProbeOptions = {}): Script {
  // A dangling link is the only link a following probe reports: there is nothing to follow.
  const isLink = opts.follow ? sh`[ -L ${path} ] && ! [ -e ${path} ]` : sh`[ -L ${path} ]`;
  // The stat line from the batch's one shared stat when there is one (shared-stat.ts), else its own.
  const names = opts.names === true;
  const statLine = sh`${statLineScript(path, { follow: opts.follow === true, names })} && printf 'stat %s\\n' "$play_st"`;
  // The size from the stat line; `&&` so a failed stat prints nothing more.
  const content =
    opts.contentLimit === undefined
      ? sh``
      : sh` && ${STAT_SIZE}; if [ "$play_sz" -le ${opts.contentLimit} ]; then echo base64; ${contentReadScript(path)} && echo end; else printf 'sha256 '; LC_ALL=C sha256sum < ${path}; fi`;
  const script = sh`if ${isLink}; then echo 'type symlink'
elif [ -d ${path} ]; then echo 'type directory'; ${statLine}
elif [ -f ${path} ]; then echo 'type file'; ${statLine}${content}
elif [ -e ${path} ] || [ -L ${path} ]; then echo 'type other'
else echo 'type absent'; fi`;
  return sharesShell(
    new Script('sh', script.text, {
      statPaths: [path],
      namedStatPaths: names ? [path] : [],
      readPaths: script.readPaths,
    }),
  );
}

/** Reads base64 lines up to a line `end` (after the section's header line was read). */
export function readBase64Section(lines: ProbeLines): Buffer {
  return Buffer.from(readBase64Text(lines), 'base64');
}

function readBase64Text(lines: ProbeLines): string {
  const chunks: string[] = [];
  for (let line = lines.next("base64 data or 'end'"); line !== 'end'; line = lines.next("base64 data or 'end'")) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(line)) lines.fail(`not base64: ${JSON.stringify(line.slice(0, 80))}`);
    chunks.push(line);
  }
  return chunks.join('');
}

/** The digest of the bytes a base64 text stands for: every host of a run sends the same few files. */
const digestOfBase64 = boundedMemo((text: string) => sha256Hex(Buffer.from(text, 'base64')), 64);

export function parseFsProbe(lines: ProbeLines, opts: FsProbeOptions = {}): FsEntry | null {
  const type = lines.record('type');
  if (type === 'absent') return null;
  if (type === 'symlink' || type === 'other') return { type, stat: null, sha256: null, content: null };
  if (type !== 'file' && type !== 'directory') lines.fail(`unknown type ${JSON.stringify(type)}`);
  const m = lines.match('stat', /^([0-7]{1,4}) (\d+) (\d+) (\d+)(?: ([^:]+):(.+))?$/);
  if (opts.names && m[5] === undefined) lines.fail('the stat line has no owner and group names');
  // A line with names the probe did not ask for (none prints one: shared-stat.ts) parses without them.
  const stat: FsStat = {
    mode: m[1]!.padStart(4, '0'),
    uid: m[2]!,
    gid: m[3]!,
    owner: opts.names ? m[5]! : null,
    group: opts.names ? m[6]! : null,
    size: Number(m[4]),
  };
  if (type === 'directory' || opts.contentLimit === undefined) return { type, stat, sha256: null, content: null };
  if (lines.peek() === 'base64') {
    lines.next('base64');
    const text = readBase64Text(lines);
    return { type, stat, sha256: digestOfBase64(text), content: Buffer.from(text, 'base64') };
  }
  const d = lines.match('sha256', /^([0-9a-f]{64})(?:\s+-)?$/);
  return { type, stat, sha256: d[1]!, content: null };
}

/** A desired owner or group given as a number is compared with the id, a name with the name. */
export function principalMatches(desired: string, name: string | null, id: string): boolean {
  if (isId(desired)) return desired === id;
  if (name === null) throw new Error(`cannot compare ${JSON.stringify(desired)}: the probe did not ask for names`);
  return desired === name;
}

export function describeType(type: FsType): string {
  switch (type) {
    case 'file':
      return 'a regular file';
    case 'directory':
      return 'a directory';
    case 'symlink':
      return 'a symbolic link';
    case 'other':
      return 'a special file (device, socket or FIFO)';
  }
}
