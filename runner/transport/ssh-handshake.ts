// One attempt at an authenticated SSH connection, and what its failure means: every failure
// becomes a HandshakeError whose `failure` decides retries (handshake-throttle.ts) and whose
// message is for people. Retrying is not done here.
//
// ssh2's Client directly, not node-ssh (which wraps the same Client), and this is the one place that
// says why: node-ssh's connect() rejects on the first 'error' event, but ssh2 reports a failing
// ssh-agent or key signature as an 'error' and goes on with the next authentication method, so only
// the final verdict may fail the handshake; node-ssh reports a server that closes the connection as
// "No response from server" (ETIMEDOUT), where we tell a dropped handshake (retried: sshd's
// MaxStartups) from a refused host key; and node-ssh takes stdin only as a string and has no
// per-command timeout or channel limit (ssh-connection.ts). Every option below is ssh2's documented
// ConnectConfig.
import type { Duplex } from 'node:stream';
import {
  type AuthHandlerMiddleware,
  type ConnectConfig,
  type KexAlgorithm,
  type NegotiatedAlgorithms,
  type ServerHostKeyAlgorithm,
  Client as SshClient,
} from 'ssh2';
import { redact } from '../core/secret.js';
import { formatMs, HandshakeError } from './errors.js';
import { HostKeyCheck } from './host-key-check.js';
import { fingerprint, keyTypeOf } from './known-hosts.js';
import { AuthPlan, type AuthSources } from './ssh-auth.js';
import { signAtOnce } from './sign-at-once.js';
import { where, type SshTarget } from './target.js';

// curve25519 first: the fastest exchange both OpenSSH and Windows' OpenSSH offer (the lab measured
// ~127 ms per fresh connection against ~200 ms with OpenSSH's default sntrup761 hybrid).
const KEX: KexAlgorithm[] = [
  'curve25519-sha256',
  'curve25519-sha256@libssh.org',
  'ecdh-sha2-nistp256',
  'ecdh-sha2-nistp384',
  'ecdh-sha2-nistp521',
  'diffie-hellman-group-exchange-sha256',
  'diffie-hellman-group14-sha256',
  'diffie-hellman-group16-sha512',
];

export interface HandshakeOptions {
  readonly knownHostsFile: string;
  readonly acceptNew: boolean;
  /** TCP connect + key exchange + authentication must finish within this. */
  readonly readyTimeoutMs: number;
  readonly keepaliveIntervalMs: number;
  readonly keepaliveCountMax: number;
  readonly auth: AuthSources;
  /** -vvv: the handshake's steps in one line each (ssh2's own `debug` is a line per packet: too much). */
  readonly trace?: (text: string) => void;
}

type SshError = Error & { level?: string; code?: string | number };

