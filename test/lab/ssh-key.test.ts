import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519KeyPair } from '../../lab/hosts/ssh-key.js';

test("the key pair is in OpenSSH's formats: ssh-keygen reads the private key and derives the same public key", (t) => {
  const key = ed25519KeyPair('root@linux7');
  t.regex(
    key.privateKey,
    /^-----BEGIN OPENSSH PRIVATE KEY-----\n([A-Za-z0-9+/=]{1,70}\n)+-----END OPENSSH PRIVATE KEY-----\n$/,
  );
  t.regex(key.publicKey, /^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI[A-Za-z0-9+/]{43} root@linux7\n$/);
  t.not(ed25519KeyPair('x').publicKey.split(' ')[1], key.publicKey.split(' ')[1]);
  if (!existsSync('/usr/bin/ssh-keygen')) return t.log('no ssh-keygen here: the format is checked by shape only');
  const dir = mkdtempSync(join(tmpdir(), 'play-key-'));
  try {
    writeFileSync(join(dir, 'k'), key.privateKey, { mode: 0o600 });
    t.is(execFileSync('/usr/bin/ssh-keygen', ['-y', '-f', join(dir, 'k')], { encoding: 'utf8' }), key.publicKey);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
