// Our client against the real OpenSSH sshd (skipped without root or /usr/sbin/sshd): host keys
// recorded by accept-new are accepted by OpenSSH's own ssh, a timeout really kills the remote
// process, MaxSessions and MaxStartups behave as the transport assumes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import anyTest, { type TestFn } from 'ava';
import { Client as SshClient } from 'ssh2';
import { TimeoutError } from '../../runner/transport/errors.js';
import { HandshakeThrottle } from '../../runner/transport/handshake-throttle.js';
import { SshConnection, type ConnectionOptions } from '../../runner/transport/ssh-connection.js';
import type { SshTarget } from '../../runner/transport/target.js';
import { canRunSshd, startOpenssh, type OpensshServer } from './helpers/openssh-server.js';
import { tempDir, writeClientKey } from './helpers/ssh-server.js';

const test = (canRunSshd() ? anyTest : anyTest.skip) as TestFn;

async function setup(
  t: import('ava').ExecutionContext,
  sshdExtra: string[] = [],
  throttle = new HandshakeThrottle({ baseDelayMs: 20 }),
) {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const key = writeClientKey(dir);
  const sshd: OpensshServer = await startOpenssh(dir, key.public, sshdExtra);
  t.teardown(() => sshd.stop());
  const knownHosts = join(dir, 'known_hosts');
  const target: SshTarget = { hostName: 'lo1', address: '127.0.0.1', port: sshd.port, user: 'root', keyFile: key.path };
  const options: ConnectionOptions = {
    knownHostsFile: knownHosts,
    acceptNew: true,
    readyTimeoutMs: 10_000,
    keepaliveIntervalMs: 0,
    keepaliveCountMax: 3,
    auth: { defaultKeyFiles: [] },
    throttle,
  };
  const opened: SshConnection[] = [];
  t.teardown(() => Promise.all(opened.map((c) => c.close())).then(() => undefined));
  const open = async (o: Partial<ConnectionOptions> = {}, tg: Partial<SshTarget> = {}) => {
    const c = await SshConnection.open({ ...target, ...tg }, { ...options, ...o });
    opened.push(c);
    return c;
  };
  return { dir, key, sshd, knownHosts, open };
}

test('accept-new writes a line OpenSSH ssh accepts with StrictHostKeyChecking=yes', async (t) => {
  const { key, sshd, knownHosts, open } = await setup(t);
  const c = await open();
  t.is((await c.exec('echo hello')).stdout, 'hello\n');
  const out = execFileSync(
    'ssh',
    [
      '-p',
      String(sshd.port),
      '-i',
      key.path,
      '-o',
      `UserKnownHostsFile=${knownHosts}`,
      '-o',
      'StrictHostKeyChecking=yes',
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentitiesOnly=yes',
      'root@127.0.0.1',
      'echo from-openssh',
    ],
    { encoding: 'utf8', env: { ...process.env, SSH_AUTH_SOCK: '' } },
  );
  t.is(out, 'from-openssh\n');
});

test('a timeout closes the channel and keeps the connection; sshd refuses `signal` for root sessions', async (t) => {
  const { dir, open, sshd } = await setup(t);
  const c = await open();
  const pidFile = join(dir, 'sleep.pid');
  // The TimeoutError is the proof the timer fired (a sleep of 30 s would otherwise end the exec).
  await t.throwsAsync(c.exec(`echo $$ > ${pidFile}; exec sleep 30`, { timeoutMs: 500 }), { instanceOf: TimeoutError });
  t.is((await c.exec('echo usable')).stdout, 'usable\n');
  // OpenSSH skips post-auth privilege separation for root and then refuses signal requests, so
  // the command outlives its channel (until it writes to the closed pipe or ends).
  await new Promise((r) => setTimeout(r, 200));
  // sshd keeps counting the session while its child lives, and does not confirm the close: the
  // slot stays taken (for at most the 5 s grace) rather than overrun MaxSessions.
  t.is(c.channels.active, 1);
  t.regex(readFileSync(sshd.logFile, 'utf8'), /session signalling requires privilege separation/);
  // Under load the command may start only after the timeout fired: wait for it to say its pid.
  for (let i = 0; i < 50 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
  const pid = readFileSync(pidFile, 'utf8').trim();
  const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, 'utf8') : '';
  t.log(
    cmdline ? `the remote 'sleep 30' (pid ${pid}) survived the timeout` : `the remote command (pid ${pid}) is gone`,
  );
  if (cmdline.startsWith('sleep\u000030')) process.kill(Number(pid), 'SIGKILL');
});

