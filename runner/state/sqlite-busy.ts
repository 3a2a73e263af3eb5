// Waiting for the SQLite state store's file lock. node-sqlite3-wasm's VFS (dist/node-sqlite3-wasm.js,
// _nodejsLock and _nodejsUnlock) locks the database by creating the directory `<db>.lock` (mkdir is
// atomic) at any lock level, reads included, removes it when back to no lock, and answers SQLITE_BUSY
// ("database is locked") while it exists; no busy timeout is set. Two play processes (a drift run and
// a rolling run, or two rolling runs racing for the rolling lock) meet on that directory, so every read
// and write here retries for a while instead of failing at once.
import { renameSync, rmSync, statSync } from 'node:fs';
import type sqlite from 'node-sqlite3-wasm';
import { PlayError } from '../core/errors.js';

export type Db = InstanceType<typeof sqlite.Database>;

/** How long a read or a transaction waits for another process's transaction to end: longer than
 *  STALE_LOCK_MS, so a lock left by a killed process is outlived and removed, never reported. */
export const WAIT_MS = 15_000;

/**
 * A lock directory older than this was left by a process killed mid-transaction (SIGKILL, power loss):
 * it would block the store forever. Removing it is safe enough because play's transactions last
 * milliseconds (a drift run's save of thousands of items well under a second), so no live process
 * holds the file lock for 10 seconds. Known limit: this VFS's xCheckReservedLock counts our own lock
 * directory as another's, so SQLite never rolls back a hot journal; a process killed inside COMMIT
 * leaves its transaction half-applied, with or without this removal.
 */
const STALE_LOCK_MS = 10_000;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** The API is synchronous, so the wait is too: Atomics.wait blocks this thread without spinning. */
function sleep(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

function isBusy(e: unknown): boolean {
  return e instanceof Error && /database is locked/.test(e.message);
}

function ageMs(dir: string): number | null {
  try {
    return Date.now() - statSync(dir).mtimeMs;
  } catch {
    return null;
  }
}

/** Removes `<db>.lock` when it is stale; returns whether it did. */
function removeStaleLock(path: string): boolean {
  const dir = `${path}.lock`;
  const age = ageMs(dir);
  if (age === null || age < STALE_LOCK_MS) return false;
  // Moved aside before it is removed, then checked again: if another process removed the same stale
  // directory and took the lock between our stat and here, what we moved is its fresh lock: put it back.
  const aside = `${dir}.stale-${process.pid}`;
  try {
    renameSync(dir, aside);
  } catch {
    return false;
  }
  const asideAge = ageMs(aside);
  if (asideAge !== null && asideAge < STALE_LOCK_MS) {
    try {
      renameSync(aside, dir);
    } catch {
      rmSync(aside, { recursive: true, force: true });
    }
    return false;
  }
  rmSync(aside, { recursive: true, force: true });
  return true;
}

/** The store's file was locked by another process for longer than a transaction takes: exit 75 (EX_TEMPFAIL). */
export class StoreBusyError extends PlayError {
  constructor(path: string, waitedMs: number) {
    super(
      `state store ${path} stayed locked (${path}.lock) by another play for ${waitedMs / 1000} s; ` +
        `try again, or if no play is running, remove ${path}.lock`,
      75,
    );
  }
}

/** A database handle whose reads and transactions wait out another process's lock. */
export class SqliteConnection {
  constructor(
    readonly db: Db,
    readonly path: string,
    private readonly waitMs = WAIT_MS,
  ) {}

  /** Runs `fn` (reads, or a single statement in autocommit) again while the file is locked. */
  retry<T>(fn: (db: Db) => T): T {
    const deadline = Date.now() + this.waitMs;
    for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
      try {
        return fn(this.db);
      } catch (e) {
        if (!isBusy(e)) throw e;
        if (removeStaleLock(this.path)) continue;
        if (Date.now() >= deadline) throw new StoreBusyError(this.path, this.waitMs);
        // Jittered, so two processes that collided do not retry in step.
        sleep(delay * (0.5 + Math.random()));
      }
    }
  }

  /**
   * Runs `fn` in a write transaction, retried whole while the file is locked. BEGIN IMMEDIATE takes the
   * file lock up front (with this VFS one lock for every level), so two processes cannot both read the
   * rolling lock's row as free and both take it; once it is held, no statement inside can be busy.
   */
  transaction<T>(fn: (db: Db) => T): T {
    return this.retry((db) => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = fn(db);
        db.exec('COMMIT');
        return result;
      } catch (e) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw e;
      }
    });
  }
}
