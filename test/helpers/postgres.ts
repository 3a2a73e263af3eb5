// A private PostgreSQL server for the tests of one file: Debian's own binaries (/usr/lib/postgresql/N/bin,
// the newest N), initdb into a temp directory, listening on a Unix socket in that directory (and, for TLS
// tests, on 127.0.0.1 with a self-signed certificate), started with pg_ctl and removed when the file's
// tests end. PostgreSQL refuses to run as root, so as root (the suite) its commands run as the postgres
// user, in a directory that user owns. One server per file (initdb takes a second or two); one fresh
// database per test (createDatabase), owned by the `play` role, which logs in with a password.
// Missing binaries fail the test saying how to install them: never a skip.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestFn } from 'ava';

const run = promisify(execFile);

export const PLAY_USER = 'play';
/** Characters a URL must percent-encode (':', '@', '/', '%', '&'): the store must never show any of it. */
export const PLAY_PASSWORD = 'Tr0ub4dor&3:@/%x-s3cr3t';

export interface ServerOptions {
  /** Also listen on 127.0.0.1 with TLS (a self-signed certificate for the name localhost only). */
  readonly tls?: boolean;
  /** fsync and full page writes on, as a production server (the bench); off for tests, which are faster. */
  readonly durable?: boolean;
}

export interface UrlOptions {
  readonly database: string;
  /** Default PLAY_PASSWORD; null: none in the URL. */
  readonly password?: string | null;
  readonly user?: string;
  /** Over TCP (127.0.0.1 or `host`) instead of the socket. */
  readonly tcpHost?: string;
  readonly params?: Readonly<Record<string, string>>;
}

export interface PostgresServer {
  /** The socket directory (also where the data and the certificate are). */
  readonly dir: string;
  /** The TCP port when tls was asked for; else the number of the socket file. */
  readonly port: number;
  /** The server's certificate (self-signed: its own CA) when tls was asked for. */
  readonly certificate: string;
  /** The server's own psql, for a test that drives it directly. */
  readonly psqlBinary: string;
  url(o: UrlOptions): string;
  /** A new database owned by the play role: its name. */
  createDatabase(): Promise<string>;
  /** A URL with the password for a new database: what another test file needs to point play at it. */
  /** `password` null: none in the URL (give it as PGPASSWORD, as a user would). */
  freshUrl(params?: Readonly<Record<string, string>>, password?: null): Promise<string>;
  /** psql as the superuser: the oracle for what is in a database. Its output, unaligned, tuples only. */
  psql(sql: string, database?: string): Promise<string>;
  stop(): void;
}

