// Quarantined KBs in the SQLite state store (table kb_quarantine, schema.ts): one row per KB, its record
// as JSON. A rolling run's rollback adds one; `play rollouts release-kb` removes it.
import type { KbQuarantine, QuarantinedKb } from '../store.js';
import type { SqliteConnection } from './connection.js';

export class SqliteKbQuarantine implements KbQuarantine {
  constructor(private readonly conn: SqliteConnection) {}

  async add(entry: QuarantinedKb): Promise<void> {
    const kb = entry.kb.toUpperCase();
    this.conn.write(`quarantining ${kb}`, (db) => {
      db.prepare('INSERT OR REPLACE INTO kb_quarantine (kb, at, record) VALUES (?, ?, ?)').run(
        kb,
        entry.at,
        JSON.stringify({ ...entry, kb }),
      );
    });
  }

  async list(): Promise<QuarantinedKb[]> {
    return this.conn.read('reading the quarantined KBs', (db) =>
      (db.prepare('SELECT record FROM kb_quarantine ORDER BY at, kb').all() as { record: string }[]).map(
        (r) => JSON.parse(r.record) as QuarantinedKb,
      ),
    );
  }

  async release(kb: string): Promise<QuarantinedKb | null> {
    const key = kb.toUpperCase();
    return this.conn.write(`releasing ${key}`, (db) => {
      const row = db.prepare('SELECT record FROM kb_quarantine WHERE kb = ?').get(key) as
        | { record: string }
        | undefined;
      if (!row) return null;
      db.prepare('DELETE FROM kb_quarantine WHERE kb = ?').run(key);
      return JSON.parse(row.record) as QuarantinedKb;
    });
  }
}
