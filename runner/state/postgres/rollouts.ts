// The rolling runs' journal and the rolling lease in the PostgreSQL store (tables play_rollout_*, schema.ts).
// Several controllers, on several machines, share it, so:
// - the lease is decided under an advisory transaction lock keyed by the inventory (it holds even before
//   the inventory has a lease row) and the lease row locked FOR UPDATE: two controllers racing for one
//   inventory are serialized, and the second sees the first's lease;
// - time is the database's (clock_timestamp(), read once the locks are held), never a controller's: their
//   clocks disagree, and a lease judged by a fast clock would be taken from a live holder;
// - an event is inserted by one statement that locks the lease row (FOR SHARE: one controller's nodes
//   write side by side) and inserts only while it still holds the writer's token and fencing number:
//   a controller that lost the lease writes nothing, even in a race with the one taking it over.
import { InputError } from '../../core/errors.js';
import { type RolloutStatus, UNFINISHED } from '../../rolling/model.js';
import {
  judgeLease,
  type Lease,
  type LeaseClaim,
  LeaseHeldError,
  LeaseLostError,
  type LeaseState,
  renewedLease,
  stillHeld,
  takeOverReason,
  takenLease,
} from '../lease.js';
import { isProcessGone } from '../process-identity.js';
import type { JournalEvent, NewRollout, RolloutJournal, RolloutRecord } from '../store.js';
import type { PostgresConnection, Row, Sql } from './connection.js';
import { PLAY_LOCK_ID } from './schema.js';

export interface PostgresRolloutOptions {
  /** Whether a holder's process is provably gone (default isProcessGone); tests simulate both. */
  isGone?: typeof isProcessGone;
  /** A clock instead of the database's, for tests that move it; absent, the database's clock_timestamp(). */
  now?: () => Date;
}

const RUN_COLUMNS = 'id, playbook, inventory_key, status, reason, started_at, updated_at, pid, controller, args';
const UNFINISHED_WORDS = `${UNFINISHED.slice(0, -1).join(', ')} or ${UNFINISHED.at(-1)}`;
const iso = (v: unknown): string => (v instanceof Date ? v : new Date(String(v))).toISOString();

function toRecord(r: Row): RolloutRecord {
  return {
    id: Number(r.id),
    playbook: String(r.playbook),
    inventoryKey: String(r.inventory_key),
    args: r.args as Record<string, unknown>,
    status: String(r.status) as RolloutStatus,
    reason: r.reason == null ? null : String(r.reason),
    startedAt: iso(r.started_at),
    updatedAt: iso(r.updated_at),
    pid: Number(r.pid),
    controller: String(r.controller),
  };
}

function toEvent(r: Row): JournalEvent {
  return {
    runId: Number(r.run_id),
    host: String(r.host),
    phase: String(r.phase),
    state: String(r.state) as JournalEvent['state'],
    at: iso(r.at),
    detail: r.detail == null ? null : String(r.detail),
    data: (r.data as Record<string, unknown> | null) ?? null,
  };
}

function toLease(r: Row): Lease {
  return {
    key: String(r.inventory_key),
    runId: Number(r.run_id),
    token: String(r.token),
    identity: r.identity as Lease['identity'],
    fence: Number(r.fence),
    acquiredAt: iso(r.acquired_at),
    heartbeatAt: iso(r.heartbeat_at),
    expiresAt: iso(r.expires_at),
    ttlMs: Number(r.ttl_ms),
    released: r.released === true,
  };
}

/** The inventory's lease row, locked for this transaction (FOR UPDATE); null when it has none yet. */
async function lockedLease(sql: Sql, key: string): Promise<Lease | null> {
  const { rows } = await sql.query('SELECT * FROM play_rollout_leases WHERE inventory_key = $1 FOR UPDATE', [key]);
  return rows[0] ? toLease(rows[0]) : null;
}

async function writeLease(sql: Sql, l: Lease): Promise<void> {
  await sql.query(
    `INSERT INTO play_rollout_leases (inventory_key, run_id, token, identity, fence, acquired_at, heartbeat_at,
       expires_at, ttl_ms, released) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (inventory_key) DO UPDATE SET run_id = excluded.run_id, token = excluded.token,
       identity = excluded.identity, fence = excluded.fence, acquired_at = excluded.acquired_at,
       heartbeat_at = excluded.heartbeat_at, expires_at = excluded.expires_at, ttl_ms = excluded.ttl_ms,
       released = excluded.released`,
    [
      l.key,
      l.runId,
      l.token,
      JSON.stringify(l.identity),
      l.fence,
      l.acquiredAt,
      l.heartbeatAt,
      l.expiresAt,
      l.ttlMs,
      l.released,
    ],
  );
}

