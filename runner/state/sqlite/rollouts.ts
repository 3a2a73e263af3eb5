// The rolling runs' journal and the rolling lease in the SQLite state store (tables rollout_*, schema.ts).
// A run is a row (the keys as columns, its args as JSON; its plan is a journal note); its events are rows
// numbered per run, each with the fencing number it was written under; the lease is one row per
// inventory key. The lease lives in the same file as the journal so that taking it and creating the run
// is one transaction, and so that an event is written only while its writer holds the lease.
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
import type { Db, SqliteConnection } from './connection.js';

export interface SqliteRolloutOptions {
  /** Whether a holder's process is provably gone (default isProcessGone); tests simulate both. */
  isGone?: typeof isProcessGone;
  /** The clock for leases, updatedAt and notes (tests move it). */
  now?: () => Date;
}

type Row = Record<string, unknown>;

const RUN_COLUMNS = 'id, playbook, inventory_key, status, reason, started_at, updated_at, pid, controller, record';
const UNFINISHED_SQL = UNFINISHED.map((s) => `'${s}'`).join(', ');
const UNFINISHED_WORDS = `${UNFINISHED.slice(0, -1).join(', ')} or ${UNFINISHED.at(-1)}`;

function toRecord(r: Row): RolloutRecord {
  const { args } = JSON.parse(String(r.record)) as { args: Record<string, unknown> };
  return {
    id: Number(r.id),
    playbook: String(r.playbook),
    inventoryKey: String(r.inventory_key),
    args,
    status: String(r.status) as RolloutStatus,
    reason: r.reason == null ? null : String(r.reason),
    startedAt: String(r.started_at),
    updatedAt: String(r.updated_at),
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
    at: String(r.at),
    detail: r.detail == null ? null : String(r.detail),
    data: r.data == null ? null : (JSON.parse(String(r.data)) as Record<string, unknown>),
  };
}

function toLease(r: Row): Lease {
  return {
    key: String(r.inventory_key),
    runId: Number(r.run_id),
    token: String(r.token),
    identity: JSON.parse(String(r.identity)) as Lease['identity'],
    fence: Number(r.fence),
    acquiredAt: String(r.acquired_at),
    heartbeatAt: String(r.heartbeat_at),
    expiresAt: String(r.expires_at),
    ttlMs: Number(r.ttl_ms),
    released: Number(r.released) === 1,
  };
}

function leaseRow(db: Db, key: string): Lease | null {
  const row = db.prepare('SELECT * FROM rollout_leases WHERE inventory_key = ?').get(key) as Row | undefined;
  return row ? toLease(row) : null;
}

