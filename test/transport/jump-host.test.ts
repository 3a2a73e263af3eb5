// Jump hosts in the pool, against in-process SSH servers on 127.0.0.1 (a bastion that forwards, the
// hosts behind it): one bastion connection for every host behind it, host keys checked on both hops,
// errors that name the hop, reconnects that go through the bastion again.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import type { ConnectionSpec, Host, JumpSpec } from '../../runner/inventory/model.js';
import { JumpHosts } from '../../runner/transport/jump-hosts.js';
import { hostKeyName } from '../../runner/transport/known-hosts.js';
import { ConnectionPool } from '../../runner/transport/pool.js';
import { generateKey, tempDir, TestSshServer, writeClientKey } from './helpers/ssh-server.js';

interface Setup {
  bastion: TestSshServer;
  target: TestSshServer;
  pool: ConnectionPool;
  knownHosts: string;
  host(name: string, jump?: Partial<JumpSpec>, connection?: Partial<ConnectionSpec>): Host;
}

async function setup(
  t: import('ava').ExecutionContext,
  o: { forwardTcp?: boolean; bastionKeyKnown?: string; targetKeyKnown?: string; bastionAuthorized?: string } = {},
): Promise<Setup> {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const key = writeClientKey(dir);
  const bastion = await TestSshServer.start({
    authorizedKeys: [o.bastionAuthorized ?? key.public],
    forwardTcp: o.forwardTcp ?? true,
  });
  const target = await TestSshServer.start({ authorizedKeys: [key.public] });
  t.teardown(() => Promise.all([bastion.close(), target.close()]).then(() => undefined));
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(
    knownHosts,
    `${hostKeyName('127.0.0.1', bastion.port)} ${o.bastionKeyKnown ?? bastion.hostKey.public}\n` +
      `${hostKeyName('127.0.0.1', target.port)} ${o.targetKeyKnown ?? target.hostKey.public}\n`,
  );
  const pool = new ConnectionPool({ knownHostsFile: knownHosts, agentSocket: null, defaultKeyFiles: [] });
  t.teardown(() => pool.closeAll());
  const host = (name: string, jump: Partial<JumpSpec> = {}, connection: Partial<ConnectionSpec> = {}): Host => ({
    name,
    vars: {},
    groups: ['all'],
    connection: {
      address: '127.0.0.1',
      port: target.port,
      user: 'root',
      os: 'linux',
      keyFile: key.path,
      jump: {
        hostName: 'bastion1',
        address: '127.0.0.1',
        port: bastion.port,
        user: 'root',
        keyFile: key.path,
        ...jump,
      },
      ...connection,
    },
  });
  return { bastion, target, pool, knownHosts, host };
}

const failure = async (p: Promise<unknown>): Promise<string> => {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a failure');
};

test('hosts behind one bastion share one connection to it: a channel each, one login', async (t) => {
  const { bastion, target, pool, host } = await setup(t);
  const hosts = ['db1', 'db2', 'db3'].map((n) => host(n));
  const outputs = await Promise.all(hosts.map(async (h) => (await pool.get(h)).exec('echo $((6 * 7))')));
  t.deepEqual(
    outputs.map((o) => o.stdout),
    ['42\n', '42\n', '42\n'],
  );
  t.is(bastion.tcpConnections, 1);
  t.is(bastion.logins, 1);
  t.deepEqual(bastion.forwards, Array(3).fill(`127.0.0.1:${target.port}`));
  t.is(target.logins, 3);
  t.deepEqual(bastion.commands, [], 'nothing runs on the bastion');
});

test('a reconnect after a drop goes through the bastion again; a dropped bastion is reopened', async (t) => {
  const { bastion, target, pool, host } = await setup(t);
  const c = await pool.get(host('db1'));
  t.is((await c.exec('echo one')).stdout, 'one\n');
  target.killConnections();
  await new Promise((r) => setTimeout(r, 100));
  t.is((await c.exec('echo two')).stdout, 'two\n');
  t.is(c.reconnects, 1);
  t.is(bastion.tcpConnections, 1, 'the bastion connection outlived the target drop');
  t.is(bastion.forwards.length, 2);
  bastion.killConnections();
  await new Promise((r) => setTimeout(r, 100));
  t.is((await c.exec('echo three')).stdout, 'three\n');
  t.is(bastion.tcpConnections, 2, 'the bastion was reopened once');
  t.is(bastion.forwards.length, 3);
});

