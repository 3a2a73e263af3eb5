// Quarantined KBs in the PostgreSQL state store (table play_kb_quarantine, schema.ts): one row per KB,
// its record as JSON. A rolling run's rollback adds one; `play rollouts release-kb` removes it, once:
// DELETE ... RETURNING tells the one controller that released it.
import type { KbQuarantine, QuarantinedKb } from '../store.js';
import type { PostgresConnection } from './connection.js';

export class PostgresKbQuarantine implements KbQuarantine {
  constructor(private readonly conn: PostgresConnection) {}

  async add(entry: QuarantinedKb): Promise<void> {
    const kb = entry.kb.toUpperCase();
    await this.conn.query(
      `quarantining ${kb}`,
      `INSERT INTO play_kb_quarantine (kb, at, record) VALUES ($1, $2, $3)
       ON CONFLICT (kb) DO UPDATE SET at = excluded.at, record = excluded.record`,
      [kb, entry.at, JSON.stringify({ ...entry, kb })],
    );
  }

  async list(): Promise<QuarantinedKb[]> {
    const rows = await this.conn.query(
      'reading the quarantined KBs',
      'SELECT record FROM play_kb_quarantine ORDER BY at, kb',
    );
    return rows.map((r) => r.record as QuarantinedKb);
  }

  async release(kb: string): Promise<QuarantinedKb | null> {
    const key = kb.toUpperCase();
    const rows = await this.conn.query(
      `releasing ${key}`,
      'DELETE FROM play_kb_quarantine WHERE kb = $1 RETURNING record',
      [key],
    );
    return (rows[0]?.record as QuarantinedKb | undefined) ?? null;
  }
}