/** The newest installed server's binaries; an Error saying how to install them when there are none. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: apt-get install postgresql');
  return join(root, versions[0]!, 'bin');
}

/** A TCP port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const [uid, gid] = ['-u', '-g'].map((f) => Number(execFileSync('id', [f, 'postgres'], { encoding: 'utf8' })));
  return { uid: uid!, gid: gid! };
}

const CERTIFICATE_ARGS =
  '-x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=localhost -addext subjectAltName=DNS:localhost';

function selfSignedCertificate(dir: string, owner: { uid: number; gid: number } | null): void {
  const [key, crt] = [join(dir, 'server.key'), join(dir, 'server.crt')];
  execFileSync('openssl', ['req', ...CERTIFICATE_ARGS.split(' '), '-keyout', key, '-out', crt], { stdio: 'ignore' });
  for (const f of [key, crt]) if (owner) chownSync(f, owner.uid, owner.gid);
  chmodSync(key, 0o600);
}

function configure(dir: string, data: string, port: number, o: ServerOptions): void {
  const settings = [
    `listen_addresses = '${o.tls ? '127.0.0.1' : ''}'`,
    `port = ${port}`,
    `unix_socket_directories = '${dir}'`,
    `fsync = ${o.durable ? 'on' : 'off'}`,
    `full_page_writes = ${o.durable ? 'on' : 'off'}`,
    ...(o.tls ? ['ssl = on', `ssl_cert_file = '${dir}/server.crt'`, `ssl_key_file = '${dir}/server.key'`] : []),
  ];
  appendFileSync(join(data, 'postgresql.conf'), `\n${settings.join('\n')}\n`);
  // The superuser (the oracle, psql) is trusted on the socket; play logs in with its password, as in production.
  const hba = ['local all postgres trust', 'local all all scram-sha-256', 'host all all 127.0.0.1/32 scram-sha-256'];
  writeFileSync(join(data, 'pg_hba.conf'), `${hba.join('\n')}\n`);
}

/** Starts a server (initdb, configure, pg_ctl start): about 1-2 s. */
export async function startPostgres(o: ServerOptions = {}): Promise<PostgresServer> {
  const bin = binDir();
  const owner = postgresUser();
  const as = (cmd: string, args: string[]) =>
    owner ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  const dir = mkdtempSync(join(tmpdir(), 'play-pgtest-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const port = o.tls ? await freePort() : 5432;
  const stop = () => {
    try {
      execFileSync(...stopCommand(owner !== null, bin, data), { stdio: 'ignore' });
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await as('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    if (o.tls) selfSignedCertificate(dir, owner);
    configure(dir, data, port, o);
    await as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  } catch (e) {
    stop();
    throw e;
  }
  process.once('exit', stop);
  const psql = async (sql: string, database = 'postgres') => {
    const to = ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', database];
    return (
      await run(join(bin, 'psql'), ['-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1', ...to, '-c', sql])
    ).stdout.trim();
  };
  await psql(`CREATE ROLE ${PLAY_USER} LOGIN PASSWORD '${PLAY_PASSWORD}'`);
  const createDatabase = async () => {
    const name = `t_${randomBytes(6).toString('hex')}`;
    await psql(`CREATE DATABASE ${name} OWNER ${PLAY_USER}`);
    return name;
  };
  const url = urlOf(dir, port);
  return {
    dir,
    port,
    certificate: join(dir, 'server.crt'),
    psqlBinary: join(bin, 'psql'),
    url,
    createDatabase,
    freshUrl: async (params, password) => url({ database: await createDatabase(), params, password }),
    psql,
    stop: () => {
      process.off('exit', stop);
      stop();
    },
  };
}

/** URLs of databases on the server at `dir` (its socket) and `port`. */
function urlOf(dir: string, port: number): (u: UrlOptions) => string {
  return (u) => {
    const password = u.password === undefined ? PLAY_PASSWORD : u.password;
    const who = `${encodeURIComponent(u.user ?? PLAY_USER)}${password === null ? '' : `:${encodeURIComponent(password)}`}`;
    const params = new URLSearchParams(u.tcpHost ? { ...u.params } : { host: dir, port: String(port), ...u.params });
    const query = params.size ? `?${params}` : '';
    return u.tcpHost
      ? `postgresql://${who}@${u.tcpHost}:${port}/${u.database}${query}`
      : `postgresql://${who}@/${u.database}${query}`;
  };
}

function stopCommand(asPostgres: boolean, bin: string, data: string): [string, string[]] {
  const stop = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop'];
  return asPostgres ? ['runuser', ['-u', 'postgres', '--', ...stop]] : [stop[0]!, stop.slice(1)];
}

/**
 * The server of this test file: started by the first test that asks, stopped and removed after the
 * file's last test. Call at the top of a test file with its ava `test` (the helper itself does not load
 * ava, so a script can start a server too).
 */
export function postgresForThisFile(test: TestFn, o: ServerOptions = {}): () => Promise<PostgresServer> {
  let started: Promise<PostgresServer> | null = null;
  test.after.always(async () => {
    const server = await started?.catch(() => null);
    server?.stop();
  });
  return () => {
    started ??= startPostgres(o);
    return started;
  };
}
