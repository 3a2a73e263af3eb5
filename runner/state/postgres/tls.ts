// TLS for a PostgreSQL store, from libpq's sslmode as node-postgres can honour it. disable: none. require:
// encrypted, the server not verified (libpq's meaning; with sslrootcert, as verify-ca). verify-ca: the
// server's certificate must chain to the given CA. verify-full: that, and name the host. libpq reads the
// CA from sslrootcert, else ~/.postgresql/root.crt (sslrootcert=system: the system's CAs). allow and
// prefer fall back between plain and TLS connections, which node-postgres cannot do: they are refused
// rather than silently weakened or strengthened. Over a Unix socket there is no TLS (as in libpq).
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';

export type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

export interface TlsParams {
  readonly sslmode: string | undefined;
  readonly sslrootcert: string | undefined;
  readonly sslcert: string | undefined;
  readonly sslkey: string | undefined;
  /** Where ~/.postgresql is. */
  readonly home: string | undefined;
}

const MODES: readonly string[] = ['disable', 'require', 'verify-ca', 'verify-full'];

function readPem(location: string, param: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    const why = e instanceof Error && 'code' in e ? String(e.code) : String(e);
    throw new UsageError(`--state ${location}: ${param} ${file} cannot be read (${why})`);
  }
}

/** The CA to verify the server with: sslrootcert, else ~/.postgresql/root.crt; 'system': Node's own CAs. */
function rootCa(location: string, mode: SslMode, p: TlsParams): string | undefined {
  if (p.sslrootcert === 'system') return undefined;
  if (p.sslrootcert) return readPem(location, 'sslrootcert', p.sslrootcert);
  const home = p.home ? join(p.home, '.postgresql', 'root.crt') : null;
  try {
    if (home) return readFileSync(home, 'utf8');
  } catch {}
  throw new UsageError(
    `--state ${location}: sslmode=${mode} verifies the server against a CA certificate: name it with ` +
      'sslrootcert=FILE (or put it in ~/.postgresql/root.crt), or sslrootcert=system for the system CAs',
  );
}

/** The mode and node-postgres's `ssl` option for `host`; a mode play cannot honour is a usage error naming it. */
export function tlsOptions(
  location: string,
  host: string,
  p: TlsParams,
): { mode: SslMode; ssl: false | ConnectionOptions } {
  const asked = p.sslmode ?? 'disable';
  if (asked === 'allow' || asked === 'prefer')
    throw new UsageError(
      `--state ${location}: sslmode=${asked} is not supported (play's PostgreSQL client cannot fall back between ` +
        'plain and TLS connections): use sslmode=verify-full (encrypted, server verified), require (encrypted) or disable',
    );
  if (!MODES.includes(asked))
    throw new UsageError(`--state ${location}: sslmode=${asked} is not one of ${MODES.join(', ')}`);
  const mode = asked as SslMode;
  if (mode === 'disable' || host.startsWith('/')) return { mode, ssl: false };
  const client: ConnectionOptions = {
    ...(p.sslcert ? { cert: readPem(location, 'sslcert', p.sslcert) } : {}),
    ...(p.sslkey ? { key: readPem(location, 'sslkey', p.sslkey) } : {}),
  };
  if (mode === 'require' && !p.sslrootcert) return { mode, ssl: { ...client, rejectUnauthorized: false } };
  const ca = rootCa(location, mode, p);
  const verified: ConnectionOptions = { ...client, ...(ca ? { ca } : {}), rejectUnauthorized: true };
  // verify-ca (and require with a CA, as libpq does): the chain, not the host name.
  return mode === 'verify-full'
    ? { mode, ssl: verified }
    : { mode, ssl: { ...verified, checkServerIdentity: () => undefined } };
}
