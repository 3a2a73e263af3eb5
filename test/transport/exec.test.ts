import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { Secret } from '../../runner/core/secret.js';
import { ConnectionLostError, TimeoutError } from '../../runner/transport/errors.js';
import { fixture } from './helpers/fixture.js';
import { waitFor } from '../helpers/wait.js';

test('exec returns stdout, stderr and the exit code', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const r = await c.exec(`printf 'out\\n'; printf 'err\\n' >&2; exit 3`);
  t.deepEqual(r, { stdout: 'out\n', stderr: 'err\n', code: 3 });
  t.deepEqual(await c.exec('true'), { stdout: '', stderr: '', code: 0 });
});

test('UTF-8 output survives chunking', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  // 100k three-byte characters: chunk boundaries fall inside characters.
  const r = await c.exec(
    `i=0; while [ $i -lt 2000 ]; do printf '€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€'; i=$((i+1)); done`,
  );
  t.is(r.stdout, '€'.repeat(100_000));
});

test('stdin is binary-safe: 1 MiB of random bytes arrives intact', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const data = randomBytes(1024 * 1024);
  const r = await c.exec('sha256sum; wc -c < /dev/null', { stdin: data });
  t.is(r.code, 0);
  t.is(r.stdout.split(' ')[0], createHash('sha256').update(data).digest('hex'));
  const count = await c.exec('wc -c', { stdin: data });
  t.is(count.stdout.trim(), String(data.length));
});

test('a Secret on stdin is revealed to the command only', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const r = await c.exec('cat', { stdin: new Secret('s3cret-value', 'env:TEST_SECRET') });
  t.is(r.stdout, 's3cret-value');
  t.false(f.server.commands.some((cmd) => cmd.includes('s3cret')));
});

test('a command killed by a signal has code null', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const r = await c.exec('kill -TERM $$');
  t.is(r.code, null);
});

test('30 concurrent commands on one connection never hold more than 8 channels', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const started = Date.now();
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => c.exec(`sleep 0.1; echo ${i}`)));
  t.deepEqual(
    results.map((r) => r.stdout.trim()),
    Array.from({ length: 30 }, (_, i) => String(i)),
  );
  t.is(f.server.peakSessions, 8);
  t.is(c.channels.peak, 8);
  t.is(f.server.refusedSessions, 0);
  t.log(`30 x sleep 0.1 in ${Date.now() - started} ms (4 waves of 8)`);
});

test('a channel refused by MaxSessions is asked for again (the command had not started)', async (t) => {
  const f = await fixture(t);
  const c = await f.open({ options: { maxChannels: 12 } });
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => c.exec(`sleep 0.1; echo ${i}`)));
  t.deepEqual(
    results.map((r) => r.stdout),
    Array.from({ length: 12 }, (_, i) => `${i}\n`),
  );
  t.is(f.server.peakSessions, 10);
  t.true(f.server.refusedSessions >= 2);
  t.is(c.channelRetries, f.server.refusedSessions);
});

test('a channel refused for good is reported with the host and a hint', async (t) => {
  const f = await fixture(t, { server: { maxSessions: 0 } });
  const c = await f.open();
  const e = await t.throwsAsync(c.exec('true'));
  t.regex(
    e!.message,
    /^host linux1 \(127\.0\.0\.1:\d+\): the server refused a channel for the command \(.*\), 6 times; is its MaxSessions below 8\?$/,
  );
});

test('a timeout kills the command, rejects with TimeoutError, and the connection stays usable', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const e = await t.throwsAsync(c.exec('sleep 30', { timeoutMs: 300 }), { instanceOf: TimeoutError });
  t.regex(e!.message, /host linux1 \(127\.0\.0\.1:\d+\): command did not finish within 300 ms/);
  t.is((e as TimeoutError).host, 'linux1');
  t.deepEqual((await c.exec('echo still here')).stdout, 'still here\n');
  // sshd got the KILL and the channel was closed: nothing is left running.
  await waitFor(
    'the command ended and its session closed',
    () => f.server.running === 0 && f.server.openSessions === 0,
    5000,
    10,
  );
  t.deepEqual(f.server.signals, ['KILL']);
  t.is(c.channels.active, 0);
});

test('after the server kills the connection, the next exec reconnects', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  t.is((await c.exec('echo one')).stdout, 'one\n');
  f.server.killConnections();
  await waitFor('the connection closed', () => !c.connected, 5000, 10);
  t.is((await c.exec('echo two')).stdout, 'two\n');
  t.is(c.reconnects, 1);
  t.is(f.server.logins, 2);
});

test('a connection lost mid-command rejects with ConnectionLostError, then reconnects', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  const running = c.exec('sleep 5');
  await waitFor('the command running on the server', () => f.server.running === 1, 5000, 10);
  f.server.killConnections();
  const e = await t.throwsAsync(running, { instanceOf: ConnectionLostError });
  t.regex(e!.message, /lost while a command ran/);
  t.is((await c.exec('echo back')).stdout, 'back\n');
});

test('when the reconnect fails, exec fails with the reason and the host name', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  await f.server.close();
  await waitFor('the connection closed', () => !c.connected, 5000, 10);
  const e = await t.throwsAsync(c.exec('true'));
  t.is(e!.name, 'HandshakeError');
  t.regex(e!.message, /^host linux1 \(127\.0\.0\.1:\d+\): connection refused/);
});
