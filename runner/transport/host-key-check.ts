// Host key verification for one handshake attempt, like ssh(1) with StrictHostKeyChecking=yes
// (or accept-new). known_hosts is read per attempt (re-parsed only when it changed) so a key accepted by another connection
// is seen. A new key is recorded only after the handshake completed, i.e. after ssh2 verified the
// server's signature with it; a changed or revoked key is always refused.
import { quoteSh } from '../core/quote.js';
import { HandshakeError } from './errors.js';
import {
  appendHost,
  fingerprint,
  hostKeyName,
  keyTypeOf,
  knownKeyTypes,
  lookup,
  readKnownHosts,
  type KnownHosts,
  type LookupResult,
} from './known-hosts.js';
import { where, type SshTarget } from './target.js';

// Host key algorithms we offer, modern OpenSSH's order; ssh-rsa (SHA-1 signatures) left out as
// OpenSSH 8.8+ does. An RSA key listed in known_hosts is asked for with SHA-2 signatures.
const HOST_KEY_ALGORITHMS = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
];

function algorithmsFor(keyType: string): string[] {
  if (keyType === 'ssh-rsa') return ['rsa-sha2-512', 'rsa-sha2-256'];
  return HOST_KEY_ALGORITHMS.includes(keyType) ? [keyType] : [];
}

interface Offered {
  keyType: string;
  keyBlob: Buffer;
  result: LookupResult;
}

export class HostKeyCheck {
  readonly #known: KnownHosts;
  #offered: Offered | null = null;
  #recorded = false;

  constructor(
    private readonly target: SshTarget,
    readonly file: string,
    readonly acceptNew: boolean,
  ) {
    this.#known = readKnownHosts(file);
  }

  /** Server host key algorithms to offer: the types known for this host first. */
  algorithms(): string[] {
    const known = knownKeyTypes(this.#known, this.target.address, this.target.port).flatMap(algorithmsFor);
    return [...new Set([...known, ...HOST_KEY_ALGORITHMS])];
  }

  /** ssh2's hostVerifier (raw key blob, no hostHash): true to go on with the handshake. */
  readonly verify = (keyBlob: Buffer): boolean => {
    let keyType: string;
    try {
      keyType = keyTypeOf(keyBlob);
    } catch {
      return false;
    }
    const result = lookup(this.#known, this.target.address, this.target.port, keyType, keyBlob);
    this.#offered = { keyType, keyBlob: Buffer.from(keyBlob), result };
    return result.status === 'match' || (result.status === 'unknown' && this.acceptNew);
  };

  /** After a completed handshake: records an unknown key under accept-new (once: rekeys come back here). */
  recordIfNew(): void {
    const o = this.#offered;
    if (!o || o.result.status !== 'unknown' || !this.acceptNew || this.#recorded) return;
    this.#recorded = true;
    try {
      appendHost(this.file, this.target.address, this.target.port, o.keyType, o.keyBlob);
    } catch (e) {
      throw new HandshakeError(
        this.target.hostName,
        'config',
        `host ${where(this.target)}: cannot record its host key in ${this.file}: ${(e as Error).message}`,
      );
    }
  }

  /** The refusal to report, when the verifier said no. */
  refusal(): HandshakeError | null {
    const o = this.#offered;
    if (!o || o.result.status === 'match' || (o.result.status === 'unknown' && this.acceptNew)) return null;
    const t = this.target;
    const offered = fingerprint(o.keyBlob);
    const at = `${this.file}:${o.result.line}`;
    const remove = `ssh-keygen -R ${quoteSh(hostKeyName(t.address, t.port))} -f ${quoteSh(this.file)}`;
    let message: string;
    switch (o.result.status) {
      case 'unknown':
        message =
          `host ${where(t)}: host key not known (${o.keyType} ${offered}). Check the fingerprint out of band, ` +
          `then run again with --accept-new to record it in ${this.file}`;
        break;
      case 'changed':
        message =
          `HOST KEY CHANGED for ${where(t)}: ${at} has ${o.result.knownFingerprint}, the host offered ${offered}. ` +
          `Refusing to connect: this may be an attack. If the host was rebuilt, remove the old key with: ${remove}`;
        break;
      case 'revoked':
        message =
          `REVOKED HOST KEY for ${where(t)}: the host offered ${o.keyType} ${offered}, which ${at} marks @revoked. ` +
          `Refusing to connect: a revoked key may be in someone else's hands. Give the host a new host key and check it out of band`;
        break;
    }
    return new HandshakeError(t.hostName, 'hostkey', message);
  }
}
