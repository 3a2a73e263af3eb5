// The state store in one SQLite file (node-sqlite3-wasm: SQLite compiled to WebAssembly, reading and
// writing the file itself; no native build). This file opens it and keeps its schema; the drift
// history (sqlite-drift.ts) and the rolling runs' journal with its lock (sqlite-rollouts.ts) are rows
// in it, read and written through a connection that waits out other processes (sqlite-busy.ts).
// The schema carries its version: an older file is upgraded in place, a newer one refused rather than misread.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { InputError, PlayError } from '../core/errors.js';
import { type Db, SqliteConnection } from './sqlite-busy.js';
import { SqliteDriftHistory } from './sqlite-drift.js';
import { SqliteRolloutJournal, type SqliteRolloutOptions } from './sqlite-rollouts.js';
import type { StateStore } from './store.js';

/** 1: drift history. 2: the rolling runs' journal and lock. */
const SCHEMA_VERSION = 2;

// Every statement is IF NOT EXISTS: run whole on a new file it makes everything, on an older one it
// adds what that version lacked (no version so far changed an existing table).
const SCHEMA = `
CREATE TABLE IF NOT EXISTS drift_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS drift_run_playbooks (
  run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
  playbook TEXT NOT NULL,
  PRIMARY KEY (run_id, playbook)
);
CREATE TABLE IF NOT EXISTS drift_run_hosts (
  run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  judged INTEGER NOT NULL,
  PRIMARY KEY (run_id, host)
);
CREATE TABLE IF NOT EXISTS drift_items (
  run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  playbook TEXT NOT NULL,
  task TEXT NOT NULL,
  target TEXT NOT NULL,
  status TEXT NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (run_id, host, playbook, task, target)
);
CREATE INDEX IF NOT EXISTS drift_run_hosts_host ON drift_run_hosts (host, judged, run_id);

CREATE TABLE IF NOT EXISTS rollout_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  playbook TEXT NOT NULL,
  inventory_key TEXT NOT NULL,
  status TEXT NOT NULL,
  reason TEXT,
  started_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  pid INTEGER NOT NULL,
  controller TEXT NOT NULL,
  took_over TEXT,
  record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rollout_runs_inventory ON rollout_runs (inventory_key, status, playbook);
CREATE TABLE IF NOT EXISTS rollout_events (
  run_id INTEGER NOT NULL REFERENCES rollout_runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  host TEXT NOT NULL,
  phase TEXT NOT NULL,
  state TEXT NOT NULL,
  at TEXT NOT NULL,
  detail TEXT,
  data TEXT,
  PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS rollout_locks (
  inventory_key TEXT PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES rollout_runs(id) ON DELETE CASCADE,
  pid INTEGER NOT NULL,
  controller TEXT NOT NULL,
  since TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rollout_locks_run ON rollout_locks (run_id);
`;

type Row = Record<string, unknown>;

/** Checks the file's version and brings it to this one; inside the opening transaction. */
function upgrade(db: Db, path: string): void {
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const row = db.get("SELECT value FROM meta WHERE key = 'schema_version'") as Row | null;
  // No version: a new file.
  const version = row ? Number(row.value) : 0;
  if (version > SCHEMA_VERSION)
    throw new InputError(
      `state store ${path}: written by a newer play (schema ${version}, this one reads ${SCHEMA_VERSION}); upgrade play`,
    );
  if (version === SCHEMA_VERSION) return;
  db.exec(SCHEMA);
  db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", [String(SCHEMA_VERSION)]);
}

/**
 * Opens (creating if needed) the store at `path`, upgrading an older file; a file that is not play's
 * store, or one from a newer play, is an InputError naming it. `options`: the rolling lock's liveness
 * check and clock (tests).
 */
export function openSqliteStore(path: string, options: SqliteRolloutOptions = {}): StateStore {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let db: Db | undefined;
  try {
    db = new sqlite.Database(path);
    db.exec('PRAGMA foreign_keys = ON');
    const conn = new SqliteConnection(db, path, options.busyWaitMs);
    // One IMMEDIATE transaction: two plays opening an old file at once upgrade it once.
    conn.transaction((d) => upgrade(d, path));
    const open = db;
    return {
      location: path,
      drift: new SqliteDriftHistory(conn),
      rollouts: new SqliteRolloutJournal(conn, options),
      close: () => {
        if (open.isOpen) open.close();
      },
    };
  } catch (e) {
    if (db?.isOpen) db.close();
    if (e instanceof PlayError) throw e;
    throw new InputError(
      `state store ${path}: not a play state store (${(e as Error).message}); move it away or pass --state`,
    );
  }
}
