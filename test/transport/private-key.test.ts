// A key file read once per run: the same signatures as ssh2's own signing, and a file that changes
// during the run is read again, with its checks.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import ssh2 from 'ssh2';
import type { ParsedKey } from 'ssh2';
import { readPrivateKey, signingOnce } from '../../runner/transport/private-key.js';
import { tempDir } from './helpers/ssh-server.js';

function keygen(t: import('ava').ExecutionContext, type: string, bits?: number): string {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const path = join(dir, `id_${type}`);
  execFileSync('ssh-keygen', ['-q', '-t', type, ...(bits ? ['-b', String(bits)] : []), '-N', '', '-f', path]);
  return path;
}

function ssh2Parsed(path: string): ParsedKey {
  const k = ssh2.utils.parseKey(execFileSync('cat', [path]));
  if (k instanceof Error) throw k;
  return Array.isArray(k) ? k[0]! : k;
}

// Deterministic schemes sign to the very bytes ssh2's PEM-based signing gives.
for (const [type, bits, algos] of [
  ['ed25519', undefined, [undefined]],
  ['rsa', 2048, [undefined, 'sha256', 'sha512']],
] as const) {
  test(`a ${type} key signs to the same bytes as ssh2's own signing`, (t) => {
    const path = keygen(t, type, bits);
    const data = randomBytes(200);
    for (const algo of algos) {
      const theirs = ssh2Parsed(path).sign(data, algo);
      const ours = signingOnce(ssh2Parsed(path)).sign(data, algo);
      t.true(Buffer.isBuffer(ours), `${type} ${algo}`);
      t.deepEqual(ours, theirs, `${type} ${algo}`);
    }
  });
}

test('an ECDSA key (randomized signatures) signs what ssh2 verifies', (t) => {
  const path = keygen(t, 'ecdsa');
  const data = randomBytes(200);
  const key = readPrivateKey(path);
  if (!('key' in key)) return t.fail(key.problem);
  const signature = key.key.sign(data);
  t.true(Buffer.isBuffer(signature));
  t.true(ssh2Parsed(path).verify(data, signature as Buffer));
  t.false(ssh2Parsed(path).verify(randomBytes(200), signature as Buffer));
});

test('a key file is parsed once while unchanged, and read again when replaced or opened up', (t) => {
  const path = keygen(t, 'ed25519');
  const first = readPrivateKey(path);
  t.true('key' in first);
  t.is(readPrivateKey(path), first);

  chmodSync(path, 0o644);
  const opened = readPrivateKey(path);
  t.like(opened, { kind: 'unprotected' });
  chmodSync(path, 0o600);
  t.true('key' in readPrivateKey(path));

  const other = keygen(t, 'ed25519');
  writeFileSync(path, execFileSync('cat', [other]), { mode: 0o600 });
  const replaced = readPrivateKey(path);
  if (!('key' in replaced) || !('key' in first)) return t.fail('not a key');
  t.notDeepEqual(replaced.key.getPublicSSH(), first.key.getPublicSSH());
  t.deepEqual(replaced.key.getPublicSSH(), ssh2Parsed(other).getPublicSSH());
});

test('a missing key file is told as before', (t) => {
  t.deepEqual(readPrivateKey('/nonexistent/id_ed25519'), { problem: 'not found', kind: 'missing' });
});