test('30 concurrent commands through 8 channels; 12 channels would exceed MaxSessions 10', async (t) => {
  const { open } = await setup(t);
  const c = await open();
  const ok = await Promise.all(Array.from({ length: 30 }, (_, i) => c.exec(`sleep 0.2; echo ${i}`)));
  t.deepEqual(
    ok.map((r) => r.stdout.trim()),
    Array.from({ length: 30 }, (_, i) => String(i)),
  );
  t.log(`8 channels: ${c.channelRetries} channel open(s) refused by sshd and retried`);
  // 12 at once: sshd refuses 2; they are retried for ~0.8 s, then reported.
  const greedy = await open({ maxChannels: 12 });
  const results = await Promise.allSettled(Array.from({ length: 12 }, () => greedy.exec('sleep 2')));
  const refused = results.filter((r) => r.status === 'rejected');
  t.true(refused.length >= 2, `${refused.length} refused`);
  t.regex(
    (refused[0] as PromiseRejectedResult).reason.message,
    /the server refused a channel for the command \(.*\), 6 times; is its MaxSessions below 12\?/,
  );
});

test('handshakes dropped by MaxStartups are retried until every host is connected', async (t) => {
  // sshd drops every unauthenticated connection beyond 2; we allow 10 handshakes to this endpoint.
  const throttle = new HandshakeThrottle({ perEndpoint: 10, baseDelayMs: 50, attempts: 8 });
  const { open } = await setup(t, ['MaxStartups 2:100:2'], throttle);
  const first = await open(); // records the host key once
  await first.close();
  const started = Date.now();
  const conns = await Promise.all(Array.from({ length: 10 }, () => open({ acceptNew: false })));
  const results = await Promise.all(conns.map((c) => c.exec('echo up')));
  t.true(results.every((r) => r.stdout === 'up\n'));
  t.true(throttle.retries > 0, 'sshd dropped some handshakes');
  t.log(`10 connections with MaxStartups 2:100:2: ${Date.now() - started} ms, ${throttle.retries} retries`);
});

// sshd announces its host keys after authentication; ssh2 alone asks it to prove each one (a
// signature per key on the host, a round trip), which play, learning no keys that way, skips.
test('the host keys sshd announces are not asked to be proven; ssh2 left alone asks', async (t) => {
  const { key, sshd, knownHosts, open } = await setup(t, ['LogLevel DEBUG3']);
  const c = await open();
  t.is((await c.exec('echo proven-not')).stdout, 'proven-not\n');
  await c.close();
  const proveRequests = () => readFileSync(sshd.logFile, 'utf8').match(/rtype hostkeys-prove-00@openssh\.com/g) ?? [];
  const announced = () => readFileSync(sshd.logFile, 'utf8').match(/notify_hostkeys: sent/g) ?? [];
  t.true(announced().length > 0, 'sshd announced its host keys');
  t.is(proveRequests().length, 0);

  // The control: ssh2's Client with its defaults against the same sshd does ask.
  const hostKeys = readFileSync(knownHosts, 'utf8');
  t.true(hostKeys.length > 0);
  const client = new SshClient();
  const proven = new Promise<void>((resolve, reject) => {
    client.on('hostkeys', () => resolve()).on('error', reject);
    client.connect({
      host: '127.0.0.1',
      port: sshd.port,
      username: 'root',
      privateKey: readFileSync(key.path),
      hostVerifier: () => true,
    });
  });
  await proven;
  client.end();
  t.is(proveRequests().length, 1);
});
