import { spawn, execFileSync } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import test from 'ava';
import { Secret } from '../../runner/core/secret.js';
import { HandshakeError } from '../../runner/transport/errors.js';
import { fixture } from './helpers/fixture.js';
import { tempDir, writeClientKey } from './helpers/ssh-server.js';

const PASSWORD = 'hunter2-correct-horse';

for (const dropMode of ['close', 'reset'] as const) {
  test(`a handshake succeeds after the server drops the first 3 connections (${dropMode})`, async (t) => {
    const f = await fixture(t, { server: { dropFirst: 3, dropMode } });
    const c = await f.open();
    t.is((await c.exec('echo up')).stdout, 'up\n');
    t.is(f.server.dropped, 3);
    t.is(f.server.tcpConnections, 4);
    t.is(f.options.throttle.retries, 3);
  });
}

test('the handshake gives up after 5 dropped attempts, saying why', async (t) => {
  const f = await fixture(t, { server: { dropFirst: 100 } });
  const e = await t.throwsAsync(f.open(), { instanceOf: HandshakeError });
  t.is(
    e!.message,
    `host linux1 (127.0.0.1:${f.server.port}): the server closed the connection before the SSH handshake (sshd MaxStartups throttling, or sshd not ready) (5 attempts)`,
  );
  t.is(f.server.tcpConnections, 5);
});

test('an authentication failure is clear and not retried', async (t) => {
  const f = await fixture(t);
  const stranger = writeClientKey(f.dir, 'id_stranger');
  const e = await t.throwsAsync(f.open({ target: { keyFile: stranger.path } }), { instanceOf: HandshakeError });
  t.is((e as HandshakeError).failure, 'auth');
  t.is(
    e!.message,
    `host linux1: authentication failed for user root at 127.0.0.1:${f.server.port}; tried key file ${stranger.path}; the server accepts: publickey`,
  );
  t.is(f.server.tcpConnections, 1);
});

test('a key file signs its first request: no question whether the server would take it', async (t) => {
  const f = await fixture(t);
  const c = await f.open();
  t.is((await c.exec('echo in')).stdout, 'in\n');
  t.is(f.server.keyQuestions, 0);
  t.deepEqual(
    f.server.authAttempts.map((a) => [a.method, a.ok]),
    [['publickey', true]],
  );
});

test('RSA and ECDSA key files sign their first request too, with the hash their algorithm names', async (t) => {
  for (const type of ['rsa', 'ecdsa'] as const) {
    const { dir, cleanup } = tempDir();
    t.teardown(cleanup);
    const path = join(dir, `id_${type}`);
    execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', path], { stdio: 'ignore' });
    const f = await fixture(t, { server: { authorizedKeys: [readFileSync(`${path}.pub`, 'utf8').trim()] } });
    const c = await f.open({ target: { keyFile: path } });
    t.is((await c.exec('echo in')).stdout, 'in\n', type);
    t.is(f.server.keyQuestions, 0, type);
    t.deepEqual(
      f.server.authAttempts.map((a) => [a.method, a.ok]),
      [['publickey', true]],
      type,
    );
  }
});

test('key files the server does not take are each refused once, signed, before the one it does', async (t) => {
  const f = await fixture(t);
  const strangers = [writeClientKey(f.dir, 'id_stranger1'), writeClientKey(f.dir, 'id_stranger2')];
  const c = await f.open({
    target: { keyFile: undefined },
    options: { auth: { defaultKeyFiles: [...strangers.map((k) => k.path), f.keyFile] } },
  });
  t.is((await c.exec('echo in')).stdout, 'in\n');
  t.is(f.server.keyQuestions, 0);
  t.deepEqual(
    f.server.authAttempts.map((a) => [a.method, a.ok]),
    [
      ['publickey', false],
      ['publickey', false],
      ['publickey', true],
    ],
  );
});

test('password authentication works, and the password never appears in an error', async (t) => {
  const f = await fixture(t, { server: { password: PASSWORD, authorizedKeys: [] } });
  const password = new Secret(PASSWORD, 'env:LINUX1_PASSWORD');
  const good = await f.open({ target: { keyFile: undefined, password, passwordFrom: 'LINUX1_PASSWORD' } });
  t.is((await good.exec('echo in')).stdout, 'in\n');

  const errors: unknown[] = [];
  const wrong = new Secret('not-the-password-at-all', 'env:LINUX1_PASSWORD');
  errors.push(
    await t.throwsAsync(f.open({ target: { keyFile: undefined, password: wrong, passwordFrom: 'LINUX1_PASSWORD' } })),
  );
  const [last] = errors as Error[];
  t.is(
    last!.message,
    `host linux1: authentication failed for user root at 127.0.0.1:${f.server.port}; tried password from env var LINUX1_PASSWORD; the server accepts: publickey, password`,
  );
  errors.push(await t.throwsAsync(good.exec('sleep 5', { timeoutMs: 100, stdin: password })));
  errors.push(await t.throwsAsync(f.open({ target: { keyFile: join(f.dir, 'missing'), password } })));
  f.server.killConnections();
  await f.server.close();
  errors.push(await t.throwsAsync(good.exec('true', { stdin: password })));
  t.is(errors.length, 4);
  for (const e of errors) {
    const text = `${(e as Error).message}\n${(e as Error).stack}\n${inspect(e)}\n${JSON.stringify(e)}`;
    t.false(text.includes(PASSWORD), text);
    t.false(text.includes('not-the-password-at-all'), text);
  }
});

