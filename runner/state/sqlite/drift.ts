// The drift history in the SQLite state store (tables drift_*, schema.ts): runs are rows, items are rows
// keyed by run, host, playbook and task; the full records are JSON columns, the keys are columns for the
// queries. A run and its items are saved in one transaction: a crash leaves the run whole or absent.
import type { DriftItem, DriftRun } from '../../drift/model.js';
import type { DriftHistory, DriftRunSummary } from '../store.js';
import type { SqliteConnection } from './connection.js';

type Row = Record<string, unknown>;

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

export class SqliteDriftHistory implements DriftHistory {
  constructor(private readonly conn: SqliteConnection) {}

  async save(run: Omit<DriftRun, 'id'>): Promise<DriftRun> {
    const { items, ...rest } = run;
    return this.conn.write('saving the drift run', (db) => {
      const id = Number(
        db.prepare('INSERT INTO drift_runs (started_at, record) VALUES (?, ?)').run(run.startedAt, '{}')
          .lastInsertRowid,
      );
      const saved: DriftRun = { id, ...rest, items };
      const { items: _, ...summary } = saved;
      db.prepare('UPDATE drift_runs SET record = ? WHERE id = ?').run(JSON.stringify(summary), id);
      const problems = new Set(run.problems.map((p) => p.host));
      const playbook = db.prepare('INSERT INTO drift_run_playbooks (run_id, playbook) VALUES (?, ?)');
      for (const p of run.playbooks) playbook.run(id, p);
      const host = db.prepare('INSERT INTO drift_run_hosts (run_id, host, judged) VALUES (?, ?, ?)');
      for (const h of run.hosts) host.run(id, h, problems.has(h) ? 0 : 1);
      const item = db.prepare(
        'INSERT INTO drift_items (run_id, host, playbook, task, target, status, record) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const i of items) item.run(id, i.host, i.playbook, i.task, i.target ?? '', i.status, JSON.stringify(i));
      return saved;
    });
  }

  async previousItems(hosts: readonly string[], playbooks: readonly string[]): Promise<DriftItem[]> {
    if (hosts.length === 0 || playbooks.length === 0) return [];
    const wanted = new Set(playbooks);
    return this.conn.read('reading the previous drift runs', (db) => {
      // For each host, the newest run that judged it and checked one of these playbooks.
      const latest = db
        .prepare(
          `SELECT h.host AS host, max(h.run_id) AS run_id FROM drift_run_hosts h
           JOIN drift_run_playbooks p ON p.run_id = h.run_id
           WHERE h.judged = 1 AND p.playbook IN (${marks(playbooks.length)}) AND h.host IN (${marks(hosts.length)})
           GROUP BY h.host`,
        )
        .all(...playbooks, ...hosts) as Row[];
      const hostsByRun = new Map<number, Set<string>>();
      for (const r of latest) {
        const id = Number(r.run_id);
        hostsByRun.set(id, (hostsByRun.get(id) ?? new Set()).add(String(r.host)));
      }
      const items = db.prepare("SELECT host, record FROM drift_items WHERE run_id = ? AND status != 'resolved'");
      const out: DriftItem[] = [];
      for (const [id, judged] of hostsByRun) {
        for (const r of items.all(id) as Row[]) {
          if (!judged.has(String(r.host))) continue;
          const i = JSON.parse(String(r.record)) as DriftItem;
          if (wanted.has(i.playbook)) out.push(i);
        }
      }
      return out;
    });
  }

  async setNotifyError(id: number, error: string): Promise<void> {
    this.conn.write('recording the failed notification', (db) => {
      const row = db.prepare('SELECT record FROM drift_runs WHERE id = ?').get(id) as Row | undefined;
      if (!row) return;
      const record = { ...(JSON.parse(String(row.record)) as DriftRunSummary), notifyError: error };
      db.prepare('UPDATE drift_runs SET record = ? WHERE id = ?').run(JSON.stringify(record), id);
    });
  }

  async list(limit: number): Promise<DriftRunSummary[]> {
    return this.conn.read('listing the drift runs', (db) =>
      (db.prepare('SELECT record FROM drift_runs ORDER BY id DESC LIMIT ?').all(limit) as Row[]).map(
        (r) => JSON.parse(String(r.record)) as DriftRunSummary,
      ),
    );
  }

  async get(id: number): Promise<DriftRun | null> {
    return this.conn.read('reading a drift run', (db) => {
      const row = db.prepare('SELECT record FROM drift_runs WHERE id = ?').get(id) as Row | undefined;
      if (!row) return null;
      const items = (db.prepare('SELECT record FROM drift_items WHERE run_id = ? ORDER BY rowid').all(id) as Row[]).map(
        (r) => JSON.parse(String(r.record)) as DriftItem,
      );
      return { ...(JSON.parse(String(row.record)) as DriftRunSummary), items };
    });
  }

  async latest(): Promise<DriftRun | null> {
    const row = this.conn.read(
      'reading the latest drift run',
      (db) => db.prepare('SELECT max(id) AS id FROM drift_runs').get() as Row | undefined,
    );
    return row?.id == null ? null : this.get(Number(row.id));
  }

  async prune(keep: { olderThan?: Date; keepCount?: number }): Promise<number> {
    return this.conn.write('pruning old drift runs', (db) => {
      const doomed = new Set<number>();
      if (keep.olderThan)
        for (const r of db.prepare('SELECT id FROM drift_runs WHERE started_at < ?').all(keep.olderThan.toISOString()))
          doomed.add(Number((r as Row).id));
      if (keep.keepCount !== undefined)
        for (const r of db.prepare('SELECT id FROM drift_runs ORDER BY id DESC LIMIT -1 OFFSET ?').all(keep.keepCount))
          doomed.add(Number((r as Row).id));
      if (doomed.size === 0) return 0;
      const ids = [...doomed];
      for (const table of ['drift_items', 'drift_run_hosts', 'drift_run_playbooks', 'drift_runs'])
        db.prepare(
          `DELETE FROM ${table} WHERE ${table === 'drift_runs' ? 'id' : 'run_id'} IN (${marks(ids.length)})`,
        ).run(...ids);
      return ids.length;
    });
  }
}
