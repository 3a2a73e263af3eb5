// The ticks of shared drift schedules in the SQLite state store (table drift_ticks, schema.ts): one row
// per claimed tick, with its claimant, a renewed expiry and when its run finished. Claiming reads the
// open claims and writes the new one in one IMMEDIATE transaction: two controllers cannot both claim.
import type { LeaseClaim, ProcessIdentity } from '../lease.js';
import type { ScheduleClaims, TickRefusal } from '../store.js';
import type { SqliteConnection } from './connection.js';

type Row = Record<string, unknown>;

export class SqliteScheduleClaims implements ScheduleClaims {
  constructor(
    private readonly conn: SqliteConnection,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async claim(key: string, dueAt: string, claim: LeaseClaim): Promise<TickRefusal | null> {
    return this.conn.write('claiming a scheduled drift run', (db) => {
      const now = this.now();
      const taken = db
        .prepare('SELECT identity FROM drift_ticks WHERE schedule_key = ? AND due_at = ?')
        .get(key, dueAt) as Row | undefined;
      if (taken) return { kind: 'taken', by: JSON.parse(String(taken.identity)) as ProcessIdentity };
      const open = db
        .prepare(
          `SELECT due_at, identity FROM drift_ticks WHERE schedule_key = ? AND finished_at IS NULL AND expires_at > ?
           ORDER BY due_at DESC LIMIT 1`,
        )
        .get(key, now.toISOString()) as Row | undefined;
      if (open)
        return { kind: 'busy', by: JSON.parse(String(open.identity)) as ProcessIdentity, dueAt: String(open.due_at) };
      db.prepare(
        `INSERT INTO drift_ticks (schedule_key, due_at, token, identity, claimed_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(
        key,
        dueAt,
        claim.token,
        JSON.stringify(claim.identity),
        now.toISOString(),
        new Date(now.getTime() + claim.ttlMs).toISOString(),
      );
      return null;
    });
  }

  async renew(key: string, dueAt: string, token: string): Promise<void> {
    this.conn.write('renewing a scheduled drift run', (db) => {
      const row = db
        .prepare('SELECT claimed_at, expires_at FROM drift_ticks WHERE schedule_key = ? AND due_at = ? AND token = ?')
        .get(key, dueAt, token) as Row | undefined;
      if (!row) return;
      const ttl = Date.parse(String(row.expires_at)) - Date.parse(String(row.claimed_at));
      db.prepare('UPDATE drift_ticks SET claimed_at = ?, expires_at = ? WHERE schedule_key = ? AND due_at = ?').run(
        this.now().toISOString(),
        new Date(this.now().getTime() + ttl).toISOString(),
        key,
        dueAt,
      );
    });
  }

  async finish(key: string, dueAt: string, token: string): Promise<void> {
    this.conn.write('finishing a scheduled drift run', (db) => {
      db.prepare('UPDATE drift_ticks SET finished_at = ? WHERE schedule_key = ? AND due_at = ? AND token = ?').run(
        this.now().toISOString(),
        key,
        dueAt,
        token,
      );
    });
  }
}
