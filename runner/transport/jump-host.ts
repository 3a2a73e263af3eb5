// One SSH connection to a jump host (a bastion), shared by every host behind it. Each target's
// connection runs over a direct-tcpip channel of it (ssh2's forwardOut: what `ssh -W %h:%p` asks sshd
// for), handed to the target's handshake as its socket: 100 hosts behind a bastion cost it one login.
// The bastion only carries bytes: the target's host key and authentication are checked end to end as
// for a direct connection, and the bastion's own host key is checked the same way. Every error names
// the hop that failed: the bastion itself, its refusal to forward, or the target behind it.
import type { Duplex } from 'node:stream';
import type { Client as SshClient } from 'ssh2';
import { formatMs, HandshakeError } from './errors.js';
import { type ConnectionOptions, SshConnection } from './ssh-connection.js';
import { handshake } from './ssh-handshake.js';
import { endpointOf, where, type SshTarget } from './target.js';

// RFC 4254 section 5.1: why a server refuses to open a channel.
const ADMINISTRATIVELY_PROHIBITED = 1;
const CONNECT_FAILED = 2;
const RESOURCE_SHORTAGE = 4;
const REASONS: Record<number, string> = {
  [ADMINISTRATIVELY_PROHIBITED]: 'administratively prohibited',
  [CONNECT_FAILED]: 'connect failed',
  [RESOURCE_SHORTAGE]: 'resource shortage',
};

/** The bastion connection was gone when a target wanted a channel: reopened (outside the throttle) and tried again. */
class JumpConnectionGone extends HandshakeError {}

export class JumpHost {
  #connection: Promise<SshConnection> | null = null;
  #closed = false;

  /** `bastion` is the jump host as a target of its own; `options` are its connection's (throttle included). */
  constructor(
    readonly bastion: SshTarget,
    private readonly options: ConnectionOptions,
  ) {}

  /** The target's handshake over a channel of the bastion connection: every (re)connect of the target comes here. */
  async handshake(target: SshTarget, o: ConnectionOptions): Promise<SshClient> {
    for (let round = 1; ; round++) {
      // Before the target takes its throttle slots: the bastion's own handshake needs slots too, and
      // ten targets holding all of them while they wait for it would wait forever.
      const client = await this.#client(target);
      let bastionGone = false;
      try {
        return await o.throttle.run(endpointOf(target), async () => {
          const sock = await this.#forward(client, target, o.readyTimeoutMs).catch((e: unknown) => {
            bastionGone = e instanceof JumpConnectionGone;
            throw e;
          });
          return handshake(target, o, sock);
        });
      } catch (e) {
        // The bastion connection dropped: reopen it, outside the slots, once.
        if (!bastionGone || round >= 2) throw e;
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const opening = this.#connection;
    this.#connection = null;
    await opening?.then(
      (c) => c.close(),
      () => undefined,
    );
  }

  /** The bastion's client: opened once (concurrent targets share the attempt), reopened after a drop. */
  async #client(target: SshTarget): Promise<SshClient> {
    if (this.#closed) throw new HandshakeError(target.hostName, 'config', `host ${where(target)}: the pool is closed`);
    const opening = (this.#connection ??= SshConnection.open(this.bastion, this.options));
    try {
      return await (await opening).client();
    } catch (e) {
      // A failed first open is forgotten, so that a later host tries again (as the pool does for hosts);
      // a reconnect that failed leaves the connection to try again itself.
      const neverOpened = !(await isOpen(opening));
      if (neverOpened && this.#connection === opening) this.#connection = null;
      throw this.#fromBastion(target, e);
    }
  }

  /** A bastion failure, told as the target's: it is the target that cannot be reached. */
  #fromBastion(target: SshTarget, e: unknown): HandshakeError {
    const message = (e as Error).message;
    const detail = message.startsWith('host ') ? `jump ${message}` : `jump host ${this.bastion.hostName}: ${message}`;
    const failure = e instanceof HandshakeError ? e.failure : 'dropped';
    const attempts = e instanceof HandshakeError ? e.attempts : 1;
    return new HandshakeError(target.hostName, failure, `host ${where(target)}: ${detail}`, attempts);
  }

  /** A channel from the bastion to the target's address and port (sshd connects it), within `timeoutMs`. */
  #forward(client: SshClient, target: SshTarget, timeoutMs: number): Promise<Duplex> {
    const gone = () =>
      new JumpConnectionGone(
        target.hostName,
        'unreachable',
        `host ${where(target)}: the connection to jump host ${where(this.bastion)} was lost`,
      );
    return new Promise<Duplex>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        reject(
          new HandshakeError(
            target.hostName,
            'timeout',
            `host ${where(target)}: jump host ${this.bastion.hostName} did not connect to ${endpointOf(target)} within ${formatMs(timeoutMs)} (is the address right, and the host up?)`,
          ),
        );
      }, timeoutMs);
      try {
        client.forwardOut('127.0.0.1', 0, target.address, target.port, (err, stream) => {
          if (settled) return stream?.close(); // too late: the attempt already failed
          settled = true;
          clearTimeout(timer);
          if (err) reject(this.#refusal(target, err as Error & { reason?: number }));
          else resolve(stream);
        });
      } catch {
        // ssh2 throws "Not connected" when the bastion's socket is already closed.
        settled = true;
        clearTimeout(timer);
        reject(gone());
      }
    });
  }

  /** Why the bastion would not open the channel: a refusal of its own, or the target unreachable from it. */
  #refusal(target: SshTarget, err: Error & { reason?: number }): HandshakeError {
    const said =
      err.message.replace(/^\(SSH\) Channel open failure: ?/, '') || REASONS[err.reason ?? 0] || 'no reason given';
    const b = `jump host ${where(this.bastion)}`;
    const fail = (failure: HandshakeError['failure'], message: string) =>
      new HandshakeError(target.hostName, failure, `host ${where(target)}: ${message}`);
    switch (err.reason) {
      case ADMINISTRATIVELY_PROHIBITED:
        return fail(
          'protocol',
          `${b} refused to forward the connection (${said}: is AllowTcpForwarding off in its sshd_config, or a permitopen restriction on the key?)`,
        );
      case CONNECT_FAILED:
        return fail(
          /refused/i.test(said) ? 'refused' : 'unreachable',
          `unreachable through ${b}: it could not connect to ${endpointOf(target)} (${said})`,
        );
      case RESOURCE_SHORTAGE:
        return fail('dropped', `${b} had no resources for another channel (${said})`);
      default:
        return fail('protocol', `${b} could not open a channel to ${endpointOf(target)} (${said})`);
    }
  }
}

async function isOpen(opening: Promise<SshConnection>): Promise<boolean> {
  return opening.then(
    () => true,
    () => false,
  );
}