test('errors name the hop: forwarding refused, target unreachable behind the bastion, the bastion itself', async (t) => {
  const refused = await setup(t, { forwardTcp: false });
  t.regex(
    await failure(refused.pool.get(refused.host('db1'))),
    /^host db1 \(127\.0\.0\.1:\d+ via bastion1 127\.0\.0\.1:\d+\): jump host bastion1 \(127\.0\.0\.1:\d+\) refused to forward the connection \(administratively prohibited: is AllowTcpForwarding off/,
  );

  const s = await setup(t);
  const closedPort = 1; // nothing listens on port 1 of 127.0.0.1
  t.regex(
    await failure(s.pool.get(s.host('db2', {}, { port: closedPort }))),
    /^host db2 \(127\.0\.0\.1:1 via bastion1 127\.0\.0\.1:\d+\): unreachable through jump host bastion1 \(127\.0\.0\.1:\d+\): it could not connect to 127\.0\.0\.1:1 \(connect failed\)/,
  );
  t.regex(
    await failure(s.pool.get(s.host('db3', { port: closedPort }))),
    /^host db3 \(127\.0\.0\.1:\d+ via bastion1 127\.0\.0\.1:1\): jump host bastion1 \(127\.0\.0\.1:1\): connection refused/,
  );

  const auth = await setup(t, { bastionAuthorized: generateKey().public });
  t.regex(
    await failure(auth.pool.get(auth.host('db4'))),
    /^host db4 \(127\.0\.0\.1:\d+ via bastion1 127\.0\.0\.1:\d+\): jump host bastion1: authentication failed for user root at 127\.0\.0\.1:\d+; tried key file /,
  );
});

test('host keys are checked on both hops; a changed key names its hop', async (t) => {
  const other = generateKey().public;
  const bastionChanged = await setup(t, { bastionKeyKnown: other });
  t.regex(
    await failure(bastionChanged.pool.get(bastionChanged.host('db1'))),
    /^host db1 \(127\.0\.0\.1:\d+ via bastion1 127\.0\.0\.1:\d+\): jump host bastion1: HOST KEY CHANGED for bastion1 \(127\.0\.0\.1:\d+\): .*known_hosts:1 has SHA256:/,
  );
  t.is(bastionChanged.bastion.forwards.length, 0);

  const targetChanged = await setup(t, { targetKeyKnown: other });
  const message = await failure(targetChanged.pool.get(targetChanged.host('db2')));
  t.regex(
    message,
    /^HOST KEY CHANGED for db2 \(127\.0\.0\.1:\d+ via bastion1 127\.0\.0\.1:\d+\): .*known_hosts:2 has SHA256:/,
  );
  t.is(targetChanged.target.logins, 0, 'no login on a host whose key changed');
});

test('the pool releases a bastion no host uses after a linger, and closes it with the pool', async (t) => {
  const { bastion, pool, host } = await setup(t);
  await (await pool.get(host('db1'))).exec('true');
  await pool.release('db1');
  // Within the linger, the next host reuses the connection.
  await (await pool.get(host('db2'))).exec('true');
  t.is(bastion.tcpConnections, 1);
  await pool.closeAll();
  await new Promise((r) => setTimeout(r, 100));
  t.is(bastion.openSockets, 0);
});

test('JumpHosts: one entry per bastion endpoint and user, closed once its last user is gone for the linger', async (t) => {
  const jumps = new JumpHosts(20);
  const options = { knownHostsFile: '/dev/null' } as never;
  const b = { hostName: 'b', address: '10.0.0.1', port: 22, user: 'root' };
  const a1 = jumps.acquire('h1', b, options);
  t.is(jumps.acquire('h2', b, options), a1);
  t.not(jumps.acquire('h3', { ...b, user: 'admin' }, options), a1);
  jumps.release('h1');
  jumps.release('h2');
  t.is(jumps.acquire('h4', b, options), a1, 'taken again within the linger');
  jumps.release('h4');
  await new Promise((r) => setTimeout(r, 60));
  t.not(jumps.acquire('h5', b, options), a1, 'closed after it');
  await jumps.closeAll();
});
