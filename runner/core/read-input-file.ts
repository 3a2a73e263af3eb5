// The one reader of files a user hands play (inventories, group_vars/host_vars, waivers, `--limit
// @file`). It opens without blocking, so a FIFO cannot hang the open; it checks the opened
// descriptor, so what is checked is what is read (no race between a stat and the open); it refuses
// anything but a regular file (a pipe, a socket, /dev/zero) and reads at most the kind's limit, so
// a hostile path is one clear error, never a hang or gigabytes of memory.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { InputError } from './errors.js';

const MiB = 1024 * 1024;

/** What a file is read as: named in messages, with its size limit (documented in README.md, Limits). */
export interface InputFileKind {
  /** `an inventory file`. */
  readonly noun: string;
  readonly maxBytes: number;
  /** How to get under the limit. */
  readonly tooLargeHint: string;
}

export const INVENTORY_FILE: InputFileKind = {
  noun: 'an inventory file',
  maxBytes: 64 * MiB,
  tooLargeHint: 'split it into several files of an inventory directory',
};
export const VARS_FILE: InputFileKind = {
  noun: 'a vars file',
  maxBytes: 64 * MiB,
  tooLargeHint: 'split it into several files of a group_vars/ or host_vars/ directory',
};
export const WAIVERS_FILE: InputFileKind = {
  noun: 'a waivers file',
  maxBytes: 4 * MiB,
  tooLargeHint: 'waive whole groups with host patterns rather than host by host',
};
export const LIMIT_FILE: InputFileKind = {
  noun: 'a limit file',
  maxBytes: 4 * MiB,
  tooLargeHint: 'put those hosts in a group of the inventory and limit to the group',
};

/**
 * Why a file could not be read. `why` and `code` are set when the system refused it (missing,
 * permission denied, ...), for callers that word that case their own way.
 */
export type UnreadableReason = 'missing' | 'denied' | 'unreadable' | 'loop' | 'directory' | 'not-regular' | 'too-large';

export class InputFileError extends InputError {
  constructor(
    readonly file: string,
    readonly reason: UnreadableReason,
    readonly detail: string,
    readonly why?: string,
    readonly code?: string,
  ) {
    super(`${file}: ${detail}`);
  }
}

const LOOP_DETAIL = 'is a symbolic link loop (a link that leads back to itself): remove it or point it at a file';

/** The text (UTF-8) of `file`, a regular file of at most `kind.maxBytes`; else an InputFileError (exit 65). */
export function readInputFile(file: string, kind: InputFileKind): string {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw openError(file, kind.noun, e as NodeJS.ErrnoException);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new InputFileError(file, 'directory', `is a directory: expected ${kind.noun}`);
    if (!stat.isFile())
      throw new InputFileError(
        file,
        'not-regular',
        `is ${specialFile(stat)}, not a regular file: expected ${kind.noun}`,
      );
    if (stat.size > kind.maxBytes) throw tooLarge(file, kind, stat.size);
    return readAll(fd, file, kind, stat.size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** Reads to the end, at most `kind.maxBytes`: a file may grow after fstat, and /proc files say size 0. */
function readAll(fd: number, file: string, kind: InputFileKind, size: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(size, 8192), kind.maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > kind.maxBytes) throw tooLarge(file, kind);
      const grown = Buffer.allocUnsafe(Math.min(buffer.length * 2, kind.maxBytes + 1));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const n = readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

/**
 * What is at `path`, following links: a symbolic link loop is an InputFileError naming it, where
 * fs would throw ELOOP (or, like existsSync, call it missing).
 */
export function inputPathKind(path: string): 'file' | 'directory' | 'other' | 'missing' {
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new InputFileError(path, 'loop', LOOP_DETAIL);
    if (code === 'ENOTDIR') return 'missing';
    throw openError(path, 'it', e as NodeJS.ErrnoException);
  }
  if (!stat) return 'missing';
  return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : 'other';
}

function openError(file: string, noun: string, e: NodeJS.ErrnoException): InputFileError {
  const code = e.code;
  if (code === 'ELOOP') return new InputFileError(file, 'loop', LOOP_DETAIL, undefined, code);
  // open(2) on a socket fails with ENXIO: there is nothing to read from it.
  if (code === 'ENXIO')
    return new InputFileError(file, 'not-regular', `is a socket, not a regular file: expected ${noun}`);
  const [reason, why]: [UnreadableReason, string] =
    code === 'ENOENT' || code === 'ENOTDIR'
      ? ['missing', 'no such file']
      : code === 'EACCES' || code === 'EPERM'
        ? ['denied', 'permission denied']
        : ['unreadable', e.message];
  return new InputFileError(file, reason, `cannot read ${noun} (${why})`, why, code);
}

function specialFile(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'a special file';
}

function tooLarge(file: string, kind: InputFileKind, size?: number): InputFileError {
  const limit = bytes(kind.maxBytes);
  const shown = size === undefined ? `larger than ${limit}` : bytes(size);
  return new InputFileError(
    file,
    'too-large',
    `is ${shown}, more than the ${limit} play reads from ${kind.noun}: ${kind.tooLargeHint}`,
  );
}

const bytes = (n: number) => (n >= MiB ? `${Number((n / MiB).toFixed(1))} MiB` : `${n} bytes`);
