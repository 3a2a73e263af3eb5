// Errors of the transport. Connection problems are UnreachableErrors (the runner reports the host
// unreachable); a command that outlives its timeout is a TimeoutError (the step fails, the
// connection stays usable).
import { UnreachableError } from '../core/errors.js';

/** Why a handshake failed: decides whether it is retried and what the message says. */
export type HandshakeFailure =
  | 'dropped' // closed or reset before/during the handshake: sshd MaxStartups, sshd restarting
  | 'refused' // ECONNREFUSED
  | 'unreachable' // EHOSTUNREACH, ENETUNREACH, DNS
  | 'timeout' // no handshake within readyTimeout
  | 'auth' // every authentication method failed
  | 'hostkey' // unknown, changed or revoked host key
  | 'config' // our side: missing or unreadable key file, no method to try, known_hosts not writable
  | 'protocol'; // anything else the server or ssh2 said

export class HandshakeError extends UnreachableError {
  constructor(
    host: string,
    readonly failure: HandshakeFailure,
    message: string,
    readonly attempts = 1,
  ) {
    super(host, message, failure === 'hostkey' || failure === 'config');
    this.name = 'HandshakeError';
  }

  /** The same error, saying how many attempts were made (when there was more than one). */
  withAttempts(attempts: number): HandshakeError {
    if (attempts <= 1) return this;
    return new HandshakeError(this.host, this.failure, `${this.message} (${attempts} attempts)`, attempts);
  }
}

/** The connection broke while a command ran: whether the command had effects is unknown. */
export class ConnectionLostError extends UnreachableError {
  constructor(host: string, message: string) {
    super(host, message);
    this.name = 'ConnectionLostError';
  }
}

export class TimeoutError extends Error {
  constructor(
    readonly host: string,
    readonly timeoutMs: number,
    where: string,
  ) {
    super(
      `host ${where}: command did not finish within ${formatMs(timeoutMs)}; its channel was closed and sshd asked to kill it`,
    );
    this.name = 'TimeoutError';
  }
}

export function formatMs(ms: number): string {
  return ms >= 1000 && ms % 100 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
