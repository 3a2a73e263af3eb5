// The jump hosts of a connection pool: one JumpHost (one SSH connection) per bastion endpoint, user,
// key file and known_hosts file, shared by every host that goes through it. A bastion no host uses any
// more is closed after a short linger, so that the next host of a run (one finishing as the next
// starts, a rolling run's next batch) does not pay for a new login; the pool's close closes them all.
import { JumpHost } from './jump-host.js';
import type { ConnectionOptions } from './ssh-connection.js';
import { endpointOf, type SshTarget } from './target.js';

interface Entry {
  readonly jump: JumpHost;
  readonly users: Set<string>;
  linger?: NodeJS.Timeout;
}

export class JumpHosts {
  readonly #entries = new Map<string, Entry>();
  /** Which entry each host uses. */
  readonly #byHost = new Map<string, string>();

  constructor(private readonly lingerMs = 10_000) {}

  /** The jump host for `hostName`'s connection through `bastion`, counted as used by it until release(). */
  acquire(hostName: string, bastion: SshTarget, options: ConnectionOptions): JumpHost {
    const key = [`${bastion.user}@${endpointOf(bastion)}`, bastion.keyFile ?? '', options.knownHostsFile].join('\0');
    let entry = this.#entries.get(key);
    if (!entry) this.#entries.set(key, (entry = { jump: new JumpHost(bastion, options), users: new Set() }));
    clearTimeout(entry.linger);
    entry.linger = undefined;
    entry.users.add(hostName);
    this.#byHost.set(hostName, key);
    return entry.jump;
  }

  /** The host no longer uses its jump host; the last one out starts the linger. */
  release(hostName: string): void {
    const key = this.#byHost.get(hostName);
    const entry = key === undefined ? undefined : this.#entries.get(key);
    this.#byHost.delete(hostName);
    if (!entry || !entry.users.delete(hostName) || entry.users.size > 0) return;
    entry.linger = setTimeout(() => {
      if (entry.users.size > 0 || this.#entries.get(key!) !== entry) return;
      this.#entries.delete(key!);
      void entry.jump.close();
    }, this.lingerMs);
    entry.linger.unref();
  }

  async closeAll(): Promise<void> {
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    this.#byHost.clear();
    for (const e of entries) clearTimeout(e.linger);
    await Promise.all(entries.map((e) => e.jump.close()));
  }
}
