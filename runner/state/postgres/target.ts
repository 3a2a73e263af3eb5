// Which PostgreSQL server, database and user a `--state postgres://...` URL names, resolved the way libpq
// (psql) resolves it: the URL's parts and query parameters first, then libpq's variables (PGHOST, PGPORT,
// PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE...), then its defaults (the local socket directory when a
// server listens there, the login name as user and database). Resolved here rather than by node-postgres
// so that the messages name exactly what was tried. The password is a Secret: it is never part of the
// store's location, and any text play prints is scrubbed of it (runner/core/secret.ts).
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { ConnectionOptions } from 'node:tls';
import { UsageError } from '../../core/errors.js';
import { Secret } from '../../core/secret.js';
import { type SslMode, tlsOptions } from './tls.js';

export interface PostgresTarget {
  /** The URL as given, without its password: what messages and `play state check` show. */
  readonly location: string;
  /** A host name or address, or a Unix socket directory (starts with '/'). */
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  /** From the URL or PGPASSWORD; null: ask ~/.pgpass when the server wants one. */
  readonly password: Secret | null;
  readonly sslMode: SslMode;
  /** node-postgres's `ssl` option: false, or the TLS options sslmode asks for. */
  readonly ssl: false | ConnectionOptions;
  readonly connectTimeoutMs: number;
  readonly applicationName: string;
}

/** Whether `--state` names a PostgreSQL store rather than an SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

const SECRET_PARAMS = new Set(['password', 'sslpassword']);

/**
 * The URL without its password (in the user part or a `password=` parameter). Done on the text, not on a
 * parse: a URL too malformed to parse is still shown without it. Everything up to the last '@' before the
 * query counts as the user part, so an unencoded '/' or '@' in a password does not let it through.
 */
export function redactedUrl(url: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const queryAt = rest.search(/[?#]/);
  const head = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const tail = queryAt < 0 ? '' : rest.slice(queryAt);
  const at = head.lastIndexOf('@');
  const userPart = at < 0 ? '' : head.slice(0, at);
  const cleanHead = at < 0 ? head : `${userPart.split(':')[0]}@${head.slice(at + 1)}`;
  return scheme + cleanHead + redactedQuery(tail);
}

/** Percent-decoded, or null for text whose '%' is not an escape. */
function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function redactedQuery(tail: string): string {
  if (!tail.startsWith('?')) return tail;
  const hashAt = tail.indexOf('#');
  const query = hashAt < 0 ? tail.slice(1) : tail.slice(1, hashAt);
  const kept = query.split('&').filter((p) => !SECRET_PARAMS.has(decoded(p.split('=')[0] ?? '') ?? ''));
  return (kept.length ? `?${kept.join('&')}` : '') + (hashAt < 0 ? '' : tail.slice(hashAt));
}

/** The libpq parameters play understands, in the URL's query or (most of them) as PG* variables. */
const PARAMS: Readonly<Record<string, string>> = {
  host: 'PGHOST',
  port: 'PGPORT',
  user: 'PGUSER',
  dbname: 'PGDATABASE',
  password: 'PGPASSWORD',
  sslmode: 'PGSSLMODE',
  sslrootcert: 'PGSSLROOTCERT',
  sslcert: 'PGSSLCERT',
  sslkey: 'PGSSLKEY',
  connect_timeout: 'PGCONNECT_TIMEOUT',
  application_name: 'PGAPPNAME',
};

interface UrlParts {
  readonly host: string;
  readonly port: string;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  readonly params: ReadonlyMap<string, string>;
}

function refuse(location: string, what: string): never {
  throw new UsageError(`--state ${location}: ${what}`);
}

/** The URL's parts, percent-decoded. A URL with an empty host (`user@/db`) parses as libpq's does. */
function urlParts(url: string, location: string): UrlParts {
  let u: URL;
  try {
    u = new URL(url.replace(/@\//, '@play-no-host/'));
  } catch {
    refuse(location, 'not a valid URL; the form is postgres://USER@HOST:PORT/DATABASE?sslmode=verify-full');
  }
  // The path holds only the database: an '@' there ends a user or password that needed percent-encoding.
  if (u.pathname.includes('@'))
    refuse(location, "an '@' after the host: percent-encode '@' as %40 and '/' as %2F in the user and password");
  const params = new Map<string, string>();
  for (const [k, v] of u.searchParams) {
    if (!(k in PARAMS))
      refuse(
        location,
        `parameter '${k}' is not supported; play's PostgreSQL client knows ${Object.keys(PARAMS).join(', ')}`,
      );
    params.set(k, v);
  }
  const decode = (part: string, what: string) =>
    decoded(part) ?? refuse(location, `the ${what} has a '%' that is not an escape: write '%' as %25`);
  const host = u.hostname === 'play-no-host' ? '' : decode(u.hostname, 'host');
  if (host.includes(',')) refuse(location, 'several hosts are not supported: name one server');
  return {
    host: host.replace(/^\[(.*)\]$/, '$1'),
    port: u.port,
    user: decode(u.username, 'user'),
    password: decode(u.password, 'password'),
    database: decode(u.pathname.slice(1), 'database'),
    params,
  };
}

/** libpq's default when no host is named: the local socket directory a server listens in, else localhost. */
function defaultHost(port: number): string {
  for (const dir of ['/var/run/postgresql', '/tmp']) if (existsSync(join(dir, `.s.PGSQL.${port}`))) return dir;
  return 'localhost';
}

function loginName(env: NodeJS.ProcessEnv): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? 'postgres';
  }
}

/** Resolves `url` with libpq's variables in `env`; a URL play cannot honour is a usage error naming why. */
export function postgresTarget(url: string, env: NodeJS.ProcessEnv = process.env): PostgresTarget {
  const location = redactedUrl(url);
  const parts = urlParts(url, location);
  const pick = (urlValue: string, param: string): string | undefined => {
    return urlValue || parts.params.get(param) || env[PARAMS[param]!] || undefined;
  };
  const portText = pick(parts.port, 'port') ?? '5432';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) refuse(location, `port '${portText}' is not a port number`);
  const user = pick(parts.user, 'user') ?? loginName(env);
  const timeoutText = pick('', 'connect_timeout') ?? '10';
  const timeoutS = Number(timeoutText);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    refuse(location, `connect_timeout '${timeoutText}' is not a number of seconds above 0`);
  const password = pick(parts.password, 'password');
  const host = pick(parts.host, 'host') ?? defaultHost(port);
  const tls = tlsOptions(location, host, {
    sslmode: pick('', 'sslmode'),
    sslrootcert: pick('', 'sslrootcert'),
    sslcert: pick('', 'sslcert'),
    sslkey: pick('', 'sslkey'),
    home: env.HOME,
  });
  return {
    location,
    host,
    port,
    database: pick(parts.database, 'dbname') ?? user,
    user,
    password: password ? new Secret(password, 'the PostgreSQL password') : null,
    sslMode: tls.mode,
    ssl: tls.ssl,
    connectTimeoutMs: timeoutS * 1000,
    applicationName: pick('', 'application_name') ?? 'play',
  };
}

/** How messages name the server: `HOST:PORT (database D, user U)`; a socket directory with its socket file. */
export function describeTarget(t: PostgresTarget): string {
  const where = t.host.startsWith('/') ? join(t.host, `.s.PGSQL.${t.port}`) : `${t.host}:${t.port}`;
  return `PostgreSQL at ${where} (database ${t.database}, user ${t.user})`;
}
