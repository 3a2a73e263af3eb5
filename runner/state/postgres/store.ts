// The state store in a PostgreSQL database, so that several controllers share one fleet's memory: the
// drift history (drift.ts), the rolling journal with its lease (rollouts.ts) and the shared schedules'
// ticks (schedules.ts) are rows in play_* tables (schema.ts), reached through one connection pool
// (connection.ts) to the server a `postgres://` URL names (target.ts). Same contract as the SQLite file.
import { UsageError } from '../../core/errors.js';
import type { StateStore, StoreCheck } from '../store.js';
import { PostgresConnection } from './connection.js';
import { PostgresDriftHistory } from './drift.js';
import { PostgresRolloutJournal, type PostgresRolloutOptions } from './rollouts.js';
import { PostgresKbQuarantine } from './quarantine.js';
import { prepareSchema } from './schema.js';
import { PostgresScheduleClaims } from './schedules.js';
import { postgresTarget } from './target.js';

export interface PostgresStoreOptions extends PostgresRolloutOptions {
  /** 'read': never creates play's tables (a read-only command); 'write' (default): creates and upgrades them. */
  readonly mode?: 'read' | 'write';
  /** How long to wait for a row another session locked (default WAIT_MS; tests shorten it). */
  readonly busyWaitMs?: number;
  /** libpq's variables (PGHOST, PGPASSWORD, PGPASSFILE...): the process's own unless a test gives its own. */
  readonly env?: NodeJS.ProcessEnv;
}

// One snapshot: the counts and what should never exist (rows of no run; a lease on no run, or held by a
// run that no longer runs, which only a write outside play could leave).
const CHECK = `
  SELECT (SELECT value FROM play_meta WHERE key = 'schema_version') AS schema,
    (SELECT count(*) FROM play_drift_runs) AS drift_runs,
    (SELECT count(*) FROM play_rollout_runs) AS rollouts,
    (SELECT count(*) FROM play_drift_items i WHERE NOT EXISTS (SELECT 1 FROM play_drift_runs r WHERE r.id = i.run_id))
      AS orphan_items,
    (SELECT count(*) FROM play_rollout_events e
      WHERE NOT EXISTS (SELECT 1 FROM play_rollout_runs r WHERE r.id = e.run_id)) AS orphan_events,
    (SELECT coalesce(json_agg(json_build_object('key', l.inventory_key, 'run', l.run_id, 'status', r.status)), '[]')
      FROM play_rollout_leases l LEFT JOIN play_rollout_runs r ON r.id = l.run_id
      WHERE r.id IS NULL OR (NOT l.released AND r.status <> 'running')) AS bad_leases`;

interface BadLease {
  key: string;
  run: number;
  status: string | null;
}

function problemsOf(row: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const items = Number(row.orphan_items);
  const events = Number(row.orphan_events);
  const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
  if (items > 0) problems.push(`play_drift_items: ${rows(items)} of drift runs that do not exist`);
  if (events > 0) problems.push(`play_rollout_events: ${rows(events)} of rolling runs that do not exist`);
  for (const l of row.bad_leases as BadLease[])
    problems.push(
      l.status === null
        ? `play_rollout_leases: the lease on ${l.key} points at rolling run ${l.run}, which does not exist`
        : `play_rollout_leases: the lease on ${l.key} is held by rolling run ${l.run}, which is ${l.status}`,
    );
  return problems;
}

function storeOn(conn: PostgresConnection, options: PostgresRolloutOptions, id: string): StateStore {
  return {
    location: conn.location,
    id,
    drift: new PostgresDriftHistory(conn),
    rollouts: new PostgresRolloutJournal(conn, options),
    schedules: new PostgresScheduleClaims(conn, options.now),
    quarantine: new PostgresKbQuarantine(conn),
    check: async (): Promise<StoreCheck> => {
      const [row] = await conn.query('checking it', CHECK);
      return {
        location: conn.location,
        schema: Number(row!.schema),
        problems: problemsOf(row!),
        driftRuns: Number(row!.drift_runs),
        rollouts: Number(row!.rollouts),
      };
    },
    // A consistent copy of a database is the server's own tools' job (pg_dump takes one snapshot while
    // others write); play does not write a second format of it.
    backup: async () => {
      throw new UsageError(
        `state backup: ${conn.location} is a PostgreSQL store: back it up with pg_dump, which takes a consistent ` +
          `snapshot while others write (pg_dump --table='play_*' --format=custom --file=FILE '${conn.location}')`,
      );
    },
    close: () => conn.close(),
  };
}

/**
 * Opens the store in the database `url` names, creating play's tables (mode 'write', the default) and
 * upgrading older ones; in mode 'read' a database without them is null (nothing recorded yet), and
 * nothing is created. A URL play cannot honour is exit 64; a server it cannot reach or use, exit 74
 * (failures.ts); a store from a newer play, exit 65.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<StateStore | null> {
  const conn = new PostgresConnection(postgresTarget(url, options.env), options.busyWaitMs, options.env);
  try {
    if (!(await prepareSchema(conn, options.mode ?? 'write'))) {
      await conn.close();
      return null;
    }
    const [row] = await conn.query("reading the store's id", "SELECT value FROM play_meta WHERE key = 'store_id'");
    return storeOn(conn, options, String(row!.value));
  } catch (e) {
    await conn.close();
    throw e;
  }
}
