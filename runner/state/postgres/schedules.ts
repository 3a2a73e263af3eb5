// The ticks of shared drift schedules in the PostgreSQL store (table play_drift_ticks, schema.ts): one row
// per claimed tick, with its claimant, a renewed expiry and when its run finished. Claims of one schedule
// are serialized by an advisory transaction lock on its key, so two controllers cannot both claim a tick,
// nor start one while another's run is still going; expiry is judged by the database's clock.
import type { LeaseClaim, ProcessIdentity } from '../lease.js';
import type { ScheduleClaims, TickRefusal } from '../store.js';
import type { PostgresConnection } from './connection.js';
import { TICK_LOCK_ID } from './schema.js';

// A CTE reads the time once for the whole statement: the injected clock, else the database's.
const NOW = 'WITH t AS (SELECT coalesce($1::timestamptz, clock_timestamp()) AS now)';

export class PostgresScheduleClaims implements ScheduleClaims {
  constructor(
    private readonly conn: PostgresConnection,
    private readonly now?: () => Date,
  ) {}

  private clock(): string | null {
    return this.now?.().toISOString() ?? null;
  }

  async claim(key: string, dueAt: string, claim: LeaseClaim): Promise<TickRefusal | null> {
    return this.conn.write('claiming a scheduled drift run', async (sql) => {
      await sql.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [TICK_LOCK_ID, key]);
      const taken = await sql.query('SELECT identity FROM play_drift_ticks WHERE schedule_key = $1 AND due_at = $2', [
        key,
        dueAt,
      ]);
      if (taken.rows[0]) return { kind: 'taken', by: taken.rows[0].identity as ProcessIdentity };
      const open = await sql.query(
        `${NOW} SELECT due_at, identity FROM play_drift_ticks, t
         WHERE schedule_key = $2 AND finished_at IS NULL AND expires_at > t.now ORDER BY due_at DESC LIMIT 1`,
        [this.clock(), key],
      );
      if (open.rows[0])
        return { kind: 'busy', by: open.rows[0].identity as ProcessIdentity, dueAt: String(open.rows[0].due_at) };
      await sql.query(
        `${NOW} INSERT INTO play_drift_ticks (schedule_key, due_at, token, identity, claimed_at, expires_at)
         SELECT $2, $3, $4, $5, t.now, t.now + $6 * interval '1 millisecond' FROM t`,
        [this.clock(), key, dueAt, claim.token, JSON.stringify(claim.identity), claim.ttlMs],
      );
      return null;
    });
  }

  async renew(key: string, dueAt: string, token: string): Promise<void> {
    // The claim keeps its length: expiry moves as far as the heartbeat does.
    await this.conn.query(
      'renewing a scheduled drift run',
      `${NOW} UPDATE play_drift_ticks SET claimed_at = t.now, expires_at = t.now + (expires_at - claimed_at) FROM t
       WHERE schedule_key = $2 AND due_at = $3 AND token = $4`,
      [this.clock(), key, dueAt, token],
    );
  }

  async finish(key: string, dueAt: string, token: string): Promise<void> {
    await this.conn.query(
      'finishing a scheduled drift run',
      `${NOW} UPDATE play_drift_ticks SET finished_at = t.now FROM t WHERE schedule_key = $2 AND due_at = $3 AND token = $4`,
      [this.clock(), key, dueAt, token],
    );
  }
}
