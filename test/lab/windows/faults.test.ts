// Faults of the simulated Windows node (a test double), seen through play's real transport:
// latency, a dropped connection (reconnected), a hung command (its timeout fires, the rest goes on),
// refused logins, the HNS network that drops every connection once, and a whole reboot cycle.
import test from 'ava';
import { ConnectionLostError, TimeoutError } from '../../../runner/transport/errors.js';
import { DOWNLOADS } from '../../../lab/windows/defaults.js';
import { ps, session, startNode, untilUp } from './helpers.js';

test('latency: every command waits as long as asked, and the transport waits with it', async (t) => {
  const node = await startNode(t, { faults: { latencyMs: 250 } });
  const { session: s } = session(t, node);
  const answers = [await s.callPowerShell([ps('Get-PlayOsInfo', {})])];
  answers.push(await s.callPowerShell([ps('Get-PlayOsInfo', {})]));
  t.deepEqual(
    { delayed: node.stats.delayed, delayedMs: node.stats.delayedMs },
    { delayed: 2, delayedMs: 500 },
    'both programs were held back 250 ms',
  );
  node.setFault({ latencyMs: 0 });
  answers.push(await s.callPowerShell([ps('Get-PlayOsInfo', {})]));
  t.is(node.stats.delayed, 2, 'none once the fault is cleared');
  t.true(answers.every((a) => a[0]!.ok));
});

test('a connection dropped on the 2nd command: the transport reconnects and the command still runs once', async (t) => {
  const node = await startNode(t);
  const { session: s, pool } = session(t, node);
  node.setFault({ dropConnectionOnCommand: 2 });
  const results = [];
  for (const zone of ['UTC', 'Tokyo Standard Time', 'China Standard Time']) {
    results.push((await s.callPowerShell([ps('Set-PlayTimeZone', { id: zone }), ps('Get-PlayTimeZone', {})]))[1]);
  }
  t.deepEqual(results, [
    { ok: true, value: { id: 'UTC' } },
    { ok: true, value: { id: 'Tokyo Standard Time' } },
    { ok: true, value: { id: 'China Standard Time' } },
  ]);
  t.is(node.stats.dropped, 1);
  t.is(node.stats.commands, 4, 'three commands ran, plus the exec request that was never answered');
  t.is(node.stats.connections, 2);
  t.is((await pool.get(s.host)).reconnects, 1);
  t.is(node.server.faults.dropConnectionOnCommand, null, 'the fault fires once');
});

test('a hung command: its timeout fires, other commands on the same connection go on, the connection stays usable', async (t) => {
  const node = await startNode(t, { faults: { hangFunction: 'Get-PlayNtp' } });
  const { session: s, pool } = session(t, node);
  const hung = s.callPowerShell([ps('Set-PlayTimeZone', { id: 'UTC' }), ps('Get-PlayNtp', {})], { timeoutMs: 600 });
  const others = await Promise.all(Array.from({ length: 5 }, () => s.callPowerShell([ps('Get-PlayOsInfo', {})])));
  t.true(others.every(([r]) => r!.ok));
  const e = await t.throwsAsync(hung, { instanceOf: TimeoutError });
  t.regex(e!.message, /did not finish within 600 ms/);
  t.is(node.stats.hung, 1);
  t.like((await s.callPowerShell([ps('Get-PlayTimeZone', {})]))[0], { ok: true });
  const conn = await pool.get(s.host);
  t.is(conn.reconnects, 0);
  t.is(conn.channels.active, 0, 'the hung channel was closed and its slot given back');
});

test("authFailure: every login is refused with the transport's authentication error until the fault is cleared", async (t) => {
  const node = await startNode(t, { faults: { authFailure: true } });
  const { session: s } = session(t, node);
  await t.throwsAsync(s.callPowerShell([ps('Get-PlayOsInfo', {})]), {
    message: /authentication failed for user Administrator/,
  });
  node.setFault({ authFailure: false });
  const { session: again } = session(t, node);
  t.like((await again.callPowerShell([ps('Get-PlayOsInfo', {})]))[0], { ok: true });
});

test('creating the HNS network drops every open connection of the node once; the next calls reconnect and see the network', async (t) => {
  const node = await startNode(t);
  const a = session(t, node);
  const b = session(t, node);
  await Promise.all([
    a.session.callPowerShell([ps('Get-PlayOsInfo', {})]),
    b.session.callPowerShell([ps('Get-PlayOsInfo', {})]),
  ]);
  t.is(node.server.openConnections, 2);
  const create = ps('New-PlayHnsNetwork', {
    name: 'l2bridge',
    type: 'L2Bridge',
    addressPrefix: '10.160.11.0/24',
    gateway: '10.160.11.1',
    adapterName: 'eth1',
  });
  const e = await t.throwsAsync(a.session.callPowerShell([create, ps('Get-PlayOsInfo', {})]), {
    instanceOf: ConnectionLostError,
  });
  t.regex(e!.message, /the connection was lost while a command ran; it may or may not have completed/);
  t.is(node.stats.dropped, 2, 'both connections');
  for (const { session: s, pool } of [a, b]) {
    t.like((await s.callPowerShell([ps('Get-PlayHnsNetwork', { name: 'l2bridge' })]))[0], {
      ok: true,
      value: { name: 'l2bridge', adapterName: 'eth1' },
    });
    t.is((await pool.get(s.host)).reconnects, 1);
  }
  await a.session.callPowerShell([
    ps('New-PlayHnsEndpoint', { name: 'cbr0', networkName: 'l2bridge', ipAddress: '10.160.11.2', gateway: '0.0.0.0' }),
  ]);
  t.is(node.stats.dropped, 2, 'only the network creation blinks the NIC');
});

test('a reboot over SSH: connections drop, the node refuses them for rebootSeconds, then answers with a new boot time and build', async (t) => {
  const node = await startNode(t, { rebootSeconds: 1 });
  const { session: s } = session(t, node, { pool: { handshakes: { baseDelayMs: 20, attempts: 2 } } });
  const msu = `${DOWNLOADS}\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu`;
  const [before, install] = await s.callPowerShell([
    ps('Get-PlayOsInfo', {}),
    ps('Install-PlayHotfix', { kb: 'KB4549949', msuPath: msu }),
  ]);
  t.deepEqual(install, {
    ok: true,
    value: { exitCode: 3010, output: '', packageName: 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1158.1.7' },
  });
  const t0 = Date.now();
  t.deepEqual((await s.callPowerShell([ps('Restart-PlayComputer', { delaySeconds: 0 })]))[0], {
    ok: true,
    value: { scheduled: true },
  });
  await new Promise((r) => setTimeout(r, 400));
  t.false(node.server.listening, 'down');
  const { value, failures } = await untilUp(() => s.callPowerShell([ps('Get-PlayOsInfo', {})]), 10_000);
  const cycle = Date.now() - t0;
  const after = value[0] as { ok: true; value: { lastBootUpTime: string; revision: number; pendingReboot: boolean } };
  t.true(
    Date.parse(after.value.lastBootUpTime) >
      Date.parse((before as { value: { lastBootUpTime: string } }).value.lastBootUpTime),
  );
  t.is(after.value.revision, 1158);
  t.false(after.value.pendingReboot);
  t.true(
    failures.some((f) => /connection refused/.test(f)),
    failures.join('\n'),
  );
  t.log(
    `reboot cycle (Restart-PlayComputer to the first answer, rebootSeconds 1): ${cycle} ms, ${failures.length} failed attempts, e.g. ${failures[0]}`,
  );
});
