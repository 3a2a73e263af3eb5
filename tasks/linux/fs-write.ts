// Writing files and attributes on the host. Content travels on stdin, or, when it is small text and
// no secret, in the script itself, written by the shell's own printf: a `cat` (and the decoding and
// splitting of a shared stdin) fewer on the host for every file. A write goes to a
// temp file in the target's directory (same filesystem, so the rename is atomic), gets its final
// mode and ownership before it becomes visible, and, when its content was computed from what the
// probe read, is renamed only if the file still has the probed digest: a concurrent edit makes
// apply fail instead of being silently overwritten.
//
// In a kept shell (runner/transport/kept-shell.ts), whose commands travel in its own stream and never
// on a command line, each command has `$play_private`, a fresh random value no other process can read.
// There the shell makes the temp file itself, as mktemp would: under a name no one can guess (that
// value and this write's nonce), exclusively, and, for a mode without an execute or special bit, with
// that mode from the umask (a shell creates files 0666 & ~umask): a `mktemp` and a `chmod` fewer on
// the host for every file written. Exclusively: noclobber opens a new file with O_EXCL but an existing
// non-regular one (a symlink to a device) as it is, so the script first refuses anything at the name;
// to plant something there in between, one would have to know it. A script sent as an exec (its text
// in the host's process list) has no `$play_private`, and uses mktemp and chmod.
//
// Known limit: a rename cannot replace a file that is itself a mount point (a bind-mounted file);
// such a write fails with "Device or resource busy". Bind-mounted directories are fine.
import { posix } from 'node:path';
import type { Change, Fields } from '../../runner/core/change.js';
import { joinScripts, sh, type Script } from '../../runner/core/quote.js';
import { mustRun } from '../../runner/core/remote.js';
import type { Secret } from '../../runner/core/secret.js';
import { newNonce } from '../../runner/core/nonce.js';
import type { Remote } from '../../runner/core/step.js';
import { describeType, type FsEntry, type FsType } from './fs-probe.js';

/** The exit status of a guarded write whose file changed after the probe (EX_TEMPFAIL). */
export const CHANGED_SINCE_PROBE = 75;
/** The exit status of a write whose temp file's name was taken (EX_CANTCREAT). */
const TEMP_EXISTS = 73;

export interface WriteTarget {
  readonly path: string;
  /** Final mode; undefined: the umask default of a new file (0666 & ~umask). */
  readonly mode?: string;
  /** Final owner and group; undefined: whoever runs the script. */
  readonly owner?: string;
  readonly group?: string;
  /** The sha256 the file must still have just before the rename, or 'absent'; undefined: no guard. */
  readonly expect?: string;
  /** The content, written by the script itself (inlineContent); undefined: the script's stdin. */
  readonly content?: string;
}

/** The most content a script carries in its text; larger content goes on stdin. */
export const INLINE_CONTENT_LIMIT = 16 * 1024;

/**
 * `content` when a script may carry it in its text: a string (never a Secret: a script's text may be
 * traced, stdin never is) without NUL (no shell string holds one), of at most INLINE_CONTENT_LIMIT
 * characters. Undefined: send it on stdin.
 */
export function inlineContent(content: string | Secret | Buffer): string | undefined {
  if (typeof content !== 'string' || content.length > INLINE_CONTENT_LIMIT || content.includes('\0')) return undefined;
  return content;
}

/** The umask that makes a new file `mode`: null for a mode with an execute or special bit, which needs a chmod. */
export function umaskFor(mode: string): string | null {
  const m = Number.parseInt(mode, 8);
  return (m & ~0o666) === 0 ? (0o777 & ~m).toString(8).padStart(4, '0') : null;
}

/** The script of one write; it relies on `set -e` (see runApply) to stop at a failed step. */
export function atomicWriteScript(t: WriteTarget): Script {
  const dir = posix.dirname(t.path);
  const prefix = `${dir === '/' ? '' : dir}/.play-`;
  // printf is a builtin of every sh: '%s' writes its argument byte for byte, `%` and `\` included.
  const write = t.content === undefined ? sh`cat > "$play_tmp"` : sh`printf '%s' "$play_content" > "$play_tmp"`;
  const umask = t.mode === undefined ? undefined : umaskFor(t.mode);
  const own = ownershipScript(sh`"$play_tmp"`, t.owner, t.group);
  const parts: Script[] = [
    ...(t.content === undefined ? [] : [sh`play_content=${t.content}`]),
    sh`if [ -n "\${play_private-}" ]; then`,
    sh`play_tmp=${prefix}"$play_private"${`-${newNonce()}`}`,
    sh`if [ -e "$play_tmp" ] || [ -L "$play_tmp" ]; then printf '%s: something is already there; not writing through it\n' "$play_tmp" >&2; exit ${TEMP_EXISTS}; fi`,
    sh`trap 'rm -f "$play_tmp"' EXIT`,
    // Created and written by one redirection, so a read-only mode (0400) needs no second open.
    // Without a mode: the shell's own umask, as for any new file; a mode that needs a chmod starts
    // private (0600). The umask and noclobber stay in the subshell, away from the steps after it.
    umask === undefined ? sh`(set -C && ${write})` : sh`(umask ${umask ?? '0177'} && set -C && ${write})`,
    // Owner and group before the mode: a chown clears the setuid and setgid bits a chmod set.
    ...own,
    ...(t.mode !== undefined && umask === null ? [sh`chmod ${t.mode} "$play_tmp"`] : []),
    sh`else`,
    sh`play_tmp=$(mktemp ${`${prefix}XXXXXXXX`})`,
    sh`trap 'rm -f "$play_tmp"' EXIT`,
    write,
    ...own,
    t.mode !== undefined
      ? sh`chmod ${t.mode} "$play_tmp"`
      : sh`chmod "$(printf '%04o' $(( 0666 & ~$(umask) )))" "$play_tmp"`,
    sh`fi`,
  ];
  if (t.expect !== undefined) {
    const msg = `${t.path} changed since it was probed; not overwriting it (run again to plan from its new content)`;
    parts.push(
      sh`if [ -e ${t.path} ] || [ -L ${t.path} ]; then play_now=$(LC_ALL=C sha256sum < ${t.path}); play_now=\${play_now%% *}; else play_now=absent; fi`,
      sh`if [ "$play_now" != ${t.expect} ]; then printf '%s\\n' ${msg} >&2; exit ${CHANGED_SINCE_PROBE}; fi`,
    );
  }
  parts.push(sh`mv -f "$play_tmp" ${t.path}`, sh`trap - EXIT`);
  return joinScripts('sh', parts);
}

