// Private keys as OpenSSH treats them: a key of one's own that group or others may read or write is
// refused (UNPROTECTED PRIVATE KEY FILE); ssh_config's IdentityFiles are tried after the inventory's key,
// a missing or encrypted one passed over; IdentitiesOnly keeps ssh-agent to the keys of those files.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HandshakeError } from '../../runner/transport/errors.js';
import { keyFileProblem } from '../../runner/transport/ssh-auth.js';
import { fixture } from './helpers/fixture.js';
import { generateKey, tempDir, writeClientKey } from './helpers/ssh-server.js';

test('a private key readable or writable by group or others is refused, naming the fix', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const key = writeClientKey(dir).path;
  t.is(keyFileProblem(key), undefined);
  for (const mode of [0o640, 0o604, 0o620, 0o644, 0o666]) {
    chmodSync(key, mode);
    t.is(
      keyFileProblem(key),
      `is an UNPROTECTED PRIVATE KEY FILE: mode 0${mode.toString(8)} lets group or others at it, and ssh refuses such a key too: chmod 600 ${key}`,
    );
  }
  chmodSync(key, 0o400);
  t.is(keyFileProblem(key), undefined);
  // What is not a private key is told as such first, whatever its mode.
  const text = join(dir, 'not-a-key');
  writeFileSync(text, 'hello\n', { mode: 0o644 });
  t.regex(keyFileProblem(text)!, /^is not a private key/);
  t.is(keyFileProblem(`${key}.pub`), 'holds a public key, not a private key');
});

test('IdentityFiles: tried in order after the inventory key; a missing one is passed over, an unprotected one refused', async (t) => {
  const f = await fixture(t);
  const missing = join(f.dir, 'id_missing');
  const c = await f.open({
    target: {
      keyFile: undefined,
      identityFiles: [
        { file: missing, from: 'cfg:1' },
        { file: f.keyFile, from: 'cfg:2' },
      ],
    },
  });
  t.is((await c.exec('echo via IdentityFile')).stdout, 'via IdentityFile\n');

  const open = writeClientKey(f.dir, 'id_open').path;
  chmodSync(open, 0o644);
  const e = await t.throwsAsync(
    f.open({ target: { keyFile: undefined, identityFiles: [{ file: open, from: '/home/me/.ssh/config:7' }] } }),
    { instanceOf: HandshakeError },
  );
  t.is(
    e!.message,
    `host linux1: IdentityFile ${open} is an UNPROTECTED PRIVATE KEY FILE: mode 0644 lets group or others at it, and ssh refuses such a key too: chmod 600 ${open} (/home/me/.ssh/config:7)`,
  );
  t.is(f.server.tcpConnections, 1, 'refused before connecting');
});

test('IdentitiesOnly: of the agent keys, only those of the IdentityFiles are offered (an encrypted file by its .pub)', async (t) => {
  const f = await fixture(t);
  const sock = join(f.dir, 'agent.sock');
  const agent = spawn('ssh-agent', ['-D', '-a', sock], { stdio: 'ignore' });
  t.teardown(() => {
    agent.kill();
  });
  for (let i = 0; i < 100 && !existsSync(sock); i++) await new Promise((r) => setTimeout(r, 20));
  const env = { ...process.env, SSH_AUTH_SOCK: sock };
  // The agent holds three strangers, then the key the server accepts.
  for (const name of ['s1', 's2', 's3']) {
    const k = generateKey();
    writeFileSync(join(f.dir, name), k.private, { mode: 0o600 });
    execFileSync('ssh-add', [join(f.dir, name)], { env, stdio: 'ignore' });
  }
  execFileSync('ssh-add', [f.keyFile], { env, stdio: 'ignore' });
  // The IdentityFile is an encrypted copy of the accepted key: play cannot read it, its .pub says which it is.
  const encrypted = join(f.dir, 'id_encrypted');
  copyFileSync(f.keyFile, encrypted);
  copyFileSync(`${f.keyFile}.pub`, `${encrypted}.pub`);
  execFileSync('ssh-keygen', ['-q', '-p', '-P', '', '-N', 'a passphrase', '-f', encrypted], { stdio: 'ignore' });
  t.regex(keyFileProblem(encrypted)!, /^is encrypted/);

  const attempts = async (identitiesOnly: boolean) => {
    const before = f.server.authAttempts.length;
    const c = await f.open({
      target: { keyFile: undefined, identityFiles: [{ file: encrypted, from: 'cfg:1' }], identitiesOnly },
      options: { auth: { agentSocket: sock, defaultKeyFiles: [] } },
    });
    t.is((await c.exec('echo in')).stdout, 'in\n');
    return f.server.authAttempts.slice(before).filter((a) => a.method === 'publickey').length;
  };
  t.is(await attempts(true), 1, 'only the accepted key');
  t.is(await attempts(false), 4, 'every agent key, strangers first');
});
