// The rolling runs' journal and the rolling lock in the SQLite state store (tables rollout_*, made by
// sqlite-store.ts). A run is a row (the keys as columns, its args as JSON; its plan is a journal note); its events are rows
// numbered per run; the lock is one row per inventory key naming the run and the process holding it.
// The lock lives in the same file as the journal so that taking it and creating the run is one
// transaction: no run without its lock, no lock without its run.
import { InputError } from '../core/errors.js';
import { type RolloutStatus, UNFINISHED } from '../rolling/model.js';
import { isHolderAlive, LockHeldError } from './lock-held.js';
import type { Db, SqliteConnection } from './sqlite-busy.js';
import type { JournalEvent, LockHolder, RolloutJournal, RolloutRecord } from './store.js';

export interface SqliteRolloutOptions {
  /** Whether a lock's holder still runs (default isHolderAlive); tests simulate live and dead holders. */
  isAlive?: (pid: number, controller: string) => boolean;
  /** The clock for updatedAt, events' notes and the lock's since (tests pin it). */
  now?: () => Date;
  /** How long to wait out another process's file lock (default WAIT_MS; tests shorten it). */
  busyWaitMs?: number;
}

type Row = Record<string, unknown>;

const RUN_COLUMNS = 'id, playbook, inventory_key, status, reason, started_at, updated_at, pid, controller, record';
const UNFINISHED_SQL = UNFINISHED.map((s) => `'${s}'`).join(', ');
const UNFINISHED_WORDS = `${UNFINISHED.slice(0, -1).join(', ')} or ${UNFINISHED.at(-1)}`;

/** What the lock row says for a would-be holder. */
type LockState = { kind: 'free' } | { kind: 'ours' } | { kind: 'stale'; holder: LockHolder };

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

/** Appends an event; its number is the run's next, read in the same statement. */
function insertEvent(db: Db, e: JournalEvent): void {
  db.run(
    `INSERT INTO rollout_events (run_id, seq, host, phase, state, at, detail, data)
     SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ?, ?, ? FROM rollout_events WHERE run_id = ?`,
    [e.runId, e.host, e.phase, e.state, e.at, e.detail, e.data == null ? null : JSON.stringify(e.data), e.runId],
  );
}

export class SqliteRolloutJournal implements RolloutJournal {
  private readonly isAlive: (pid: number, controller: string) => boolean;
  private readonly now: () => Date;

  constructor(
    private readonly conn: SqliteConnection,
    options: SqliteRolloutOptions = {},
  ) {
    this.isAlive = options.isAlive ?? isHolderAlive;
    this.now = options.now ?? (() => new Date());
  }

  begin(run: Omit<RolloutRecord, 'id' | 'status' | 'reason' | 'updatedAt'>): RolloutRecord {
    // One IMMEDIATE transaction from reading the lock row to writing it: of two processes racing for the
    // same inventory, the second reads the row only after the first committed it.
    return this.conn.transaction((db) => {
      const lock = this.checkLock(db, run.inventoryKey, null, run.pid, run.controller);
      const at = this.stamp();
      const took = lock.kind === 'stale' ? JSON.stringify(lock.holder) : null;
      const id = Number(
        db.run(
          `INSERT INTO rollout_runs (playbook, inventory_key, status, reason, started_at, updated_at, pid, controller,
             took_over, record) VALUES (?, ?, 'running', NULL, ?, ?, ?, ?, ?, ?)`,
          [
            run.playbook,
            run.inventoryKey,
            run.startedAt,
            at,
            run.pid,
            run.controller,
            took,
            JSON.stringify({ args: run.args }),
          ],
        ).lastInsertRowid,
      );
      this.writeLock(db, run.inventoryKey, id, run.pid, run.controller, at);
      // The stale holder's run keeps its status (running): whoever resumes it decides. This run's row and
      // journal say that it took the lock over, for the report and for whoever wonders where it went.
      if (lock.kind === 'stale') this.noteTakeOver(db, id, lock.holder, at);
      return this.fetch(db, id)!;
    });
  }

  takeOver(id: number, pid: number, controller: string): RolloutRecord {
    return this.conn.transaction((db) => {
      const run = this.fetch(db, id);
      if (!run) throw new InputError(`no rolling run ${id} in the state store ${this.conn.path}`);
      if (!UNFINISHED.includes(run.status))
        throw new InputError(
          `rolling run ${id} (${run.playbook}) is ${run.status}: only a ${UNFINISHED_WORDS} run can be resumed`,
        );
      const lock = this.checkLock(db, run.inventoryKey, id, pid, controller);
      const at = this.stamp();
      if (lock.kind !== 'ours') this.writeLock(db, run.inventoryKey, id, pid, controller, at);
      if (lock.kind === 'stale') this.noteTakeOver(db, id, lock.holder, at);
      // The reason was why it stopped (paused, interrupted); running again, it has none.
      db.run(
        `UPDATE rollout_runs SET status = 'running', reason = NULL, pid = ?, controller = ?, updated_at = ?,
           took_over = coalesce(?, took_over) WHERE id = ?`,
        [pid, controller, at, lock.kind === 'stale' ? JSON.stringify(lock.holder) : null, id],
      );
      return this.fetch(db, id)!;
    });
  }

