// Reaching a PostgreSQL state store (runner/state/postgres/target.ts, tls.ts, pgpass.ts, failures.ts) on a
// private server that also listens on 127.0.0.1 with TLS (test/helpers/postgres.ts): the password never in
// the location or a message, libpq's variables and password file (psql, reading the same file, is the
// oracle), sslmode as libpq means it, and one line naming the server for each way a connection fails.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { openStore, storeLocation } from '../../runner/state/open-store.js';
import { redactedUrl } from '../../runner/state/postgres/target.js';
import { SCHEMA_VERSION } from '../../runner/state/postgres/schema.js';
import type { StateStore } from '../../runner/state/store.js';
import { PLAY_PASSWORD, PLAY_USER, postgresForThisFile } from '../helpers/postgres.js';

const server = postgresForThisFile(test, { tls: true });

type Failure = Error & { exitCode?: number };

/** Opens the store with only `env` as libpq's variables (none of this process's own PG*). */
async function open(t: ExecutionContext, url: string, env: NodeJS.ProcessEnv = {}): Promise<StateStore> {
  const store = await openStore(url, 'write', { env });
  t.teardown(() => store.close());
  return store;
}

/** The error opening `url` throws, checked to be one line without the password in any form. */
async function refusal(t: ExecutionContext, url: string, env: NodeJS.ProcessEnv = {}): Promise<Failure> {
  const e = (await t.throwsAsync(openStore(url, 'write', { env }))) as Failure;
  for (const form of [PLAY_PASSWORD, encodeURIComponent(PLAY_PASSWORD)]) t.false(e.message.includes(form), e.message);
  t.false(e.message.includes('\n'), e.message);
  return e;
}

function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-pgpass-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('the location is the URL without its password, from the user part or a password= parameter', (t) => {
  const cases: [string, string][] = [
    ['postgres://play:s3cret@db1:5432/play?sslmode=verify-full', 'postgres://play@db1:5432/play?sslmode=verify-full'],
    ['postgresql://play:p%40ss@/play?host=/run/pg', 'postgresql://play@/play?host=/run/pg'],
    ['postgres://db1/play?password=s3cret&sslmode=require', 'postgres://db1/play?sslmode=require'],
    ['postgres://play:pa/ss@word@db1/play', 'postgres://play@db1/play'],
    ['postgres://play@db1/play', 'postgres://play@db1/play'],
    ['postgresql://', 'postgresql://'],
  ];
  for (const [url, location] of cases) {
    t.is(redactedUrl(url), location, url);
    t.is(storeLocation(url), location, url);
  }
  t.is(storeLocation('/var/lib/play/state.db'), '/var/lib/play/state.db');
});

test('a store opened with a password shows none: location, check, and a refused password (exit 74)', async (t) => {
  const s = await server();
  const database = await s.createDatabase();
  const location = s.url({ database, password: null });
  const store = await open(t, s.url({ database }));
  t.is(store.location, location);
  t.is((await store.check()).location, location);
  const asParameter = await open(t, s.url({ database, password: null, params: { password: PLAY_PASSWORD } }));
  t.is(asParameter.location, location);
  const wrong = await refusal(t, s.url({ database, password: `${PLAY_PASSWORD}-wrong` }));
  t.is(wrong.exitCode, 74);
  t.is(
    wrong.message,
    `state store ${location}: PostgreSQL at ${s.dir}/.s.PGSQL.${s.port} (database ${database}, user play) refused the ` +
      'password of user play while opening it; correct it where it comes from (~/.pgpass, PGPASSWORD or the URL)',
  );
  const unencoded = await refusal(t, `postgresql://play:${PLAY_PASSWORD}@/${database}?host=${s.dir}`);
  t.is(unencoded.exitCode, 64);
});

/** A password file with `lines`, mode `mode`. */
function pgpass(t: ExecutionContext, lines: string[], mode: number): string {
  const file = join(tempDir(t), 'pgpass');
  writeFileSync(file, `${lines.join('\n')}\n`);
  chmodSync(file, mode);
  return file;
}