test('a missing key file names the path and the inventory variable, before any connection', async (t) => {
  const f = await fixture(t);
  const missing = join(f.dir, 'nope', 'id_ed25519');
  const e = await t.throwsAsync(f.open({ target: { keyFile: missing } }), { instanceOf: HandshakeError });
  t.is(e!.message, `host linux1: key file ${missing} not found (set by ansible_ssh_private_key_file)`);
  // A jump host's key names where it was set (runner/inventory/jump.ts), not the host's own variable.
  const via = await t.throwsAsync(f.open({ target: { keyFile: missing, keyFrom: 'ansible_ssh_common_args (-i)' } }), {
    instanceOf: HandshakeError,
  });
  t.is(via!.message, `host linux1: key file ${missing} not found (set by ansible_ssh_common_args (-i))`);
  t.is(f.server.tcpConnections, 0);
});

test('no authentication method at all is reported before connecting', async (t) => {
  const f = await fixture(t);
  const e = await t.throwsAsync(f.open({ target: { keyFile: undefined } }));
  t.regex(
    e!.message,
    /^host linux1: no way to authenticate as root: set ansible_ssh_private_key_file or ansible_password, or start an ssh-agent/,
  );
  t.is(f.server.tcpConnections, 0);
});

test('a refused port is tried 3 times and reported with host, address and port', async (t) => {
  const f = await fixture(t);
  const port = await closedPort();
  const e = await t.throwsAsync(f.open({ target: { port } }), { instanceOf: HandshakeError });
  t.is(
    e!.message,
    `host linux1 (127.0.0.1:${port}): connection refused (is sshd running and listening on port ${port}?) (3 attempts)`,
  );
  t.is(f.options.throttle.retries, 2);
});

test('a server that never answers times out after readyTimeout, without retries', async (t) => {
  const f = await fixture(t);
  const sockets: Socket[] = [];
  const silent: Server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const port = (silent.address() as { port: number }).port;
  const e = await t.throwsAsync(f.open({ target: { port }, options: { readyTimeoutMs: 300 } }), {
    instanceOf: HandshakeError,
  });
  t.is(
    e!.message,
    `host linux1 (127.0.0.1:${port}): no SSH connection within 300 ms (is the host up and the address right?)`,
  );
  t.is(sockets.length, 1);
});

test('ssh-agent authentication, and the agent named when it fails', async (t) => {
  const f = await fixture(t);
  const sock = join(f.dir, 'agent.sock');
  const agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
  t.teardown(() => {
    agent.kill();
  });
  await waitForFile(sock);
  execFileSync('ssh-add', [f.keyFile], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
  const c = await f.open({
    target: { keyFile: undefined },
    options: { auth: { agentSocket: sock, defaultKeyFiles: [] } },
  });
  t.is((await c.exec('echo via agent')).stdout, 'via agent\n');
  // The agent signs (and may ask its user to confirm): its key is asked about first, as ssh2 does.
  t.is(f.server.keyQuestions, 1);

  execFileSync('ssh-add', ['-D'], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
  const e = await t.throwsAsync(
    f.open({ target: { keyFile: undefined }, options: { auth: { agentSocket: sock, defaultKeyFiles: [] } } }),
  );
  t.is(
    e!.message,
    `host linux1: authentication failed for user root at 127.0.0.1:${f.server.port}; tried ssh-agent (${sock})`,
  );
});

test('a dead ssh-agent socket is skipped, and named if nothing else works', async (t) => {
  const f = await fixture(t);
  const dead = join(f.dir, 'dead-agent.sock');
  const c = await f.open({ options: { auth: { agentSocket: dead, defaultKeyFiles: [] } } });
  t.is((await c.exec('echo ok')).stdout, 'ok\n');
  const stranger = writeClientKey(f.dir, 'id_other');
  const e = await t.throwsAsync(
    f.open({ target: { keyFile: stranger.path }, options: { auth: { agentSocket: dead, defaultKeyFiles: [] } } }),
  );
  t.regex(
    e!.message,
    new RegExp(
      `tried key file ${stranger.path}, ssh-agent \\(${dead}\\); the server accepts: publickey; ssh-agent: Failed to connect to agent$`,
    ),
  );
});

test('default identities are tried when the host has no key file', async (t) => {
  const f = await fixture(t);
  const c = await f.open({
    target: { keyFile: undefined },
    options: { auth: { defaultKeyFiles: [join(f.dir, 'absent'), f.keyFile] } },
  });
  t.is((await c.exec('echo default')).stdout, 'default\n');
});

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function waitForFile(path: string): Promise<void> {
  const { existsSync } = await import('node:fs');
  for (let i = 0; i < 200 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 10));
}