  record(event: JournalEvent): void {
    // One statement in autocommit: its own transaction, synced to disk (SQLite's default
    // synchronous=FULL) before it returns.
    this.conn.retry((db) => insertEvent(db, event));
  }

  events(runId: number): JournalEvent[] {
    return this.conn.retry((db) =>
      (db.all('SELECT * FROM rollout_events WHERE run_id = ? ORDER BY seq', [runId]) as Row[]).map(toEvent),
    );
  }

  setStatus(id: number, status: RolloutStatus, reason: string | null = null): void {
    this.conn.transaction((db) => {
      const { changes } = db.run('UPDATE rollout_runs SET status = ?, reason = ?, updated_at = ? WHERE id = ?', [
        status,
        reason,
        this.stamp(),
        id,
      ]);
      if (changes === 0) throw new Error(`rolling run ${id} is not in the state store ${this.conn.path}`);
      // Only a running run holds its inventory: paused or interrupted, it is resumed with takeOver, which
      // takes the lock again; finished, it never needs it. Someone else's lock is not ours to drop.
      if (status !== 'running') db.run('DELETE FROM rollout_locks WHERE run_id = ?', [id]);
    });
  }

  unlock(runId: number): boolean {
    return this.conn.retry((db) => db.run('DELETE FROM rollout_locks WHERE run_id = ?', [runId]).changes > 0);
  }

  get(id: number): RolloutRecord | null {
    return this.conn.retry((db) => this.fetch(db, id));
  }

  latestUnfinished(inventoryKey: string, playbook?: string): RolloutRecord | null {
    const byPlaybook = playbook === undefined ? '' : ' AND playbook = ?';
    const row = this.conn.retry(
      (db) =>
        db.get(
          `SELECT ${RUN_COLUMNS} FROM rollout_runs WHERE inventory_key = ? AND status IN (${UNFINISHED_SQL})${byPlaybook}
           ORDER BY id DESC LIMIT 1`,
          playbook === undefined ? [inventoryKey] : [inventoryKey, playbook],
        ) as Row | null,
    );
    return row ? toRecord(row) : null;
  }

  list(limit: number): RolloutRecord[] {
    return this.conn.retry((db) =>
      (db.all(`SELECT ${RUN_COLUMNS} FROM rollout_runs ORDER BY id DESC LIMIT ?`, [limit]) as Row[]).map(toRecord),
    );
  }

  private fetch(db: Db, id: number): RolloutRecord | null {
    const row = db.get(`SELECT ${RUN_COLUMNS} FROM rollout_runs WHERE id = ?`, [id]) as Row | null;
    return row ? toRecord(row) : null;
  }

  private stamp(): string {
    return this.now().toISOString();
  }

  /**
   * Whether the inventory's lock may go to `pid` on `controller` (for run `runId`; null: a new run).
   * Throws LockHeldError when a live other process holds it; otherwise says what it replaces.
   */
  private checkLock(db: Db, key: string, runId: number | null, pid: number, controller: string): LockState {
    const row = db.get(
      `SELECT l.run_id, l.pid, l.controller, l.since, r.playbook FROM rollout_locks l
       LEFT JOIN rollout_runs r ON r.id = l.run_id WHERE l.inventory_key = ?`,
      [key],
    ) as Row | null;
    if (!row) return { kind: 'free' };
    const holder: LockHolder = {
      runId: Number(row.run_id),
      pid: Number(row.pid),
      controller: String(row.controller),
      since: String(row.since),
    };
    // The would-be holder's own pid on its own controller is not another process: the same process taking
    // its run over again (nothing changes), or a dead process whose pid it got (stale).
    if (holder.pid === pid && holder.controller === controller)
      return holder.runId === runId ? { kind: 'ours' } : { kind: 'stale', holder };
    if (this.isAlive(holder.pid, holder.controller))
      throw new LockHeldError(holder, row.playbook == null ? null : String(row.playbook));
    return { kind: 'stale', holder };
  }

  private writeLock(db: Db, key: string, runId: number, pid: number, controller: string, since: string): void {
    db.run(
      'INSERT OR REPLACE INTO rollout_locks (inventory_key, run_id, pid, controller, since) VALUES (?, ?, ?, ?, ?)',
      [key, runId, pid, controller, since],
    );
  }

  private noteTakeOver(db: Db, runId: number, stale: LockHolder, at: string): void {
    insertEvent(db, {
      runId,
      host: '',
      phase: 'lock',
      state: 'note',
      at,
      detail: `took over the stale rolling lock of run ${stale.runId} (held by pid ${stale.pid} on ${stale.controller} since ${stale.since}; that process is gone)`,
      data: { tookOverFrom: stale },
    });
  }
}
