// The connection pool to a PostgreSQL store (node-postgres) and its two ways to run SQL: one statement
// (atomic on its own, one round trip) and one transaction. Each session waits at most `busyWaitMs` for a
// row lock (lock_timeout: then the store is busy, exit 75, as SQLite's busy timeout), and the server ends
// a session that sits idle inside a transaction (a controller paused mid-write: SIGSTOP, a frozen VM), so
// the rows it locked are not held forever; its transaction rolls back whole. The password is asked for
// only when the server wants one: from the URL or PGPASSWORD, else the password file.
import pg from 'pg';
import { Secret } from '../../core/secret.js';
import { NoPasswordError, postgresFailure } from './failures.js';
import { pgpassPassword } from './pgpass.js';
import type { PostgresTarget } from './target.js';

/** How long a statement waits for a row another session locked before the store counts as busy. */
export const WAIT_MS = 15_000;
/** A session idle this long inside a transaction is ended by the server, rolling it back. */
const IDLE_IN_TRANSACTION_MS = 10_000;
/** How long the client waits for any answer before it gives the connection up (a server gone silent). */
const QUERY_TIMEOUT_MS = 60_000;

export type Row = Record<string, unknown>;

/** A statement runner: the pool outside a transaction, the transaction's client inside one. */
export interface Sql {
  query(text: string, params?: readonly unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}

export class PostgresConnection {
  readonly pool: pg.Pool;

  constructor(
    readonly target: PostgresTarget,
    readonly waitMs: number = WAIT_MS,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.pool = new pg.Pool({
      host: target.host,
      port: target.port,
      database: target.database,
      user: target.user,
      password: async () => {
        if (target.password) return target.password.reveal();
        const found = pgpassPassword(target, env);
        if (found.password) return new Secret(found.password, `${found.file}`).reveal();
        throw new NoPasswordError(found.ignored ? `${found.file} was ignored: ${found.ignored}` : null);
      },
      ssl: target.ssl,
      application_name: target.applicationName,
      lock_timeout: waitMs,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
      connectionTimeoutMillis: target.connectTimeoutMs,
      query_timeout: QUERY_TIMEOUT_MS + waitMs,
      keepAlive: true,
      max: 4,
      idleTimeoutMillis: 10_000,
      allowExitOnIdle: true,
    });
    // An idle connection the server closed (a restart): the pool drops it and the next query opens another.
    this.pool.on('error', () => {});
  }

  get location(): string {
    return this.target.location;
  }

  /** The user-facing error for `e` while `doing`, or `e` itself (a bug). */
  failure(e: unknown, doing: string): unknown {
    return postgresFailure(e, this.target, doing, this.waitMs) ?? e;
  }

  /** One statement, in its own implicit transaction. */
  async query(doing: string, text: string, params: readonly unknown[] = []): Promise<Row[]> {
    try {
      return (await this.pool.query(text, params as unknown[])).rows;
    } catch (e) {
      throw this.failure(e, doing);
    }
  }

  /** `fn` in one transaction (READ COMMITTED: each statement sees what committed before it, after its locks). */
  async write<T>(doing: string, fn: (sql: Sql) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw this.failure(e, doing);
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const out = await fn(client as unknown as Sql);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch((r: unknown) => {
        broken = r instanceof Error ? r : new Error(String(r));
      });
      throw this.failure(e, doing);
    } finally {
      // A connection that could not even roll back is dropped, not reused.
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}
