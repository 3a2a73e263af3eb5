// Public key authentication with a key file, signed in its first request. ssh2 first asks the server
// whether it would take the key (a request without a signature) and signs only once it says yes: one
// more network round trip on every connection (`npm run bench:round-trips`). RFC 4252 (section 7)
// makes the question optional: the server answers a signed request with success or failure as it
// would after a yes, and the key it sees is the same. Only after the host key was verified (key
// exchange comes first), so a signature goes to no other server than the question would. The agent's
// keys keep the question: the agent signs, and may ask its user to confirm each signature. ssh2 has no
// option for it: its protocol's authPK is wrapped. Should a later ssh2 name it otherwise, nothing
// changes but the round trip.
import type { Client as SshClient } from 'ssh2';

type Sign = (data: Buffer, done: (signature: Buffer) => void) => void;
type AuthPk = (username: string, key: unknown, keyAlgo: string | Sign | undefined, sign?: Sign) => void;
interface PrivateKey {
  isPrivateKey(): boolean;
  sign(data: Buffer, hash?: string): Buffer | Error;
}

/** The hash an RSA signature algorithm names; other key types sign with their own (undefined). */
const HASH_OF: Readonly<Record<string, string>> = {
  'rsa-sha2-256': 'sha256',
  'rsa-sha2-512': 'sha512',
  'ssh-rsa': 'sha1',
};

const holdsPrivatePart = (key: unknown): key is PrivateKey =>
  typeof (key as PrivateKey | null)?.isPrivateKey === 'function' &&
  (key as PrivateKey).isPrivateKey() &&
  typeof (key as PrivateKey).sign === 'function';

/** Makes `client` (connect() already called) send a key file's authentication signed at once. */
export function signAtOnce(client: SshClient): void {
  const proto = (client as unknown as { _protocol?: { authPK?: AuthPk } })._protocol;
  const original = proto?.authPK;
  if (!proto || typeof original !== 'function') return;
  proto.authPK = (username, key, keyAlgo, sign) => {
    // A signing call (after the server's yes, or ssh2's own form authPK(user, key, sign)) goes as it is.
    if (sign || typeof keyAlgo === 'function' || !holdsPrivatePart(key))
      return original.call(proto, username, key, keyAlgo, sign);
    const hash = keyAlgo ? HASH_OF[keyAlgo] : undefined;
    original.call(proto, username, key, keyAlgo, (data, done) => {
      const signature = key.sign(data, hash);
      // A key that cannot sign: ask the question instead; ssh2 then signs, fails and says why.
      if (signature instanceof Error) original.call(proto, username, key, keyAlgo);
      else done(signature);
    });
  };
}
