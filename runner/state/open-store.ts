// Where play's state store is and which backend serves it: `--state`, else PLAY_STATE, else one SQLite
// file per user (state-path.ts). A `postgres://` or `postgresql://` URL is a PostgreSQL database that
// several controllers share (postgres/store.ts); anything else is an SQLite file. Commands that only read
// never create a store: for them a store that does not exist yet is null, which they report as "nothing
// recorded yet".
import type { PostgresStoreOptions } from './postgres/store.js';
import { isPostgresUrl, redactedUrl } from './postgres/target.js';
import type { SqliteStoreOptions } from './sqlite/store.js';
import { defaultStatePath } from './state-path.js';
import type { StateStore } from './store.js';

export type StoreMode = 'read' | 'write';

/** What a caller may set: each backend reads its own (the clock, the lock wait, libpq's variables). */
export type StoreOptions = SqliteStoreOptions & PostgresStoreOptions;

export async function openStore(
  location: string | undefined,
  mode?: 'write',
  options?: StoreOptions,
): Promise<StateStore>;
export async function openStore(
  location: string | undefined,
  mode: StoreMode,
  options?: StoreOptions,
): Promise<StateStore | null>;
export async function openStore(
  location: string | undefined,
  mode: StoreMode = 'write',
  options: StoreOptions = {},
): Promise<StateStore | null> {
  const where = location ?? defaultStatePath();
  // Loaded only for a PostgreSQL store: node-postgres costs every other command tens of milliseconds.
  if (isPostgresUrl(where)) return (await import('./postgres/store.js')).openPostgresStore(where, { ...options, mode });
  // Loaded only when a store is opened: better-sqlite3 and the store's tables cost a plain run tens of ms.
  return (await import('./sqlite/store.js')).openSqliteStore(where, { ...options, mode });
}

/** Where the store would be, for "nothing recorded yet" messages: a URL without its password. */
export function storeLocation(location: string | undefined): string {
  const where = location ?? defaultStatePath();
  return isPostgresUrl(where) ? redactedUrl(where) : where;
}
