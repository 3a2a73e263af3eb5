// The drift history in the SQLite state store (tables drift_*, made by sqlite-store.ts): runs are rows,
// items are rows keyed by run, host, playbook and task; the full records are JSON columns, the keys are
// columns for the queries. Every read and write goes through the connection's retry (sqlite-busy.ts).
import type { DriftItem, DriftRun } from '../drift/model.js';
import type { SqliteConnection } from './sqlite-busy.js';
import type { DriftHistory, DriftRunSummary } from './store.js';

type Row = Record<string, unknown>;

export class SqliteDriftHistory implements DriftHistory {
  constructor(private readonly conn: SqliteConnection) {}

  save(run: Omit<DriftRun, 'id'>): DriftRun {
    const { items, ...rest } = run;
    return this.conn.transaction((db) => {
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
      try {
        for (const h of run.hosts) host.run([id, h, problems.has(h) ? 0 : 1]);
      } finally {
        host.finalize();
      }
      const item = db.prepare(
        'INSERT INTO drift_items (run_id, host, playbook, task, target, status, record) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      try {
        for (const i of items) item.run([id, i.host, i.playbook, i.task, i.target ?? '', i.status, JSON.stringify(i)]);
      } finally {
        item.finalize();
      }
      return saved;
    });
  }

  previousItems(hosts: readonly string[], playbooks: readonly string[]): DriftItem[] {
    if (hosts.length === 0 || playbooks.length === 0) return [];
    const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');
    const wanted = new Set(playbooks);
    return this.conn.retry((db) => {
      // For each host, the newest run that judged it and checked one of these playbooks.
      const latest = db.all(
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
      const out: DriftItem[] = [];
      for (const [id, judged] of hostsByRun) {
        const rows = db.all("SELECT host, record FROM drift_items WHERE run_id = ? AND status != 'resolved'", [
          id,
        ]) as Row[];
        for (const r of rows) {
          if (!judged.has(String(r.host))) continue;
          const i = JSON.parse(String(r.record)) as DriftItem;
          if (wanted.has(i.playbook)) out.push(i);
        }
      }
      return out;
    });
  }

  setNotifyError(id: number, error: string): void {
    this.conn.transaction((db) => {
      const row = db.get('SELECT record FROM drift_runs WHERE id = ?', [id]) as Row | null;
      if (!row) return;
      const record = { ...(JSON.parse(String(row.record)) as DriftRunSummary), notifyError: error };
      db.run('UPDATE drift_runs SET record = ? WHERE id = ?', [JSON.stringify(record), id]);
    });
  }

  list(limit: number): DriftRunSummary[] {
    return this.conn.retry((db) =>
      (db.all('SELECT record FROM drift_runs ORDER BY id DESC LIMIT ?', [limit]) as Row[]).map(
        (r) => JSON.parse(String(r.record)) as DriftRunSummary,
      ),
    );
  }

  get(id: number): DriftRun | null {
    return this.conn.retry((db) => {
      const row = db.get('SELECT record FROM drift_runs WHERE id = ?', [id]) as Row | null;
      if (!row) return null;
      const items = (db.all('SELECT record FROM drift_items WHERE run_id = ? ORDER BY rowid', [id]) as Row[]).map(
        (r) => JSON.parse(String(r.record)) as DriftItem,
      );
      return { ...(JSON.parse(String(row.record)) as DriftRunSummary), items };
    });
  }

  latest(): DriftRun | null {
    const row = this.conn.retry((db) => db.get('SELECT max(id) AS id FROM drift_runs') as Row | null);
    return row?.id == null ? null : this.get(Number(row.id));
  }

  prune(keep: { olderThan?: Date; keepCount?: number }): number {
    return this.conn.transaction((db) => {
      const doomed = new Set<number>();
      if (keep.olderThan) {
        for (const r of db.all('SELECT id FROM drift_runs WHERE started_at < ?', [
          keep.olderThan.toISOString(),
        ]) as Row[])
          doomed.add(Number(r.id));
      }
      if (keep.keepCount !== undefined) {
        for (const r of db.all('SELECT id FROM drift_runs ORDER BY id DESC LIMIT -1 OFFSET ?', [
          keep.keepCount,
        ]) as Row[])
          doomed.add(Number(r.id));
      }
      if (doomed.size === 0) return 0;
      const ids = [...doomed];
      const marks = ids.map(() => '?').join(',');
      for (const table of ['drift_items', 'drift_run_hosts', 'drift_run_playbooks'])
        db.run(`DELETE FROM ${table} WHERE run_id IN (${marks})`, ids);
      db.run(`DELETE FROM drift_runs WHERE id IN (${marks})`, ids);
      return ids.length;
    });
  }
}
