// The SQLite store's schema, as numbered migrations: a new file gets them all, an older one the ones it
// lacks, in one IMMEDIATE transaction (two plays opening an old file at once upgrade it once). A file
// from a newer play is refused rather than misread; a file that is some other program's database is
// refused rather than written into. Version 1: drift history. 2: the rolling journal and its lock.
// 3: the lock becomes a lease with a fencing number that journal events carry. 4: shared schedules' ticks, and the store's id.
// 5: quarantined KBs (a rolling run's rollback).
import type Database from 'better-sqlite3';
import { StoreInvalidError } from '../store-errors.js';

/** PRAGMA application_id of a play store ('play' in ASCII): how `file` and sqlite3 tell it apart. */
export const APPLICATION_ID = 0x706c6179;

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE drift_runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    record TEXT NOT NULL
  );
  CREATE TABLE drift_run_playbooks (
    run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
    playbook TEXT NOT NULL,
    PRIMARY KEY (run_id, playbook)
  );
  CREATE TABLE drift_run_hosts (
    run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
    host TEXT NOT NULL,
    judged INTEGER NOT NULL,
    PRIMARY KEY (run_id, host)
  );
  CREATE TABLE drift_items (
    run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
    host TEXT NOT NULL,
    playbook TEXT NOT NULL,
    task TEXT NOT NULL,
    target TEXT NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (run_id, host, playbook, task, target)
  );
  CREATE INDEX drift_run_hosts_host ON drift_run_hosts (host, judged, run_id);`,

  `CREATE TABLE rollout_runs (
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
  CREATE INDEX rollout_runs_inventory ON rollout_runs (inventory_key, status, playbook);
  CREATE TABLE rollout_events (
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
  CREATE TABLE rollout_locks (
    inventory_key TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES rollout_runs(id) ON DELETE CASCADE,
    pid INTEGER NOT NULL,
    controller TEXT NOT NULL,
    since TEXT NOT NULL
  );
  CREATE INDEX rollout_locks_run ON rollout_locks (run_id);`,

  // A lock of schema 2 names a pid and a host only: it becomes a lease that expires a lease's default
  // length after the upgrade, so a run still going under an older play is not taken from under it.
  `CREATE TABLE rollout_leases (
    inventory_key TEXT PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES rollout_runs(id) ON DELETE CASCADE,
    token TEXT NOT NULL,
    identity TEXT NOT NULL,
    fence INTEGER NOT NULL,
    acquired_at TEXT NOT NULL,
    heartbeat_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    ttl_ms INTEGER NOT NULL,
    released INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX rollout_leases_run ON rollout_leases (run_id);
  INSERT INTO rollout_leases (inventory_key, run_id, token, identity, fence, acquired_at, heartbeat_at, expires_at, ttl_ms)
    SELECT inventory_key, run_id, 'schema-2-lock',
      json_object('host', controller, 'bootId', 'unknown', 'pidNamespace', 'unknown', 'pid', pid, 'startTicks', 'unknown'),
      1, since, since, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+30 seconds'), 30000
    FROM rollout_locks;
  DROP TABLE rollout_locks;
  ALTER TABLE rollout_events ADD COLUMN fence INTEGER;`,

  `CREATE TABLE drift_ticks (
    schedule_key TEXT NOT NULL,
    due_at TEXT NOT NULL,
    token TEXT NOT NULL,
    identity TEXT NOT NULL,
    claimed_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    finished_at TEXT,
    PRIMARY KEY (schedule_key, due_at)
  );
  CREATE INDEX drift_ticks_open ON drift_ticks (schedule_key, finished_at);
  INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', lower(hex(randomblob(16))));`,

  `CREATE TABLE kb_quarantine (
    kb TEXT PRIMARY KEY,
    at TEXT NOT NULL,
    record TEXT NOT NULL
  );`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

type Db = Database.Database;

/** The store's schema version: 0 for a new, empty file; null for some other program's database. */
function versionOf(db: Db): number | null {
  const appId = db.pragma('application_id', { simple: true }) as number;
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
    (r) => r.name,
  );
  const meta = tables.includes('meta')
    ? (db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined)
    : undefined;
  // Schema 1 and 2 files predate the application id: their meta row says they are play's.
  if (appId !== APPLICATION_ID && appId !== 0) return null;
  if (meta) return Number(meta.value);
  return tables.filter((t) => t !== 'sqlite_sequence').length === 0 ? 0 : null;
}

/** Throws unless `version` (versionOf's answer) is a play store's that this play reads or upgrades. */
function refuseForeign(version: number | null, location: string): number {
  if (version === null)
    throw new StoreInvalidError(
      `state store ${location}: an SQLite database of another program (its tables are not play's); ` +
        'pass --state (or PLAY_STATE) to a play state file',
    );
  if (version > SCHEMA_VERSION)
    throw new StoreInvalidError(
      `state store ${location}: written by a newer play (schema ${version}, this one reads ${SCHEMA_VERSION}); upgrade play`,
    );
  return version;
}

/** Brings the file to SCHEMA_VERSION (inside the caller's IMMEDIATE transaction); returns the version it found. */
export function migrate(db: Db, location: string): number {
  const version = refuseForeign(versionOf(db), location);
  if (version === SCHEMA_VERSION) return version;
  db.exec('CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  for (const sql of MIGRATIONS.slice(version)) db.exec(sql);
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
  db.pragma(`application_id = ${APPLICATION_ID}`);
  return version;
}

/**
 * The version of a play store this play can read or upgrade, found without writing: a file that is not
 * play's, or is from a newer play, is refused before anything (even the journal mode) touches it.
 */
export function storeVersion(db: Db, location: string): number {
  return refuseForeign(versionOf(db), location);
}