function writeLease(db: Db, l: Lease): void {
  db.prepare(
    `INSERT OR REPLACE INTO rollout_leases (inventory_key, run_id, token, identity, fence, acquired_at, heartbeat_at,
       expires_at, ttl_ms, released) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    l.key,
    l.runId,
    l.token,
    JSON.stringify(l.identity),
    l.fence,
    l.acquiredAt,
    l.heartbeatAt,
    l.expiresAt,
    l.ttlMs,
    l.released ? 1 : 0,
  );
}

/** Appends an event; its number is the run's next, read in the same statement. */
function insertEvent(db: Db, e: JournalEvent, fence: number): void {
  db.prepare(
    `INSERT INTO rollout_events (run_id, seq, host, phase, state, at, detail, data, fence)
     SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM rollout_events WHERE run_id = ?`,
  ).run(
    e.runId,
    e.host,
    e.phase,
    e.state,
    e.at,
    e.detail,
    e.data == null ? null : JSON.stringify(e.data),
    fence,
    e.runId,
  );
}

export class SqliteRolloutJournal implements RolloutJournal {
  private readonly isGone: typeof isProcessGone;
  private readonly now: () => Date;

  constructor(
    private readonly conn: SqliteConnection,
    options: SqliteRolloutOptions = {},
  ) {
    this.isGone = options.isGone ?? isProcessGone;
    this.now = options.now ?? (() => new Date());
  }

  async begin(run: NewRollout, claim: LeaseClaim): Promise<{ run: RolloutRecord; lease: Lease }> {
    return this.conn.write('starting the rolling run', (db) => {
      const now = this.now();
      const current = leaseRow(db, run.inventoryKey);
      const state = this.admit(db, current, claim, now);
      const id = Number(
        db
          .prepare(
            `INSERT INTO rollout_runs (playbook, inventory_key, status, reason, started_at, updated_at, pid, controller,
               took_over, record) VALUES (?, ?, 'running', NULL, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            run.playbook,
            run.inventoryKey,
            run.startedAt,
            now.toISOString(),
            claim.identity.pid,
            claim.identity.host,
            'holder' in state ? JSON.stringify(state.holder) : null,
            JSON.stringify({ args: run.args }),
          ).lastInsertRowid,
      );
      const lease = takenLease(run.inventoryKey, id, claim, current, now);
      writeLease(db, lease);
      this.noteTakeOver(db, id, state, lease, now);
      return { run: this.fetch(db, id)!, lease };
    });
  }

  async takeOver(id: number, claim: LeaseClaim): Promise<{ run: RolloutRecord; lease: Lease }> {
    return this.conn.write('taking the rolling run over', (db) => {
      const run = this.fetch(db, id);
      if (!run) throw new InputError(`no rolling run ${id} in the state store ${this.conn.path}`);
      if (!UNFINISHED.includes(run.status))
        throw new InputError(
          `rolling run ${id} (${run.playbook}) is ${run.status}: only a ${UNFINISHED_WORDS} run can be resumed`,
        );
      const now = this.now();
      const current = leaseRow(db, run.inventoryKey);
      const state = this.admit(db, current, claim, now);
      const lease = takenLease(run.inventoryKey, id, claim, current, now);
      writeLease(db, lease);
      this.noteTakeOver(db, id, state, lease, now);
      // The reason was why it stopped (paused, interrupted); running again, it has none.
      db.prepare(
        `UPDATE rollout_runs SET status = 'running', reason = NULL, pid = ?, controller = ?, updated_at = ?,
           took_over = coalesce(?, took_over) WHERE id = ?`,
      ).run(
        claim.identity.pid,
        claim.identity.host,
        now.toISOString(),
        'holder' in state ? JSON.stringify(state.holder) : null,
        id,
      );
      return { run: this.fetch(db, id)!, lease };
    });
  }

  async renew(lease: Lease): Promise<Lease> {
    return this.conn.write('renewing the rolling lease', (db) => {
      this.fenced(db, lease);
      const next = renewedLease(lease, this.now());
      writeLease(db, next);
      return next;
    });
  }

  async record(lease: Lease, event: JournalEvent): Promise<void> {
    // The check and the insert in one IMMEDIATE transaction: no other holder can take the lease between
    // them. Committed with synchronous=FULL: on disk when this returns.
    this.conn.write(`recording ${event.host || 'the run'}'s ${event.phase} ${event.state}`, (db) => {
      this.fenced(db, lease);
      insertEvent(db, event, lease.fence);
    });
  }

  async events(runId: number): Promise<JournalEvent[]> {
    return this.conn.read('reading the journal', (db) =>
      (db.prepare('SELECT * FROM rollout_events WHERE run_id = ? ORDER BY seq').all(runId) as Row[]).map(toEvent),
    );
  }

  async setStatus(lease: Lease, status: RolloutStatus, reason: string | null = null): Promise<void> {
    this.conn.write(`recording the run's status (${status})`, (db) => {
      this.fenced(db, lease);
      db.prepare('UPDATE rollout_runs SET status = ?, reason = ?, updated_at = ? WHERE id = ?').run(
        status,
        reason,
        this.now().toISOString(),
        lease.runId,
      );
      // Only a running run holds its inventory: paused or interrupted, it is resumed with takeOver, which
      // takes the lease again; finished, it never needs it. Released, not deleted: the fence keeps growing.
      if (status !== 'running') writeLease(db, { ...lease, released: true });
    });
  }

  async unlock(runId: number): Promise<boolean> {
    return this.conn.write('removing the rolling lease', (db) => {
      const row = db.prepare('SELECT inventory_key FROM rollout_leases WHERE run_id = ? AND released = 0').get(runId) as
        | Row
        | undefined;
      if (!row) return false;
      db.prepare('UPDATE rollout_leases SET released = 1 WHERE inventory_key = ?').run(row.inventory_key);
      return true;
    });
  }

  async get(id: number): Promise<RolloutRecord | null> {
    return this.conn.read('reading a rolling run', (db) => this.fetch(db, id));
  }

  async lease(inventoryKey: string): Promise<Lease | null> {
    return this.conn.read('reading the rolling lease', (db) => leaseRow(db, inventoryKey));
  }

  async latestUnfinished(inventoryKey: string, playbook?: string): Promise<RolloutRecord | null> {
    const byPlaybook = playbook === undefined ? '' : ' AND playbook = ?';
    const row = this.conn.read(
      'finding the unfinished rolling run',
      (db) =>
        db
          .prepare(
            `SELECT ${RUN_COLUMNS} FROM rollout_runs WHERE inventory_key = ? AND status IN (${UNFINISHED_SQL})${byPlaybook}
             ORDER BY id DESC LIMIT 1`,
          )
          .get(...(playbook === undefined ? [inventoryKey] : [inventoryKey, playbook])) as Row | undefined,
    );
    return row ? toRecord(row) : null;
  }

  async list(limit: number): Promise<RolloutRecord[]> {
    return this.conn.read('listing the rolling runs', (db) =>
      (db.prepare(`SELECT ${RUN_COLUMNS} FROM rollout_runs ORDER BY id DESC LIMIT ?`).all(limit) as Row[]).map(
        toRecord,
      ),
    );
  }

  private fetch(db: Db, id: number): RolloutRecord | null {
    const row = db.prepare(`SELECT ${RUN_COLUMNS} FROM rollout_runs WHERE id = ?`).get(id) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  /** Whether the claim may take the lease now; LeaseHeldError naming the holder when it may not. */
  private admit(db: Db, current: Lease | null, claim: LeaseClaim, now: Date): LeaseState {
    const state = judgeLease(current, claim, now, this.isGone);
    if (state.kind !== 'held') return state;
    const row = db.prepare('SELECT playbook FROM rollout_runs WHERE id = ?').get(state.holder.runId) as Row | undefined;
    throw new LeaseHeldError(state.holder, row ? String(row.playbook) : null);
  }

  /** Throws LeaseLostError unless `lease` still holds its row (same token and fencing number). */
  private fenced(db: Db, lease: Lease): void {
    const current = leaseRow(db, lease.key);
    if (!stillHeld(lease, current)) throw new LeaseLostError(lease.runId, current);
  }

  private noteTakeOver(db: Db, runId: number, state: LeaseState, lease: Lease, now: Date): void {
    const reason = takeOverReason(state);
    if (reason === null || !('holder' in state)) return;
    insertEvent(
      db,
      {
        runId,
        host: '',
        phase: 'lock',
        state: 'note',
        at: now.toISOString(),
        detail: reason,
        data: {
          tookOverFrom: { runId: state.holder.runId, fence: state.holder.fence, identity: state.holder.identity },
        },
      },
      lease.fence,
    );
  }
}
