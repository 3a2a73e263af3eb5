// What can go wrong talking to a PostgreSQL store, as one line naming the server (host, port, database,
// user; never the password) and what to do. A store that cannot be reached or used (refused, unknown
// host, timeout, authentication, no such database, no rights, a read-only standby, a full disk) is exit 74,
// as an SQLite store that cannot be written: to a rolling run both mean "the journal cannot be written,
// fix the store, then resume", while 69 stays the lease's alone (held by another run, or lost). A row
// another session keeps locked past the wait is busy (75), as SQLite's write lock is.
import { PlayError } from '../../core/errors.js';
import { redact } from '../../core/secret.js';
import { errorCode, StoreWriteError } from '../store-errors.js';
import { describeTarget, type PostgresTarget } from './target.js';

/** The server asked for a password and none was found (URL, PGPASSWORD, password file). */
export class NoPasswordError extends Error {
  constructor(readonly pgpassNote: string | null) {
    super('no password');
    this.name = 'NoPasswordError';
  }
}

/** Another session held a row play needs (a lease, a run) for longer than play waits: exit 75 (EX_TEMPFAIL). */
export class PostgresBusyError extends PlayError {
  constructor(location: string, waitedMs: number, doing: string) {
    super(
      `state store ${location}: a row play needs stayed locked by another session for ${waitedMs / 1000} s while ` +
        `${doing} (another play, or a psql session holding a transaction); nothing was lost: try again when it is done`,
      75,
    );
  }
}

const REACH: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'refused the connection',
  ENOENT: 'has no socket there',
  EACCES: 'has a socket this user may not open',
  ENOTFOUND: 'cannot be found (the host name does not resolve)',
  EAI_AGAIN: 'cannot be found (the host name does not resolve)',
  ETIMEDOUT: 'did not answer',
  EHOSTUNREACH: 'cannot be reached (no route to the host)',
  ENETUNREACH: 'cannot be reached (no route to the host)',
};
const CHECK_SERVER = 'check that the server runs and listens there, or correct --state (or PLAY_STATE)';

const LOST = ['ECONNRESET', 'EPIPE', '08000', '08003', '08006', '57P01', '57P02', '57P03'];
const BUSY = ['55P03', '40001', '40P01', '57014'];
const TLS_VERIFY = /CERT|UNABLE_TO_VERIFY|SELF_SIGNED|ERR_TLS_CERT_ALTNAME_INVALID/;

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** [why, what to do] for an error reaching or using the server, or null when it is not one (a bug). */
function explain(e: unknown, t: PostgresTarget): [string, string] | null {
  const code = errorCode(e);
  const text = message(e);
  if (e instanceof NoPasswordError)
    return [
      `asks for a password for user ${t.user} and none was given${e.pgpassNote ? ` (${e.pgpassNote})` : ''}`,
      'put it in ~/.pgpass (mode 600) or the file PGPASSFILE names, in PGPASSWORD, or in the URL',
    ];
  if (REACH[code]) return [REACH[code], CHECK_SERVER];
  // node-postgres's own timeouts: connecting (connect_timeout), and a reply that never came (query_timeout).
  if (/Query read timeout/i.test(text))
    return ['stopped answering', 'check the server and the network, then run again'];
  if (/timeout/i.test(text))
    return [`did not answer within ${t.connectTimeoutMs / 1000} s`, `${CHECK_SERVER}; connect_timeout=S waits longer`];
  if (LOST.includes(code) || /Connection terminated/i.test(text))
    return [
      `closed the connection (${text})`,
      'the server restarted or the network dropped it: run again when it is back',
    ];
  if (code === '28P01')
    return [
      `refused the password of user ${t.user}`,
      'correct it where it comes from (~/.pgpass, PGPASSWORD or the URL)',
    ];
  if (code === '28000')
    return /SSL off/.test(text)
      ? [`refused the connection: ${text}`, 'the server wants TLS: add sslmode=verify-full (or require) to the URL']
      : [`refused the connection: ${text}`, 'its pg_hba.conf must let this user in from this host'];
  if (code === '3D000')
    return [
      `has no database ${t.database}`,
      `create it (createdb -O ${t.user} ${t.database}) or name another in --state`,
    ];
  if (code === '42501')
    return [
      `does not let user ${t.user} do it: ${text}`,
      "the user needs to own the database (or CREATE on its schema) to make play's tables, and to read and write them",
    ];
  if (code === '25006') return ['is read-only (a standby)', 'point --state at the primary'];
  if (code === '53100')
    return ['has a full disk', 'nothing of it was recorded; free space on the server and run again'];
  if (code === '53300' || code === '53400')
    return [`has no connection left (${text})`, 'try again, or raise max_connections'];
  if (/does not support SSL/i.test(text))
    return [
      `does not offer TLS (sslmode=${t.sslMode} asks for it)`,
      'enable ssl on the server, or use sslmode=disable on a trusted network',
    ];
  if (TLS_VERIFY.test(code))
    return [
      `presented a certificate that failed verification (${code}: ${text})`,
      'name the CA that signed it with sslrootcert=FILE; verify-full also needs the host name the certificate names',
    ];
  return null;
}

/**
 * The user-facing error for a failure of the store `t` while `doing` ('opening it', 'saving the drift
 * run'), or null when it is not one a user can act on (a bug: let it surface). `waitMs` is the lock wait.
 */
export function postgresFailure(e: unknown, t: PostgresTarget, doing: string, waitMs: number): PlayError | null {
  if (e instanceof PlayError) return e;
  if (BUSY.includes(errorCode(e))) return new PostgresBusyError(t.location, waitMs, doing);
  const found = explain(e, t);
  if (!found) return null;
  const [why, what] = found;
  return new StoreWriteError(t.location, redact(`${describeTarget(t)} ${why} while ${doing}`), redact(what));
}
