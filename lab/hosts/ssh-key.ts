// An ed25519 key pair in OpenSSH's own formats (the `openssh-key-v1` private key file, unencrypted,
// and the `ssh-ed25519 AAAA... comment` public line), made with node:crypto: a lab of a thousand hosts
// would otherwise spend most of its `up` starting ssh-keygen once per host key.
import { generateKeyPairSync, randomBytes } from 'node:crypto';

export interface OpenSshKeyPair {
  /** `-----BEGIN OPENSSH PRIVATE KEY-----` ... , as ssh-keygen writes it with an empty passphrase. */
  privateKey: string;
  /** `ssh-ed25519 AAAA... comment\n` */
  publicKey: string;
}

/** SSH wire format: uint32 length, then the bytes. */
function sshString(data: Buffer | string): Buffer {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const len = Buffer.alloc(4);
  len.writeUInt32BE(bytes.length);
  return Buffer.concat([len, bytes]);
}

function uint32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export function ed25519KeyPair(comment: string): OpenSshKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const seed = Buffer.from(jwk.d!, 'base64url');
  const pub = Buffer.from(jwk.x!, 'base64url');
  const publicBlob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4);
  const inner = Buffer.concat([
    check,
    check,
    sshString('ssh-ed25519'),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  // Padded with 1, 2, 3, ... to the cipher's block size (8 for "none").
  const pad = Buffer.from(Array.from({ length: (8 - (inner.length % 8)) % 8 }, (_, i) => i + 1));
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicBlob),
    sshString(Buffer.concat([inner, pad])),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g)!;
  return {
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
    publicKey: `ssh-ed25519 ${publicBlob.toString('base64')} ${comment}\n`,
  };
}
