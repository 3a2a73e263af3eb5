// The state store in one SQLite file (node-sqlite3-wasm: SQLite compiled to WebAssembly, reading and
// writing the file itself; no native build). Runs are rows, items are rows keyed by run, host,
// playbook and task; the full records are JSON columns, the keys are columns for the queries.
// The schema carries its version; a file from a newer play is refused rather than misread.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { InputError } from '../core/errors.js';
import type { DriftItem, DriftRun } from '../drift/model.js';
import type { DriftHistory, DriftRunSummary, StateStore } from './store.js';

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
`;

type Row = Record<string, unknown>;

class SqliteDriftHistory implements DriftHistory {
  constructor(private readonly db: InstanceType<typeof sqlite.Database>) {}

  save(run: Omit<DriftRun, 'id'>): DriftRun {
    const { items, ...rest } = run;
    const db = this.db;
    db.exec('BEGIN IMMEDIATE');
    try {
      const id = Number(
        db.run('INSERT INTO drift_runs (started_at, record) VALUES (?, ?)', [run.startedAt, '{}']).lastInsertRowid,
      );
      const saved: DriftRun = { id, ...rest, items };
      const { items: _, ...summary } = saved;
      db.run('UPDATE drift_runs SET record = ? WHERE id = ?', [JSON.stringify(summary), id]);
      const problems = new Set(run.problems.map((p) => p.host));
      for (const p of run.playbooks)
        db.run('INSERT INTO drift_run_playbooks (run_id, playbook) VALUES (?, ?)', [id, p]);
      const host = db.prepare('INSERT INTO drift_run_hosts (run_id, host, judged) VALUES (?, ?, ?)');
      for (const h of run.hosts) host.run([id, h, problems.has(h) ? 0 : 1]);
      host.finalize();
      const item = db.prepare(
        'INSERT INTO drift_items (run_id, host, playbook, task, target, status, record) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const i of items) item.run([id, i.host, i.playbook, i.task, i.target ?? '', i.status, JSON.stringify(i)]);
      item.finalize();
      db.exec('COMMIT');
      return saved;
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  }

  previousItems(hosts: readonly string[], playbooks: readonly string[]): DriftItem[] {
    if (hosts.length === 0 || playbooks.length === 0) return [];
    const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');
    // For each host, the newest run that judged it and checked one of these playbooks.
    const latest = this.db.all(
      `SELECT h.host AS host, max(h.run_id) AS run_id FROM drift_run_hosts h
       JOIN drift_run_playbooks p ON p.run_id = h.run_id
       WHERE h.judged = 1 AND p.playbook IN (${marks(playbooks.length)}) AND h.host IN (${marks(hosts.length)})
       GROUP BY h.host`,
      [...playbooks, ...hosts],
    ) as Row[];
    const hostsByRun = new Map<number, Set<string>>();
    for (const r of latest) {
      const id = Number(r.run_id);
      hostsByRun.set(id, (hostsByRun.get(id) ?? new Set()).add(String(r.host)));
    }
    const wanted = new Set(playbooks);
    const out: DriftItem[] = [];
    for (const [id, judged] of hostsByRun) {
      const rows = this.db.all("SELECT host, record FROM drift_items WHERE run_id = ? AND status != 'resolved'", [
        id,
      ]) as Row[];
      for (const r of rows) {
        if (!judged.has(String(r.host))) continue;
        const i = JSON.parse(String(r.record)) as DriftItem;
        if (wanted.has(i.playbook)) out.push(i);
      }
    }
    return out;
  }

  setNotifyError(id: number, error: string): void {
    const row = this.db.get('SELECT record FROM drift_runs WHERE id = ?', [id]) as Row | null;
    if (!row) return;
    const record = { ...(JSON.parse(String(row.record)) as DriftRunSummary), notifyError: error };
    this.db.run('UPDATE drift_runs SET record = ? WHERE id = ?', [JSON.stringify(record), id]);
  }

  list(limit: number): DriftRunSummary[] {
    return (this.db.all('SELECT record FROM drift_runs ORDER BY id DESC LIMIT ?', [limit]) as Row[]).map(
      (r) => JSON.parse(String(r.record)) as DriftRunSummary,
    );
  }

  get(id: number): DriftRun | null {
    const row = this.db.get('SELECT record FROM drift_runs WHERE id = ?', [id]) as Row | null;
    if (!row) return null;
    const items = (this.db.all('SELECT record FROM drift_items WHERE run_id = ? ORDER BY rowid', [id]) as Row[]).map(
      (r) => JSON.parse(String(r.record)) as DriftItem,
    );
    return { ...(JSON.parse(String(row.record)) as DriftRunSummary), items };
  }

  latest(): DriftRun | null {
    const row = this.db.get('SELECT max(id) AS id FROM drift_runs') as Row | null;
    return row?.id == null ? null : this.get(Number(row.id));
  }

  prune(keep: { olderThan?: Date; keepCount?: number }): number {
    const doomed = new Set<number>();
    if (keep.olderThan) {
      for (const r of this.db.all('SELECT id FROM drift_runs WHERE started_at < ?', [
        keep.olderThan.toISOString(),
      ]) as Row[])
        doomed.add(Number(r.id));
    }
    if (keep.keepCount !== undefined) {
      for (const r of this.db.all('SELECT id FROM drift_runs ORDER BY id DESC LIMIT -1 OFFSET ?', [
        keep.keepCount,
      ]) as Row[])
        doomed.add(Number(r.id));
    }
    if (doomed.size === 0) return 0;
    const ids = [...doomed];
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const table of ['drift_items', 'drift_run_hosts', 'drift_run_playbooks'])
        this.db.run(`DELETE FROM ${table} WHERE run_id IN (${ids.map(() => '?').join(',')})`, ids);
      this.db.run(`DELETE FROM drift_runs WHERE id IN (${ids.map(() => '?').join(',')})`, ids);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
    return ids.length;
  }
}

/** Opens (creating if needed) the store at `path`; a file that is not play's store is an InputError naming it. */
export function openSqliteStore(path: string): StateStore {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  let db: InstanceType<typeof sqlite.Database>;
  try {
    db = new sqlite.Database(path);
    db.exec('PRAGMA foreign_keys = ON');
    db.exec(SCHEMA);
  } catch (e) {
    throw new InputError(
      `state store ${path}: not a play state store (${(e as Error).message}); move it away or pass --state`,
    );
  }
  const row = db.get("SELECT value FROM meta WHERE key = 'schema_version'") as Row | null;
  const version = row ? Number(row.value) : SCHEMA_VERSION;
  if (!row) db.run("INSERT INTO meta (key, value) VALUES ('schema_version', ?)", [String(SCHEMA_VERSION)]);
  if (version > SCHEMA_VERSION) {
    db.close();
    throw new InputError(
      `state store ${path}: written by a newer play (schema ${version}, this one reads ${SCHEMA_VERSION}); upgrade play`,
    );
  }
  return {
    location: path,
    drift: new SqliteDriftHistory(db),
    close: () => {
      if (db.isOpen) db.close();
    },
  };
}