/**
 * GNU chmod keeps a directory's setuid/setgid bits for a 4-digit numeric mode; the extra
 * leading zero makes the mode exact, so that a desired '0755' really clears a setgid bit.
 */
export function chmodScript(path: string, mode: string, isDirectory: boolean): Script {
  return sh`chmod ${isDirectory ? `0${mode}` : mode} ${path}`;
}

/**
 * Creates a directory (and its missing parents) with `mode` at once: `mkdir -m` sets it past the
 * umask, so no chmod runs unless the new directory has a setuid, setgid or sticky bit it should not
 * (a setgid parent passes its bit on to it), which the shell's own `test` sees. A mode with such a
 * bit of its own is set by chmod, as mkdir may not set one.
 */
export function mkdirScript(path: string, mode: string | undefined): Script {
  if (mode === undefined) return sh`mkdir -p ${path}`;
  if ((Number.parseInt(mode, 8) & 0o7000) !== 0) return sh`mkdir -p ${path}; ${chmodScript(path, mode, true)}`;
  return sh`mkdir -p -m ${mode} ${path}; if [ -u ${path} ] || [ -g ${path} ] || [ -k ${path} ]; then ${chmodScript(path, mode, true)}; fi`;
}

/**
 * Owner and group set by one program (`chown OWNER:GROUP`), or either alone; none: no script. `target`
 * is a path, or a script fragment that names one. Run it before any chmod of a file: on every chown of
 * a file, root's and an unchanged owner's included, Linux clears its setuid bit, and its setgid bit
 * where its group may execute it.
 */
function ownershipScript(target: string | Script, owner?: string, group?: string): Script[] {
  // A name never holds a colon (principal() in step-options.ts refuses one), so OWNER:GROUP is unambiguous.
  if (owner !== undefined && group !== undefined) return [sh`chown ${`${owner}:${group}`} ${target}`];
  if (owner !== undefined) return [sh`chown ${owner} ${target}`];
  if (group !== undefined) return [sh`chgrp ${group} ${target}`];
  return [];
}

/** The setters' order for a file: owner and group before the mode, as a chown clears bits a chmod set. */
export const FILE_APPLY_ORDER = ['content', 'owner', 'group', 'mode'] as const;

/**
 * applyFields' setters for owner and group: whichever of them changed, by one chown (ownershipScript),
 * handed to `push`. The group's setter runs it only when the owner did not change.
 */
export function ownershipSetters(
  path: string,
  change: Change,
  d: { readonly owner?: string; readonly group?: string },
  push: (scripts: Script[]) => void,
): { owner: () => Promise<void>; group: () => Promise<void> } {
  const changed = (f: 'owner' | 'group') => (change.fields.includes(f) ? d[f] : undefined);
  const both = async () => push(ownershipScript(path, changed('owner'), changed('group')));
  return {
    owner: both,
    group: async () => {
      if (!change.fields.includes('owner')) await both();
    },
  };
}

/** Runs the collected setter scripts as one script (one round trip), stopping at the first error. */
export async function runApply(
  remote: Remote,
  what: string,
  scripts: readonly Script[],
  stdin?: string | Buffer | Secret,
): Promise<void> {
  if (scripts.length === 0) return;
  const script = joinScripts('sh', [sh`set -e`, ...scripts]);
  await mustRun(remote, script, what, stdin === undefined ? undefined : { stdin });
}

/** The attributes a rewritten file keeps: its current ones, unless desired says otherwise. */
export function keptAttributes(
  actual: FsEntry | null,
  desired: { mode?: string; owner?: string; group?: string },
): Pick<WriteTarget, 'mode' | 'owner' | 'group'> {
  return {
    mode: desired.mode ?? actual?.stat?.mode,
    owner: desired.owner ?? actual?.stat?.uid,
    group: desired.group ?? actual?.stat?.gid,
  };
}

function refusal(path: string, type: FsType, expected: FsType): string {
  return `${path} is ${describeType(type)}, not ${describeType(expected)}: apply will refuse to replace it (remove it first)`;
}

/**
 * The plan for a path held by the wrong kind of object. We never delete what we did not make, so
 * the plan says what it would take and apply refuses (see refuseWrongType).
 */
export function wrongTypeChange(path: string, type: FsType, expected: FsType, field: string, after: Fields): Change {
  return {
    action: 'update',
    fields: [field],
    before: { [field]: `<${describeType(type)}>` },
    after,
    warnings: [refusal(path, type, expected)],
  };
}

export function refuseWrongType(path: string, actual: FsEntry | null, expected: FsType): void {
  if (actual !== null && actual.type !== expected)
    throw new Error(refusal(path, actual.type, expected).replace('apply will refuse', 'refusing'));
}
