// The state store in one SQLite file (better-sqlite3): the drift history (drift.ts) and the rolling
// journal with its lease (rollouts.ts) are rows in it, read and written through one connection
// (connection.ts) that keeps the file in WAL mode and its schema current (schema.ts).
import type { StateStore, StoreCheck } from '../store.js';
import { openDatabase, type SqliteConnection, type SqliteOpenOptions } from './connection.js';
import { SqliteDriftHistory } from './drift.js';
import { SqliteRolloutJournal, type SqliteRolloutOptions } from './rollouts.js';
import { SqliteKbQuarantine } from './quarantine.js';
import { SqliteScheduleClaims } from './schedules.js';
import { SCHEMA_VERSION } from './schema.js';

export type SqliteStoreOptions = SqliteRolloutOptions & Partial<SqliteOpenOptions>;

function count(conn: SqliteConnection, table: string): number {
  return Number((conn.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
}

function storeOn(conn: SqliteConnection, options: SqliteRolloutOptions): StateStore {
  const id = conn.read(
    "reading the store's id",
    (db) => (db.prepare("SELECT value FROM meta WHERE key = 'store_id'").get() as { value: string }).value,
  );
  return {
    location: conn.path,
    id,
    drift: new SqliteDriftHistory(conn),
    rollouts: new SqliteRolloutJournal(conn, options),
    schedules: new SqliteScheduleClaims(conn, options.now),
    quarantine: new SqliteKbQuarantine(conn),
    check: async (): Promise<StoreCheck> =>
      conn.read('checking it', (db) => {
        const integrity = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
        const keys = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[];
        return {
          location: conn.path,
          schema: SCHEMA_VERSION,
          problems: [
            ...integrity.filter((r) => r !== 'ok'),
            ...keys.map((k) => `${k.table} row ${k.rowid}: no ${k.parent} row it refers to`),
          ],
          driftRuns: count(conn, 'drift_runs'),
          rollouts: count(conn, 'rollout_runs'),
        };
      }),
    // SQLite's online backup: a consistent copy page by page while other processes go on writing.
    backup: async (file) => {
      await conn.db.backup(file);
    },
    close: async () => conn.close(),
  };
}

/**
 * Opens the store at `path`, creating it (mode 'write', the default) and upgrading an older file; in
 * mode 'read' a missing file is null (nothing recorded yet), never created. A file that is not play's,
 * one from a newer play, a busy, unwritable or damaged file: the errors of store-errors.ts.
 */
export function openSqliteStore(path: string, options?: SqliteStoreOptions & { mode?: 'write' }): StateStore;
export function openSqliteStore(path: string, options: SqliteStoreOptions): StateStore | null;
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): StateStore | null {
  const conn = openDatabase(path, { mode: options.mode ?? 'write', busyWaitMs: options.busyWaitMs });
  return conn ? storeOn(conn, options) : null;
}