test("libpq's variables and password file, as psql reads them", async (t) => {
  const s = await server();
  const database = await s.createDatabase();
  const where = { PGHOST: s.dir, PGPORT: String(s.port), PGUSER: PLAY_USER, PGDATABASE: database };
  const byEnv = await open(t, 'postgresql://', { ...where, PGPASSWORD: PLAY_PASSWORD });
  t.is(byEnv.location, 'postgresql://');
  t.is((await byEnv.check()).schema, SCHEMA_VERSION);
  // The password has ':' in it: escaped as libpq's file format wants.
  const escaped = PLAY_PASSWORD.replace(/[\\:]/g, (c) => `\\${c}`);
  const file = pgpass(t, ['# play', `otherhost:*:*:*:nope`, `${s.dir}:${s.port}:*:${PLAY_USER}:${escaped}`], 0o600);
  const psql = await promisify(execFile)(s.psqlBinary, ['-X', '-A', '-t', '-w', '-c', 'SELECT current_user'], {
    env: { ...process.env, ...where, PGPASSWORD: '', PGPASSFILE: file },
  });
  t.is(psql.stdout.trim(), PLAY_USER, 'psql reads the same password file');
  await open(t, s.url({ database, password: null }), { PGPASSFILE: file });
  const open644 = await refusal(t, s.url({ database, password: null }), { PGPASSFILE: pgpass(t, [escaped], 0o644) });
  t.is(open644.exitCode, 74);
  t.regex(
    open644.message,
    /asks for a password for user play and none was given \(.*pgpass was ignored: group or others may read it: chmod 600 /,
  );
  const none = await refusal(t, s.url({ database, password: null }), {
    PGPASSFILE: pgpass(t, ['*:*:other:*:x'], 0o600),
  });
  t.regex(none.message, /asks for a password for user play and none was given while opening it; put it in ~\/\.pgpass/);
});

test('a server that cannot be reached or used: one line naming host, port, database and user (exit 74)', async (t) => {
  const s = await server();
  const silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.teardown(() => silent.close());
  const silentPort = (silent.address() as { port: number }).port;
  const cases: [string, RegExp][] = [
    [
      `postgresql://play:x@127.0.0.1:1/db`,
      /PostgreSQL at 127\.0\.0\.1:1 \(database db, user play\) refused the connection/,
    ],
    [
      'postgresql://play:x@/db?host=/nonexistent',
      /PostgreSQL at \/nonexistent\/\.s\.PGSQL\.5432 .* has no socket there/,
    ],
    [
      `postgresql://play:x@127.0.0.1:${silentPort}/db?connect_timeout=1`,
      new RegExp(`at 127\\.0\\.0\\.1:${silentPort} \\(database db, user play\\) did not answer within 1 s`),
    ],
    [
      s.url({ database: 'nowhere' }),
      /\(database nowhere, user play\) has no database nowhere .*createdb -O play nowhere/,
    ],
  ];
  for (const [url, message] of cases) {
    const e = await refusal(t, url);
    t.is(e.exitCode, 74, url);
    t.regex(e.message, message);
  }
});

test('TLS: sslmode as libpq means it; verify-full checks the name; what node-postgres cannot do is refused by name', async (t) => {
  const s = await server();
  const database = await s.createDatabase();
  const tcp = (host: string, params: Record<string, string>) => s.url({ database, tcpHost: host, params });
  await open(t, tcp('localhost', { sslmode: 'require', application_name: 'play-tls' }));
  t.is(
    await s.psql("SELECT ssl FROM pg_stat_ssl JOIN pg_stat_activity USING (pid) WHERE application_name = 'play-tls'"),
    't',
  );
  await open(t, tcp('localhost', { sslmode: 'verify-full', sslrootcert: s.certificate }));
  await open(t, tcp('127.0.0.1', { sslmode: 'verify-ca', sslrootcert: s.certificate }));
  const byIp = await refusal(t, tcp('127.0.0.1', { sslmode: 'verify-full', sslrootcert: s.certificate }));
  t.is(byIp.exitCode, 74);
  t.regex(byIp.message, /presented a certificate that failed verification \(ERR_TLS_CERT_ALTNAME_INVALID/);
  const system = await refusal(t, tcp('localhost', { sslmode: 'verify-full', sslrootcert: 'system' }));
  t.regex(system.message, /failed verification \(DEPTH_ZERO_SELF_SIGNED_CERT/);
  const noCa = await refusal(t, tcp('localhost', { sslmode: 'verify-full' }), { HOME: tempDir(t) });
  t.is(noCa.exitCode, 64);
  t.regex(
    noCa.message,
    /sslmode=verify-full verifies the server against a CA certificate: name it with sslrootcert=FILE/,
  );
  for (const mode of ['prefer', 'allow']) {
    const e = await refusal(t, tcp('localhost', { sslmode: mode }));
    t.is(e.exitCode, 64, mode);
    t.regex(e.message, new RegExp(`sslmode=${mode} is not supported \\(play's PostgreSQL client cannot fall back`));
  }
  const fromEnv = await refusal(t, tcp('localhost', {}), { PGSSLMODE: 'prefer' });
  t.regex(fromEnv.message, /sslmode=prefer is not supported/);
});

test('a URL play cannot honour is a usage error (exit 64) naming what, without the password', async (t) => {
  const cases: [string, RegExp][] = [
    [
      `postgres://play:${encodeURIComponent(PLAY_PASSWORD)}@db1/play?target_session_attrs=any`,
      /parameter 'target_session_attrs' is not supported/,
    ],
    [`postgres://play:${encodeURIComponent(PLAY_PASSWORD)}@db1,db2/play`, /several hosts are not supported/],
    [`postgres://play:${PLAY_PASSWORD.replace('/', '')}@db1/play`, /the password has a '%' that is not an escape/],
    [`postgres://play:${encodeURIComponent(PLAY_PASSWORD)}@db1/play?port=99999`, /port '99999' is not a port number/],
  ];
  for (const [url, message] of cases) {
    const e = await refusal(t, url);
    t.is(e.exitCode, 64, url);
    t.regex(e.message, message);
    t.true(e.message.startsWith('--state postgres://play@db'), e.message);
    t.false(e.message.includes('s3cr3t'), e.message);
  }
});
