// The simulated Windows node (a test double) end to end through play's real transport: known_hosts
// with accept-new, password and key logins, one round trip per batch of calls, cmd.exe's answer to
// anything but the bootstrap, sshd's MaxSessions, and a state and host key that survive a restart.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { UnreachableError } from '../../../runner/core/errors.js';
import { ps as psTag } from '../../../runner/core/quote.js';
import { Secret } from '../../../runner/core/secret.js';
import { HostSession } from '../../../runner/run/host-session.js';
import { hostKeyName } from '../../../runner/transport/known-hosts.js';
import { ConnectionPool } from '../../../runner/transport/pool.js';
import { generateKey } from '../../transport/helpers/ssh-server.js';
import { PASSWORD, ps, session, startNode, windowsHost } from './helpers.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

test('calls through the real transport: accept-new records the host key, several calls share one round trip', async (t) => {
  const node = await startNode(t);
  const { session: s, pool } = session(t, node);
  const t0 = performance.now();
  const [os, set, tz] = await s.callPowerShell([
    ps('Get-PlayOsInfo', {}),
    ps('Set-PlayTimeZone', { id: 'China Standard Time' }),
    ps('Get-PlayTimeZone', {}),
  ]);
  const first = performance.now() - t0;
  t.like(os, {
    ok: true,
    value: {
      caption: 'Microsoft Windows Server 2019 Datacenter',
      version: '10.0.17763',
      build: 17763,
      revision: 973,
      pendingReboot: false,
    },
  });
  t.deepEqual(set, { ok: true, value: {} });
  t.deepEqual(tz, { ok: true, value: { id: 'China Standard Time' } });
  t.is(s.roundTrips, 1);
  t.is(readFileSync(join(node.dir, 'known_hosts'), 'utf8'), `${hostKeyName('127.0.0.1', node.port)} ${node.hostKey}\n`);
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const c0 = performance.now();
    await s.callPowerShell([ps('Get-PlayOsInfo', {})]);
    times.push(performance.now() - c0);
  }
  const conn = await pool.get(s.host);
  t.is(conn.reconnects, 0);
  t.is(node.stats.connections, 1);
  t.log(
    `connect + first batch ${first.toFixed(1)} ms; one call on an open connection: median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`,
  );
});

test('a public key login works; a wrong password is a clear authentication error', async (t) => {
  const key = generateKey();
  const node = await startNode(t, { authorizedKey: key.public });
  const keyFile = join(node.dir, 'id_ed25519');
  writeFileSync(keyFile, key.private, { mode: 0o600 });
  const { session: byKey } = session(t, node, { host: { keyFile, password: undefined } });
  t.like((await byKey.callPowerShell([ps('Get-PlayTimeZone', {})]))[0], { ok: true, value: { id: 'UTC' } });
  const { session: wrong } = session(t, node, { password: 'not-it' });
  const e = await t.throwsAsync(wrong.callPowerShell([ps('Get-PlayTimeZone', {})]), { instanceOf: UnreachableError });
  t.is(
    e!.message,
    `host node009: authentication failed for user Administrator at 127.0.0.1:${node.port}; tried password from env var PLAY_LAB_WINDOWS_PASSWORD; the server accepts: publickey, password`,
  );
  const { session: other } = session(t, node, { host: { user: 'root' } });
  await t.throwsAsync(other.callPowerShell([ps('Get-PlayTimeZone', {})]), {
    message: /authentication failed for user root/,
  });
  t.is(node.stats.authFailures, 2);
});

test("anything but powershell.exe gets cmd.exe's answer; a PowerShell script runs under real PowerShell, errors as CLIXML", async (t) => {
  const node = await startNode(t);
  const { session: s, pool } = session(t, node);
  const conn = await pool.get(s.host, { password: new Secret(PASSWORD, 'env:X') });
  t.deepEqual(await conn.exec('uname -a'), {
    stdout: '',
    stderr: "'uname' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n",
    code: 1,
  });
  t.deepEqual(await s.run(psTag`[Console]::Out.Write(6 * 7)`), { stdout: '42', stderr: '', code: 0 });
  // The simulated node has no process list: the cmdlet is not there, and PowerShell says so (decoded from CLIXML).
  const r = await s.run(psTag`Get-Process`);
  t.is(r.code, 1);
  t.regex(r.stderr, /^Get-Process : The term 'Get-Process' is not recognized/);
  t.false(r.stderr.includes('CLIXML'));
});

test("10 channels at once on one connection, like sshd's MaxSessions; beyond it channels are refused (and retried by the transport)", async (t) => {
  const node = await startNode(t, { faults: { latencyMs: 100 } });
  const { session: s, pool } = session(t, node, { pool: { maxChannels: 10 } });
  const results = await Promise.all(Array.from({ length: 30 }, () => s.callPowerShell([ps('Get-PlayOsInfo', {})])));
  t.true(results.every(([r]) => r!.ok));
  t.is(node.stats.peakSessions, 10);
  t.is(node.stats.refusedSessions, 0);
  t.is(node.stats.connections, 1);
  await pool.closeAll();
  const { session: greedy, pool: greedyPool } = session(t, node, { pool: { maxChannels: 12 } });
  const more = await Promise.all(Array.from({ length: 12 }, () => greedy.callPowerShell([ps('Get-PlayOsInfo', {})])));
  t.true(more.every(([r]) => r!.ok));
  t.true(node.stats.refusedSessions >= 2, `${node.stats.refusedSessions} refused`);
  t.true((await greedyPool.get(greedy.host)).channelRetries >= 2);
});

test('the state and the host key survive a restart of the simulator (strict known_hosts still accepts it)', async (t) => {
  const first = await startNode(t);
  const { session: s } = session(t, first);
  await s.callPowerShell([
    ps('Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'marker', type: 'String', data: 'kept' }),
  ]);
  await first.close();
  const second = await startNode(t, {}, first.dir);
  t.is(second.hostKey, first.hostKey);
  const strict = join(second.dir, 'strict_known_hosts');
  writeFileSync(strict, `${hostKeyName('127.0.0.1', second.port)} ${first.hostKey}\n`);
  const pool = new ConnectionPool({ knownHostsFile: strict, acceptNew: false, agentSocket: null, defaultKeyFiles: [] });
  t.teardown(() => pool.closeAll());
  const again = new HostSession(windowsHost(second.port), (h) =>
    pool.get(h, { password: new Secret(PASSWORD, 'env:X') }),
  );
  t.deepEqual(
    (await again.callPowerShell([ps('Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'marker' })]))[0],
    { ok: true, value: { type: 'String', data: 'kept' } },
  );
});
