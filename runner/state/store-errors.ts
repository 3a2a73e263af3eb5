// What can go wrong with the state store that a user can act on, each with its exit code (README): the
// store busy past its wait (75), not writable (74: a read-only filesystem, no permission, a full disk),
// not play's or damaged (65), a --state path that cannot be a file (64). Messages name the store and what
// to do; none invites deleting a store that may hold a journal.
import { PlayError } from '../core/errors.js';

/** Another process held the store's write lock for longer than play waits: exit 75 (EX_TEMPFAIL). */
export class StoreBusyError extends PlayError {
  constructor(location: string, waitedMs: number) {
    super(
      `state store ${location} stayed locked by another process for ${waitedMs / 1000} s (another play, or a ` +
        'sqlite3 shell holding a transaction); nothing was lost: try again when it is done',
      75,
    );
  }
}

/** The store cannot be written: exit 74 (EX_IOERR). */
export class StoreWriteError extends PlayError {
  constructor(location: string, why: string, what: string) {
    super(`state store ${location}: ${why}; ${what}`, 74);
  }
}

/** The file is not a play state store, is damaged, or is from a newer play: exit 65 (EX_DATAERR). */
export class StoreInvalidError extends PlayError {
  constructor(message: string) {
    super(message, 65);
  }
}

/** The state store's location itself is wrong (a path under a regular file): exit 64 (EX_USAGE). */
export class StorePathError extends PlayError {
  constructor(message: string) {
    super(message, 64);
  }
}

/** The error's code from Node (`ENOSPC`) or SQLite (`SQLITE_FULL`), if any. */
export function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

const UNWRITABLE = ['SQLITE_READONLY', 'EROFS', 'EACCES', 'EPERM', 'SQLITE_CANTOPEN', 'SQLITE_PERM'];
const FULL = ['SQLITE_FULL', 'ENOSPC', 'EDQUOT'];

/**
 * The user-facing error for a failure of the store at `location` while `doing` (a sentence fragment:
 * 'saving the drift run'), or null when it is not one a user can act on (a bug: let it surface).
 */
export function storeFailure(e: unknown, location: string, doing: string): PlayError | null {
  if (e instanceof PlayError) return e;
  const code = errorCode(e);
  const detail = e instanceof Error ? e.message : String(e);
  if (FULL.some((c) => code.startsWith(c)))
    return new StoreWriteError(
      location,
      `the disk is full (${detail}) while ${doing}`,
      'nothing of it was recorded; free space and run again',
    );
  if (UNWRITABLE.some((c) => code.startsWith(c)))
    return new StoreWriteError(
      location,
      `cannot be written (${detail}) while ${doing}: a read-only filesystem or no permission`,
      'pass --state (or PLAY_STATE) to a writable place; the file itself is fine to keep',
    );
  if (code.startsWith('SQLITE_IOERR'))
    return new StoreWriteError(location, `an I/O error (${detail}) while ${doing}`, 'check the disk, then run again');
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
    return new StoreInvalidError(
      `state store ${location}: ${code === 'SQLITE_NOTADB' ? 'not an SQLite database' : 'damaged'} (${detail}); ` +
        'keep the file (it may hold a rolling journal), see what is wrong with play state check, and pass --state ' +
        'to use another store meanwhile',
    );
  return null;
}
