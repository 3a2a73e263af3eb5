// The drift history in the PostgreSQL store (tables play_drift_*, schema.ts): as in the SQLite store, runs
// and items are rows with their full records as JSON and their keys as columns for the queries. A run and
// all its rows are one statement (data-modifying CTEs): whole or absent, in one round trip after its id.
import type { DriftItem, DriftRun } from '../../drift/model.js';
import type { DriftHistory, DriftRunSummary } from '../store.js';
import type { PostgresConnection } from './connection.js';

const SAVE_RUN = `
  WITH run AS (
    INSERT INTO play_drift_runs (id, started_at, record) VALUES ($1, $2, $3) RETURNING id
  ), playbooks AS (
    INSERT INTO play_drift_run_playbooks (run_id, playbook) SELECT $1, p FROM unnest($4::text[]) AS p
  ), hosts AS (
    INSERT INTO play_drift_run_hosts (run_id, host, judged) SELECT $1, h, j FROM unnest($5::text[], $6::boolean[]) AS x (h, j)
  )
  INSERT INTO play_drift_items (run_id, ord, host, playbook, task, target, status, record)
    SELECT $1, o, r->>'host', r->>'playbook', r->>'task', coalesce(r->>'target', ''), r->>'status', r
    FROM json_array_elements($7::json) WITH ORDINALITY AS x (r, o)`;

// For each host, the newest run that judged it and checked one of these playbooks; that run's items of
// the host that are not resolved.
const PREVIOUS_ITEMS = `
  WITH latest AS (
    SELECT h.host, max(h.run_id) AS run_id FROM play_drift_run_hosts h
    JOIN play_drift_run_playbooks p ON p.run_id = h.run_id
    WHERE h.judged AND p.playbook = ANY ($1::text[]) AND h.host = ANY ($2::text[])
    GROUP BY h.host
  )
  SELECT i.record FROM latest l JOIN play_drift_items i ON i.run_id = l.run_id AND i.host = l.host
  WHERE i.status <> 'resolved' AND i.playbook = ANY ($1::text[])
  ORDER BY i.run_id, i.ord`;

const RUN_WITH_ITEMS = `
  SELECT r.record, (SELECT coalesce(json_agg(i.record ORDER BY i.ord), '[]'::json) FROM play_drift_items i
    WHERE i.run_id = r.id) AS items
  FROM play_drift_runs r`;

export class PostgresDriftHistory implements DriftHistory {
  constructor(private readonly conn: PostgresConnection) {}

  async save(run: Omit<DriftRun, 'id'>): Promise<DriftRun> {
    const doing = 'saving the drift run';
    const [next] = await this.conn.query(
      doing,
      "SELECT nextval(pg_get_serial_sequence('play_drift_runs', 'id')) AS id",
    );
    const id = Number(next!.id);
    const { items, ...rest } = run;
    const saved: DriftRun = { id, ...rest, items };
    const { items: _, ...summary } = saved;
    const problems = new Set(run.problems.map((p) => p.host));
    await this.conn.query(doing, SAVE_RUN, [
      id,
      run.startedAt,
      JSON.stringify(summary),
      run.playbooks,
      run.hosts,
      run.hosts.map((h) => !problems.has(h)),
      JSON.stringify(items),
    ]);
    return saved;
  }

  async previousItems(hosts: readonly string[], playbooks: readonly string[]): Promise<DriftItem[]> {
    if (hosts.length === 0 || playbooks.length === 0) return [];
    const rows = await this.conn.query('reading the previous drift runs', PREVIOUS_ITEMS, [playbooks, hosts]);
    return rows.map((r) => r.record as DriftItem);
  }

  async setNotifyError(id: number, error: string): Promise<void> {
    // Read and written back whole in one transaction, so the record keeps its keys' order.
    await this.conn.write('recording the failed notification', async (sql) => {
      const { rows } = await sql.query('SELECT record FROM play_drift_runs WHERE id = $1 FOR UPDATE', [id]);
      if (!rows[0]) return;
      const record = { ...(rows[0].record as DriftRunSummary), notifyError: error };
      await sql.query('UPDATE play_drift_runs SET record = $2 WHERE id = $1', [id, JSON.stringify(record)]);
    });
  }

  async list(limit: number): Promise<DriftRunSummary[]> {
    const rows = await this.conn.query(
      'listing the drift runs',
      'SELECT record FROM play_drift_runs ORDER BY id DESC LIMIT $1',
      [limit],
    );
    return rows.map((r) => r.record as DriftRunSummary);
  }

  async get(id: number): Promise<DriftRun | null> {
    const rows = await this.conn.query('reading a drift run', `${RUN_WITH_ITEMS} WHERE r.id = $1`, [id]);
    return rows[0] ? { ...(rows[0].record as DriftRunSummary), items: rows[0].items as DriftItem[] } : null;
  }

  async latest(): Promise<DriftRun | null> {
    const rows = await this.conn.query(
      'reading the latest drift run',
      `${RUN_WITH_ITEMS} WHERE r.id = (SELECT max(id) FROM play_drift_runs)`,
    );
    return rows[0] ? { ...(rows[0].record as DriftRunSummary), items: rows[0].items as DriftItem[] } : null;
  }

  async prune(keep: { olderThan?: Date; keepCount?: number }): Promise<number> {
    if (!keep.olderThan && keep.keepCount === undefined) return 0;
    // One statement: the items, hosts and playbooks go with their run (ON DELETE CASCADE).
    const rows = await this.conn.query(
      'pruning old drift runs',
      `DELETE FROM play_drift_runs WHERE ($1::timestamptz IS NOT NULL AND started_at < $1)
         OR ($2::bigint IS NOT NULL AND id NOT IN (SELECT id FROM play_drift_runs ORDER BY id DESC LIMIT $2))
       RETURNING id`,
      [keep.olderThan?.toISOString() ?? null, keep.keepCount ?? null],
    );
    return rows.length;
  }
}
