// Opening the SQLite state store (better-sqlite3: SQLite's own C library with its OS file locks) and
// running reads and write transactions on it. The file is in WAL mode with synchronous=FULL: a commit
// is on disk when it returns, and a crash at any write (a kill, an OOM kill, a power cut) leaves a file
// that the next open rolls forward to its last commit, with nothing half written. Writers wait for one
// another through SQLite's busy timeout; readers never wait for a writer. No lock is ever broken by
// age: a writer stalled inside its transaction (SIGSTOP, a slow disk) makes the others wait, then say
// the store is busy (exit 75), and its transaction commits or rolls back whole when it resumes or dies.
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { errorCode, StoreBusyError, StorePathError, StoreWriteError, storeFailure } from '../store-errors.js';
import { migrate, SCHEMA_VERSION, storeVersion } from './schema.js';

export type Db = Database.Database;

/** How long a write waits for another process's transaction before the store counts as busy. */
export const WAIT_MS = 15_000;

export interface SqliteOpenOptions {
  /** 'read': never creates the file (a read-only command); 'write': creates and upgrades it. */
  readonly mode: 'read' | 'write';
  /** How long to wait for another process's write lock (default WAIT_MS; tests shorten it). */
  readonly busyWaitMs?: number;
}

/** Why `path` cannot be written, as precisely as the filesystem says. */
function unwritableReason(path: string): string | null {
  const target = existsSync(path) ? path : dirname(path);
  try {
    accessSync(target, constants.W_OK);
    return null;
  } catch (e) {
    const code = errorCode(e);
    if (code === 'EROFS') return `is on a read-only filesystem (${target})`;
    if (code === 'EACCES' || code === 'EPERM') return `is not writable by this user (${target})`;
    return null;
  }
}

/** The directory a new store goes in: made if missing; a path under a regular file is the user's mistake. */
function makeParent(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  } catch (e) {
    const code = errorCode(e);
    if (code === 'ENOTDIR' || code === 'EEXIST')
      throw new StorePathError(
        `state store ${path}: a part of its directory is a file, not a directory; pass --state (or PLAY_STATE) to a file in a directory`,
      );
    const why = unwritableReason(dirname(path));
    if (why)
      throw new StoreWriteError(path, `its directory ${why}`, 'pass --state (or PLAY_STATE) to a writable place');
    throw e;
  }
  if (existsSync(path) && statSync(path).isDirectory())
    throw new StorePathError(`state store ${path}: is a directory; pass --state (or PLAY_STATE) to a file`);
}

/** Opens the file (null in read mode when there is none yet) and brings it to this play's schema. */
export function openDatabase(path: string, options: SqliteOpenOptions): SqliteConnection | null {
  if (options.mode === 'read' && !existsSync(path)) return null;
  if (options.mode === 'write') makeParent(path);
  // SQLite writes beside a WAL store even to read it (its shared-memory index), so a store that cannot
  // be written cannot be opened at all: say why, and keep the file.
  const why = unwritableReason(path);
  if (why)
    throw new StoreWriteError(
      path,
      why,
      'SQLite writes beside the store even to read it: copy it to a writable place and pass --state (or PLAY_STATE) to the copy',
    );
  const waitMs = options.busyWaitMs ?? WAIT_MS;
  let db: Db | undefined;
  try {
    db = new Database(path, { timeout: waitMs, fileMustExist: options.mode === 'read' });
    const conn = new SqliteConnection(db, path, waitMs);
    conn.init();
    return conn;
  } catch (e) {
    db?.close();
    throw failureOf(e, path, 'opening it', waitMs);
  }
}

function failureOf(e: unknown, path: string, doing: string, waitMs: number): unknown {
  if (errorCode(e) === 'SQLITE_BUSY' || errorCode(e) === 'SQLITE_LOCKED') return new StoreBusyError(path, waitMs);
  return storeFailure(e, path, doing) ?? e;
}

/** One open store file: reads, and write transactions that wait out other writers. */
export class SqliteConnection {
  constructor(
    readonly db: Db,
    readonly path: string,
    private readonly waitMs: number,
  ) {}

  /**
   * Pragmas and the schema: a file that is not play's is refused first, then WAL and durable commits.
   * The write lock is taken only when there is something to migrate (and the version is checked again
   * under it): opening a current store never waits for a writer, so a stalled writer blocks no reader.
   */
  init(): void {
    this.db.pragma('foreign_keys = ON');
    const version = storeVersion(this.db, this.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    if (version < SCHEMA_VERSION) this.db.transaction(() => migrate(this.db, this.path)).immediate();
  }

  /** A read (WAL: it never waits for a writer). `doing` names it in messages. */
  read<T>(doing: string, fn: (db: Db) => T): T {
    try {
      return fn(this.db);
    } catch (e) {
      throw failureOf(e, this.path, doing, this.waitMs);
    }
  }

  /**
   * `fn` in one IMMEDIATE transaction: the write lock is taken up front, so two processes cannot both read
   * a free lease and both take it; all of it commits, durably, or none of it.
   */
  write<T>(doing: string, fn: (db: Db) => T): T {
    try {
      return this.db.transaction(fn).immediate(this.db);
    } catch (e) {
      throw failureOf(e, this.path, doing, this.waitMs);
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
