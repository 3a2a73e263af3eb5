import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { UnreachableError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import { EnvRef, type ConnectionSpec, type Host } from '../../runner/inventory/model.js';
import { hostKeyName } from '../../runner/transport/known-hosts.js';
import { ConnectionPool, targetOf } from '../../runner/transport/pool.js';
import { tempDir, TestSshServer, writeClientKey } from './helpers/ssh-server.js';

function host(name: string, connection: Partial<ConnectionSpec> & { port: number }): Host {
  return {
    name,
    vars: {},
    groups: ['all'],
    connection: { address: '127.0.0.1', user: 'root', os: 'linux', ...connection },
  };
}

async function setup(t: import('ava').ExecutionContext) {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const key = writeClientKey(dir);
  const server = await TestSshServer.start({ authorizedKeys: [key.public] });
  t.teardown(() => server.close());
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `${hostKeyName('127.0.0.1', server.port)} ${server.hostKey.public}\n`);
  const pool = new ConnectionPool({
    knownHostsFile: knownHosts,
    agentSocket: null,
    defaultKeyFiles: [],
    handshakes: { baseDelayMs: 10 },
  });
  t.teardown(() => pool.closeAll());
  return { dir, key, server, knownHosts, pool };
}

test('concurrent callers for one host share one connection', async (t) => {
  const { key, server, pool } = await setup(t);
  const h = host('linux1', { port: server.port, keyFile: key.path });
  const conns = await Promise.all(Array.from({ length: 10 }, () => pool.get(h, {})));
  t.true(conns.every((c) => c === conns[0]));
  t.is(server.tcpConnections, 1);
  const again = await pool.get(h, {});
  t.is(again, conns[0]);
  t.is((await again.exec('echo pooled')).stdout, 'pooled\n');
});

test('each host gets its own connection', async (t) => {
  const { key, server, pool } = await setup(t);
  const [a, b] = await Promise.all([
    pool.get(host('linux1', { port: server.port, keyFile: key.path })),
    pool.get(host('linux2', { port: server.port, keyFile: key.path })),
  ]);
  t.not(a, b);
  t.is(a.target.hostName, 'linux1');
  t.is(server.tcpConnections, 2);
});

test("the pool's known_hosts (--known-hosts) overrides the host's own; without it the host's is used", async (t) => {
  const { dir, key, server, pool } = await setup(t);
  const empty = join(dir, 'host_known_hosts');
  writeFileSync(empty, '');
  const c = await pool.get(host('linux1', { port: server.port, keyFile: key.path, knownHostsFile: empty }));
  t.true(c.connected, 'the pool file (which knows the key) was used, not the empty host file');
  const plain = new ConnectionPool({ agentSocket: null, defaultKeyFiles: [] });
  t.teardown(() => plain.closeAll());
  const e = await t.throwsAsync(
    plain.get(host('linux2', { port: server.port, keyFile: key.path, knownHostsFile: empty })),
    { instanceOf: UnreachableError },
  );
  t.true(e!.message.endsWith(`record it in ${empty}`));
});

test('a failed connect is forgotten: the next get tries again', async (t) => {
  const { dir, key, server } = await setup(t);
  const otherKnown = join(dir, 'other_known_hosts');
  const pool = new ConnectionPool({ knownHostsFile: otherKnown, agentSocket: null, defaultKeyFiles: [] });
  t.teardown(() => pool.closeAll());
  const h = host('linux1', { port: server.port, keyFile: key.path });
  await t.throwsAsync(pool.get(h), { message: /host key not known/ });
  writeFileSync(otherKnown, `${hostKeyName('127.0.0.1', server.port)} ${server.hostKey.public}\n`);
  const c = await pool.get(h);
  t.true(c.connected);
});

test('closeAll closes every connection, and the pool refuses new ones', async (t) => {
  const { key, server, pool } = await setup(t);
  const c = await pool.get(host('linux1', { port: server.port, keyFile: key.path }));
  await pool.closeAll();
  t.false(c.connected);
  await t.throwsAsync(pool.get(host('linux1', { port: server.port, keyFile: key.path })), { message: /closed/ });
});

test('targetOf carries the password and names its environment variable', (t) => {
  const password = new Secret('pw-value', 'env:WIN_PASSWORD');
  const target = targetOf(host('win1', { port: 22, password: new EnvRef('WIN_PASSWORD') }), { password });
  t.is(target.password, password);
  t.is(target.passwordFrom, 'WIN_PASSWORD');
  t.false(JSON.stringify(target).includes('pw-value'));
});

test('password authentication through the pool', async (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const server = await TestSshServer.start({ password: 'lab-password-1' });
  t.teardown(() => server.close());
  const pool = new ConnectionPool({
    knownHostsFile: join(dir, 'kh'),
    acceptNew: true,
    agentSocket: null,
    defaultKeyFiles: [],
  });
  t.teardown(() => pool.closeAll());
  const h = host('win1', { port: server.port, user: 'Administrator', password: new EnvRef('WIN_PASSWORD') });
  const c = await pool.get(h, { password: new Secret('lab-password-1', 'env:WIN_PASSWORD') });
  t.is((await c.exec('echo win')).stdout, 'win\n');
  t.deepEqual(
    server.authAttempts.map((a) => [a.method, a.user, a.ok]),
    [['password', 'Administrator', true]],
  );
});