async function insertEvent(sql: Sql, e: JournalEvent, fence: number): Promise<void> {
  await sql.query(
    `INSERT INTO play_rollout_events (run_id, host, phase, state, at, detail, data, fence)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.runId, e.host, e.phase, e.state, e.at, e.detail, e.data == null ? null : JSON.stringify(e.data), fence],
  );
}

// The check and the insert in one statement: the lease row is locked, and re-read if another transaction
// changed it meanwhile, so an event goes in only under the token and fence its writer holds now.
const RECORD_UNDER_LEASE = `
  WITH held AS (
    SELECT fence FROM play_rollout_leases
    WHERE inventory_key = $1 AND token = $2 AND fence = $3 AND NOT released
    FOR SHARE
  )
  INSERT INTO play_rollout_events (run_id, host, phase, state, at, detail, data, fence)
  SELECT $4, $5, $6, $7, $8, $9, $10, held.fence FROM held`;

export class PostgresRolloutJournal implements RolloutJournal {
  private readonly isGone: typeof isProcessGone;

  constructor(
    private readonly conn: PostgresConnection,
    private readonly options: PostgresRolloutOptions = {},
  ) {
    this.isGone = options.isGone ?? isProcessGone;
  }

  async begin(run: NewRollout, claim: LeaseClaim): Promise<{ run: RolloutRecord; lease: Lease }> {
    return this.conn.write('starting the rolling run', async (sql) => {
      const current = await this.lockInventory(sql, run.inventoryKey);
      const now = await this.now(sql);
      const state = await this.admit(sql, current, claim, now);
      const { rows } = await sql.query(
        `INSERT INTO play_rollout_runs (playbook, inventory_key, status, reason, started_at, updated_at, pid,
           controller, took_over, args) VALUES ($1, $2, 'running', NULL, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          run.playbook,
          run.inventoryKey,
          run.startedAt,
          now.toISOString(),
          claim.identity.pid,
          claim.identity.host,
          'holder' in state ? JSON.stringify(state.holder) : null,
          JSON.stringify(run.args),
        ],
      );
      const id = Number(rows[0]!.id);
      const lease = takenLease(run.inventoryKey, id, claim, current, now);
      await writeLease(sql, lease);
      await noteTakeOver(sql, id, state, lease, now);
      return { run: (await fetchRun(sql, id))!, lease };
    });
  }

  async takeOver(id: number, claim: LeaseClaim): Promise<{ run: RolloutRecord; lease: Lease }> {
    return this.conn.write('taking the rolling run over', async (sql) => {
      const found = await fetchRun(sql, id);
      if (!found) throw new InputError(`no rolling run ${id} in the state store ${this.conn.location}`);
      const current = await this.lockInventory(sql, found.inventoryKey);
      // Read again under the locks: another controller may have resumed or finished it meanwhile.
      const run = (await fetchRun(sql, id, 'FOR UPDATE'))!;
      if (!UNFINISHED.includes(run.status))
        throw new InputError(
          `rolling run ${id} (${run.playbook}) is ${run.status}: only a ${UNFINISHED_WORDS} run can be resumed`,
        );
      const now = await this.now(sql);
      const state = await this.admit(sql, current, claim, now);
      const lease = takenLease(run.inventoryKey, id, claim, current, now);
      await writeLease(sql, lease);
      await noteTakeOver(sql, id, state, lease, now);
      // The reason was why it stopped (paused, interrupted); running again, it has none.
      await sql.query(
        `UPDATE play_rollout_runs SET status = 'running', reason = NULL, pid = $1, controller = $2, updated_at = $3,
           took_over = coalesce($4, took_over) WHERE id = $5`,
        [
          claim.identity.pid,
          claim.identity.host,
          now.toISOString(),
          'holder' in state ? JSON.stringify(state.holder) : null,
          id,
        ],
      );
      return { run: (await fetchRun(sql, id))!, lease };
    });
  }

  async renew(lease: Lease): Promise<Lease> {
    return this.conn.write('renewing the rolling lease', async (sql) => {
      await fenced(sql, lease);
      const next = renewedLease(lease, await this.now(sql));
      await sql.query('UPDATE play_rollout_leases SET heartbeat_at = $2, expires_at = $3 WHERE inventory_key = $1', [
        lease.key,
        next.heartbeatAt,
        next.expiresAt,
      ]);
      return next;
    });
  }

  async record(lease: Lease, event: JournalEvent): Promise<void> {
    const doing = `recording ${event.host || 'the run'}'s ${event.phase} ${event.state}`;
    const inserted = await this.conn.query(doing, `${RECORD_UNDER_LEASE} RETURNING id`, [
      lease.key,
      lease.token,
      lease.fence,
      event.runId,
      event.host,
      event.phase,
      event.state,
      event.at,
      event.detail,
      event.data == null ? null : JSON.stringify(event.data),
    ]);
    if (inserted.length === 1) return;
    throw new LeaseLostError(lease.runId, await this.lease(lease.key));
  }

  async events(runId: number): Promise<JournalEvent[]> {
    const rows = await this.conn.query(
      'reading the journal',
      'SELECT * FROM play_rollout_events WHERE run_id = $1 ORDER BY id',
      [runId],
    );
    return rows.map(toEvent);
  }

  async setStatus(lease: Lease, status: RolloutStatus, reason: string | null = null): Promise<void> {
    await this.conn.write(`recording the run's status (${status})`, async (sql) => {
      await fenced(sql, lease);
      await sql.query('UPDATE play_rollout_runs SET status = $1, reason = $2, updated_at = $3 WHERE id = $4', [
        status,
        reason,
        (await this.now(sql)).toISOString(),
        lease.runId,
      ]);
      // Only a running run holds its inventory (see the SQLite store); released, not deleted: the fence grows.
      if (status !== 'running')
        await sql.query('UPDATE play_rollout_leases SET released = true WHERE inventory_key = $1', [lease.key]);
    });
  }

  async unlock(runId: number): Promise<boolean> {
    const rows = await this.conn.query(
      'removing the rolling lease',
      'UPDATE play_rollout_leases SET released = true WHERE run_id = $1 AND NOT released RETURNING inventory_key',
      [runId],
    );
    return rows.length > 0;
  }

  async get(id: number): Promise<RolloutRecord | null> {
    const rows = await this.conn.query(
      'reading a rolling run',
      `SELECT ${RUN_COLUMNS} FROM play_rollout_runs WHERE id = $1`,
      [id],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async lease(inventoryKey: string): Promise<Lease | null> {
    const rows = await this.conn.query(
      'reading the rolling lease',
      'SELECT * FROM play_rollout_leases WHERE inventory_key = $1',
      [inventoryKey],
    );
    return rows[0] ? toLease(rows[0]) : null;
  }

  async latestUnfinished(inventoryKey: string, playbook?: string): Promise<RolloutRecord | null> {
    const rows = await this.conn.query(
      'finding the unfinished rolling run',
      `SELECT ${RUN_COLUMNS} FROM play_rollout_runs WHERE inventory_key = $1 AND status = ANY ($2::text[])
         AND ($3::text IS NULL OR playbook = $3) ORDER BY id DESC LIMIT 1`,
      [inventoryKey, UNFINISHED, playbook ?? null],
    );
    return rows[0] ? toRecord(rows[0]) : null;
  }

  async list(limit: number): Promise<RolloutRecord[]> {
    const rows = await this.conn.query(
      'listing the rolling runs',
      `SELECT ${RUN_COLUMNS} FROM play_rollout_runs ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    return rows.map(toRecord);
  }

  /**
   * Serializes every claim on the inventory (an advisory lock on its key: there may be no row to lock
   * yet), then locks its lease row against the holder's heartbeat; returns that row.
   */
  private async lockInventory(sql: Sql, key: string): Promise<Lease | null> {
    await sql.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [PLAY_LOCK_ID, key]);
    return lockedLease(sql, key);
  }

  /** The time leases are judged and stamped by: the database's, read after the locks were taken. */
  private async now(sql: Sql): Promise<Date> {
    if (this.options.now) return this.options.now();
    const { rows } = await sql.query('SELECT clock_timestamp() AS now');
    return rows[0]!.now as Date;
  }

  /** Whether the claim may take the lease now; LeaseHeldError naming the holder when it may not. */
  private async admit(sql: Sql, current: Lease | null, claim: LeaseClaim, now: Date): Promise<LeaseState> {
    const state = judgeLease(current, claim, now, this.isGone);
    if (state.kind !== 'held') return state;
    const { rows } = await sql.query('SELECT playbook FROM play_rollout_runs WHERE id = $1', [state.holder.runId]);
    throw new LeaseHeldError(state.holder, rows[0] ? String(rows[0].playbook) : null);
  }
}

async function fetchRun(sql: Sql, id: number, lock = ''): Promise<RolloutRecord | null> {
  const { rows } = await sql.query(`SELECT ${RUN_COLUMNS} FROM play_rollout_runs WHERE id = $1 ${lock}`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Throws LeaseLostError unless `lease` still holds its row (same token and fencing number), locking it. */
async function fenced(sql: Sql, lease: Lease): Promise<void> {
  const current = await lockedLease(sql, lease.key);
  if (!stillHeld(lease, current)) throw new LeaseLostError(lease.runId, current);
}

async function noteTakeOver(sql: Sql, runId: number, state: LeaseState, lease: Lease, now: Date): Promise<void> {
  const reason = takeOverReason(state);
  if (reason === null || !('holder' in state)) return;
  await insertEvent(
    sql,
    {
      runId,
      host: '',
      phase: 'lock',
      state: 'note',
      at: now.toISOString(),
      detail: reason,
      data: { tookOverFrom: { runId: state.holder.runId, fence: state.holder.fence, identity: state.holder.identity } },
    },
    lease.fence,
  );
}
