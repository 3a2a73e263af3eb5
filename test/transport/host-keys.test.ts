import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { HandshakeError } from '../../runner/transport/errors.js';
import { HostKeyCheck } from '../../runner/transport/host-key-check.js';
import { fingerprint } from '../../runner/transport/known-hosts.js';
import { fixture } from './helpers/fixture.js';
import { generateKey, tempDir } from './helpers/ssh-server.js';

function sshKeygenFingerprint(dir: string, publicLine: string): string {
  const pub = join(dir, 'server.pub');
  writeFileSync(pub, `${publicLine}\n`);
  return execFileSync('ssh-keygen', ['-lf', pub], { encoding: 'utf8' }).split(' ')[1]!;
}

test('an unknown host key is refused, with its fingerprint and how to accept it', async (t) => {
  const f = await fixture(t, { known: false });
  const e = await t.throwsAsync(f.open(), { instanceOf: HandshakeError });
  const fp = sshKeygenFingerprint(f.dir, f.server.hostKey.public);
  t.is(
    e!.message,
    `host linux1 (127.0.0.1:${f.server.port}): host key not known (ssh-ed25519 ${fp}). ` +
      `Check the fingerprint out of band, then run again with --accept-new to record it in ${f.knownHosts}`,
  );
  t.is((e as HandshakeError).failure, 'hostkey');
  t.is(f.server.tcpConnections, 1, 'a host key refusal is not retried');
  t.deepEqual(f.server.authAttempts, [], 'no credentials are offered to an unverified host');
  t.false(existsSync(f.knownHosts));
});

test('accept-new records an unknown key, and the next connection matches it', async (t) => {
  const f = await fixture(t, { known: false });
  const first = await f.open({ options: { acceptNew: true } });
  t.is((await first.exec('echo hi')).stdout, 'hi\n');
  t.is(readFileSync(f.knownHosts, 'utf8'), `[127.0.0.1]:${f.server.port} ${f.server.hostKey.public}\n`);
  await first.close();
  const second = await f.open();
  t.is((await second.exec('echo again')).stdout, 'again\n');
  const third = await f.open({ options: { acceptNew: true } });
  await third.close();
  t.is(readFileSync(f.knownHosts, 'utf8').split('\n').filter(Boolean).length, 1, 'a known key is not recorded twice');
});

test('a changed host key is refused even with accept-new, naming the file, line and both fingerprints', async (t) => {
  const f = await fixture(t, { known: false });
  const old = generateKey().public;
  const original = `# lab hosts\n[127.0.0.1]:${f.server.port} ${old}\n`;
  writeFileSync(f.knownHosts, original);
  const e = await t.throwsAsync(f.open({ options: { acceptNew: true } }), { instanceOf: HandshakeError });
  const offered = sshKeygenFingerprint(f.dir, f.server.hostKey.public);
  const removal = `ssh-keygen -R '[127.0.0.1]:${f.server.port}' -f ${f.knownHosts}`;
  t.is(
    e!.message,
    `HOST KEY CHANGED for linux1 (127.0.0.1:${f.server.port}): ${f.knownHosts}:2 has ${fingerprint(Buffer.from(old.split(' ')[1]!, 'base64'))}, ` +
      `the host offered ${offered}. Refusing to connect: this may be an attack. If the host was rebuilt, remove the old key with: ${removal}`,
  );
  t.is(readFileSync(f.knownHosts, 'utf8'), original, 'known_hosts is left alone');
  t.deepEqual(f.server.authAttempts, []);
  // The suggested command works: afterwards the host is merely unknown.
  execFileSync('ssh-keygen', ['-R', `[127.0.0.1]:${f.server.port}`, '-f', f.knownHosts], { stdio: 'ignore' });
  const again = await t.throwsAsync(f.open());
  t.regex(again!.message, /host key not known/);
});

test('a revoked host key is refused even when a plain line also lists it', async (t) => {
  const f = await fixture(t);
  writeFileSync(f.knownHosts, readFileSync(f.knownHosts, 'utf8') + `@revoked * ${f.server.hostKey.public}\n`);
  const e = await t.throwsAsync(f.open({ options: { acceptNew: true } }), { instanceOf: HandshakeError });
  t.regex(
    e!.message,
    new RegExp(
      `^REVOKED HOST KEY for linux1 \\(127\\.0\\.0\\.1:${f.server.port}\\): the host offered ssh-ed25519 SHA256:\\S+, which ${f.knownHosts}:2 marks @revoked`,
    ),
  );
});

test('the host key types known for a host are offered first', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const file = join(dir, 'known_hosts');
  const rsaBlob = Buffer.concat([Buffer.from([0, 0, 0, 7]), Buffer.from('ssh-rsa'), Buffer.alloc(8)]);
  writeFileSync(file, `198.18.0.101 ssh-rsa ${rsaBlob.toString('base64')}\n`);
  const target = { hostName: 'linux1', address: '198.18.0.101', port: 22, user: 'root' };
  t.deepEqual(new HostKeyCheck(target, file, false).algorithms().slice(0, 3), [
    'rsa-sha2-512',
    'rsa-sha2-256',
    'ssh-ed25519',
  ]);
  t.is(new HostKeyCheck({ ...target, address: '198.18.0.102' }, file, false).algorithms()[0], 'ssh-ed25519');
});

test('a host with several host keys is asked for the one known_hosts holds', async (t) => {
  const ecdsa = generateKey('ecdsa');
  const f = await fixture(t, { known: false, server: { extraHostKeys: [ecdsa.private] } });
  // Only the ECDSA key is known; ssh2's default order would get the ed25519 key and see a change.
  writeFileSync(f.knownHosts, `[127.0.0.1]:${f.server.port} ${ecdsa.public}\n`);
  const c = await f.open();
  t.is((await c.exec('echo ok')).stdout, 'ok\n');
});
