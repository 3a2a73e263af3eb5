// At most one SSH connection per host at a time, opened when a host's first step needs it and held
// until the run releases the host (its last step done, or a rolling run's reboot) or closes the pool.
// Concurrent callers for one host share the pending connect; all handshakes of the run go through
// one throttle. A failed connect is forgotten, so a later get() may try again. Hosts behind a jump
// host share one connection to it (jump-hosts.ts).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EnvRef, type Host, type JumpSpec, type ResolvedSecrets } from '../inventory/model.js';
import { type ExecConnection, SudoConnection } from './become.js';
import { HandshakeThrottle, type ThrottleOptions } from './handshake-throttle.js';
import { JumpHosts } from './jump-hosts.js';
import { SshConnection, type ConnectionOptions } from './ssh-connection.js';
import type { SshTarget } from './target.js';

export interface PoolOptions {
  /** known_hosts for every host, overriding the inventory's (the CLI's --known-hosts). */
  knownHostsFile?: string;
  /** Record unknown host keys (StrictHostKeyChecking=accept-new). A changed key is refused regardless. */
  acceptNew?: boolean;
  /** TCP connect + handshake + authentication (default 10 s, Ansible's default timeout). */
  connectTimeoutMs?: number;
  /** SSH keepalive period (default 15 s); the connection is declared dead after `keepaliveCountMax` (3) unanswered. */
  keepaliveIntervalMs?: number;
  keepaliveCountMax?: number;
  /** Channels open at once per connection (default 8, under sshd's MaxSessions 10). */
  maxChannels?: number;
  /** Handshake limits and retries (default 10 at once, a run's forks; 2 per address:port, 5 attempts from 100 ms). */
  handshakes?: ThrottleOptions;
  /** ssh-agent socket; default SSH_AUTH_SOCK, null for none. */
  agentSocket?: string | null;
  /** Identities tried for hosts without ansible_ssh_private_key_file; default ~/.ssh/id_{ed25519,ecdsa,rsa}. */
  defaultKeyFiles?: readonly string[];
  /** -vvv: each host's connection events (handshake, host key, authentication, reconnects, channels). */
  trace?: (hostName: string, text: string) => void;
}

function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

/** What the transport needs of an inventory host. */
export function targetOf(host: Host, secrets: ResolvedSecrets = {}): SshTarget {
  const c = host.connection;
  return {
    hostName: host.name,
    address: c.address,
    port: c.port,
    user: c.user,
    keyFile: c.keyFile === undefined ? undefined : expandHome(c.keyFile),
    keyFrom: c.keyFrom,
    ...(c.identityFiles ? { identityFiles: c.identityFiles } : {}),
    ...(c.identitiesOnly ? { identitiesOnly: true } : {}),
    password: secrets.password,
    passwordFrom: c.password instanceof EnvRef ? c.password.envVar : undefined,
    ...(c.jump ? { jump: jumpTargetOf(c.jump) } : {}),
  };
}

/** A jump host as a target of its own: keys and the agent only, never a password. */
function jumpTargetOf(j: JumpSpec): SshTarget {
  const keyFile = j.keyFile === undefined ? undefined : expandHome(j.keyFile);
  const ids = j.identityFiles ? { identityFiles: j.identityFiles } : {};
  return { hostName: j.hostName, address: j.address, port: j.port, user: j.user, keyFile, keyFrom: j.keyFrom, ...ids };
}

export class ConnectionPool {
  readonly throttle: HandshakeThrottle;
  readonly #connections = new Map<string, Promise<SshConnection>>();
  /** One connection per bastion, shared by the hosts behind it (jump-hosts.ts). */
  readonly #jumps = new JumpHosts();
  #closed = false;

  constructor(private readonly options: PoolOptions = {}) {
    this.throttle = new HandshakeThrottle(options.handshakes);
  }

  /** The host's connection, opened on first use. Rejects with an UnreachableError (a HandshakeError). */
  get(host: Host, secrets: ResolvedSecrets = {}): Promise<SshConnection> {
    if (this.#closed) return Promise.reject(new Error('the connection pool is closed'));
    let pending = this.#connections.get(host.name);
    if (!pending) {
      const target = targetOf(host, secrets);
      const options = this.#optionsFor(host);
      const jump = target.jump && this.#jumps.acquire(host.name, target.jump, options);
      const opening = SshConnection.open(target, jump ? { ...options, jump } : options);
      this.#connections.set(host.name, opening);
      opening.catch(() => {
        if (this.#connections.get(host.name) !== opening) return;
        this.#connections.delete(host.name);
        this.#jumps.release(host.name);
      });
      pending = opening;
    }
    return pending;
  }

  /**
   * What a run's steps use: the host's connection, through sudo when the host becomes another user
   * (ansible_become). One per host session, so sudo's check is made once per host and run.
   */
  async shell(host: Host, secrets: ResolvedSecrets = {}): Promise<ExecConnection> {
    const connection = await this.get(host, secrets);
    const become = host.connection.become;
    if (!become) return connection;
    return new SudoConnection(connection, {
      hostName: host.name,
      loginUser: host.connection.user,
      user: become.user,
      password: secrets.becomePassword,
      passwordFrom: secrets.becomePassword?.source,
    });
  }

  /**
   * Closes one host's connection when the run is done with it (its last step finished): a run of
   * 1,000 hosts then holds only the connections still in use, not every one it opened.
   * A later get() for the host opens a new one.
   */
  async release(hostName: string): Promise<void> {
    const pending = this.#connections.get(hostName);
    if (!pending) return;
    this.#connections.delete(hostName);
    await pending.then(
      (c) => c.close(),
      () => undefined,
    );
    this.#jumps.release(hostName);
  }

  /** Closes every connection, including ones still being opened. */
  async closeAll(): Promise<void> {
    this.#closed = true;
    const all = [...this.#connections.values()];
    this.#connections.clear();
    await Promise.all(
      all.map((p) =>
        p.then(
          (c) => c.close(),
          () => undefined,
        ),
      ),
    );
    await this.#jumps.closeAll();
  }

  #optionsFor(host: Host): ConnectionOptions {
    const o = this.options;
    const c = host.connection;
    const home = homedir();
    return {
      // An explicit option beats the inventory, which beats OpenSSH's default.
      knownHostsFile: expandHome(
        o.knownHostsFile ?? host.connection.knownHostsFile ?? join(home, '.ssh', 'known_hosts'),
      ),
      // Then the host's ssh_config (StrictHostKeyChecking accept-new, ConnectTimeout, ServerAlive*).
      acceptNew: (o.acceptNew ?? false) || c.acceptNew === true,
      readyTimeoutMs: o.connectTimeoutMs ?? (c.connectTimeoutSec === undefined ? 10_000 : c.connectTimeoutSec * 1000),
      keepaliveIntervalMs:
        o.keepaliveIntervalMs ?? (c.serverAliveIntervalSec === undefined ? 15_000 : c.serverAliveIntervalSec * 1000),
      keepaliveCountMax: o.keepaliveCountMax ?? c.serverAliveCountMax ?? 3,
      maxChannels: o.maxChannels,
      throttle: this.throttle,
      ...(o.trace ? { trace: (text: string) => o.trace!(host.name, text) } : {}),
      auth: {
        agentSocket: o.agentSocket === null ? undefined : (o.agentSocket ?? process.env.SSH_AUTH_SOCK),
        defaultKeyFiles: o.defaultKeyFiles ?? ['id_ed25519', 'id_ecdsa', 'id_rsa'].map((f) => join(home, '.ssh', f)),
      },
    };
  }
}