function classify(
  err: SshError,
  t: SshTarget,
  check: HostKeyCheck,
  auth: AuthPlan,
  o: HandshakeOptions,
): HandshakeError {
  const refusal = check.refusal();
  if (refusal) return refusal;
  const w = where(t);
  const fail = (failure: HandshakeError['failure'], message: string) =>
    new HandshakeError(t.hostName, failure, message);
  if (err.level === 'client-authentication') return fail('auth', auth.failureMessage());
  if (err.level === 'client-timeout' || err.code === 'ETIMEDOUT') {
    return fail(
      'timeout',
      `host ${w}: no SSH connection within ${formatMs(o.readyTimeoutMs)} (is the host up and the address right?)`,
    );
  }
  switch (err.code) {
    case 'ECONNREFUSED':
      return fail('refused', `host ${w}: connection refused (is sshd running and listening on port ${t.port}?)`);
    case 'ECONNRESET':
    case 'EPIPE':
    case 'EAGAIN':
      return fail('dropped', `host ${w}: the server reset the connection during the SSH handshake (${err.code})`);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'EADDRNOTAVAIL':
      return fail('unreachable', `host ${w}: address unreachable (${err.code})`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return fail('unreachable', `host ${t.hostName}: cannot resolve ${t.address} (${err.code})`);
  }
  if (/Connection lost before handshake|kex_exchange_identification|banner exchange/i.test(err.message)) {
    return fail(
      'dropped',
      `host ${w}: the server closed the connection before the SSH handshake (sshd MaxStartups throttling, or sshd not ready)`,
    );
  }
  return fail('protocol', `host ${w}: SSH handshake failed: ${redact(err.message)}`);
}

/**
 * Connects, verifies the host key, authenticates: resolves with a ready ssh2 Client. Over `sock` when
 * given (a channel of a jump host's connection: jump-host.ts), else over a TCP connection of its own.
 */
export function handshake(target: SshTarget, o: HandshakeOptions, sock?: Duplex): Promise<SshClient> {
  let check: HostKeyCheck;
  let auth: AuthPlan;
  try {
    check = new HostKeyCheck(target, o.knownHostsFile, o.acceptNew);
    auth = new AuthPlan(target, o.auth);
  } catch (e) {
    if (e instanceof HandshakeError) return Promise.reject(e);
    return Promise.reject(
      new HandshakeError(
        target.hostName,
        'config',
        `host ${target.hostName}: cannot read ${o.knownHostsFile}: ${(e as Error).message}`,
      ),
    );
  }
  const client = new SshClient();
  const began = Date.now();
  o.trace?.(`connecting to ${where(target)} as ${target.user}${sock ? ' through the jump host' : ''}`);
  return new Promise<SshClient>((resolve, reject) => {
    let settled = false;
    const fail = (e: HandshakeError) => {
      if (settled) return;
      settled = true;
      client.destroy();
      reject(e);
    };
    // Listeners stay attached after a failure: a destroyed socket may still emit errors.
    client.on('error', (err: SshError) => {
      if (err.level === 'agent') return auth.note(`ssh-agent: ${err.message}`);
      // Signing problems are reported and ssh2 goes on with the next method; only the final verdict fails.
      if (err.level === 'client-authentication' && !/All configured authentication methods failed/.test(err.message)) {
        return auth.note(err.message);
      }
      fail(classify(err, target, check, auth, o));
    });
    client.on('handshake', (n: NegotiatedAlgorithms) => {
      o.trace?.(`key exchange ${n.kex}, host key ${n.serverHostKey}, cipher ${n.cs.cipher}`);
      try {
        check.recordIfNew();
      } catch (e) {
        fail(e as HandshakeError);
      }
    });
    client.once('close', () => {
      // A connection that was ready closes too, at the end: no error to build then.
      if (settled) return;
      fail(
        check.refusal() ??
          new HandshakeError(
            target.hostName,
            'dropped',
            `host ${where(target)}: the server closed the connection during the SSH handshake`,
          ),
      );
    });
    client.once('ready', () => {
      o.trace?.(`authenticated as ${target.user} in ${Date.now() - began} ms`);
      if (settled) return;
      settled = true;
      resolve(client);
    });
    const config: ConnectConfig = {
      host: target.address,
      port: target.port,
      username: target.user,
      readyTimeout: o.readyTimeoutMs,
      keepaliveInterval: o.keepaliveIntervalMs,
      keepaliveCountMax: o.keepaliveCountMax,
      hostVerifier: o.trace ? traceHostKey(check, o.trace) : check.verify,
      algorithms: { kex: KEX, serverHostKey: check.algorithms() as ServerHostKeyAlgorithm[] },
      authHandler: o.trace ? traceAuth(auth, o.trace) : auth.handler,
      ...(sock ? { sock } : {}),
    };
    try {
      client.connect(config);
      skipHostKeysProof(client);
      signAtOnce(client);
      // Commands and their replies are small packets: Nagle's delay would cost a round trip each
      // (the socket exists once connect() has been called; a jump host's channel has no such setting).
      client.setNoDelay(true);
    } catch (e) {
      fail(new HandshakeError(target.hostName, 'config', `host ${where(target)}: ${(e as Error).message}`));
    }
  });
}

/**
 * OpenSSH's sshd announces all its host keys after authentication (hostkeys-00@openssh.com), and ssh2
 * answers every announcement by asking the server to prove it holds each key: one more round trip, a
 * signature per host key on the host (an RSA one costs the host milliseconds) and their verification
 * here, on every connection. OpenSSH's ssh asks only to learn keys it does not know (UpdateHostKeys);
 * play learns no keys that way, so the announcement is acknowledged and left unproven. ssh2 has no
 * option for it: its protocol's message handlers are replaced for that one message. Should a later
 * ssh2 keep them elsewhere, nothing changes but the cost.
 */
function skipHostKeysProof(client: SshClient): void {
  type GlobalRequest = (p: unknown, name: string, wantReply: boolean, data: unknown) => void;
  const proto = (client as unknown as { _protocol?: { _handlers?: Record<string, unknown>; requestSuccess(): void } })
    ._protocol;
  const handlers = proto?._handlers;
  const original = handlers?.GLOBAL_REQUEST as GlobalRequest | undefined;
  if (!proto || !handlers || typeof original !== 'function') return;
  handlers.GLOBAL_REQUEST = ((p, name, wantReply, data) => {
    if (name !== 'hostkeys-00@openssh.com') return original(p, name, wantReply, data);
    if (wantReply) proto.requestSuccess();
  }) satisfies GlobalRequest;
}

/** The host key offered and the verdict, for -vvv. */
function traceHostKey(check: HostKeyCheck, trace: (text: string) => void): (keyBlob: Buffer) => boolean {
  return (keyBlob) => {
    const ok = check.verify(keyBlob);
    let type = 'unknown type';
    try {
      type = keyTypeOf(keyBlob);
    } catch {}
    trace(`host key ${type} ${fingerprint(keyBlob)}: ${ok ? 'accepted' : 'refused'}`);
    return ok;
  };
}

/** Each authentication method as it is tried (its type and, for a key, where it comes from), for -vvv. */
function traceAuth(auth: AuthPlan, trace: (text: string) => void): AuthHandlerMiddleware {
  return (methodsLeft, partialSuccess, next) => {
    if (methodsLeft) trace(`the server accepts: ${(methodsLeft as string[]).join(', ')}`);
    auth.handler(methodsLeft, partialSuccess, (method) => {
      const m = method as unknown as { type?: string } | false;
      trace(m ? `trying ${auth.lastTried ?? m.type}` : 'no authentication method left');
      next(method);
    });
  };
}
