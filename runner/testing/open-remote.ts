// One inventory host as a Remote, for a test of a step of one's own against a real host: the host's
// connection as `play` makes it (its vars, ssh_config, known_hosts verified, secrets from the
// environment or a vault), one SSH connection that close() ends.
import { UsageError } from '../core/errors.js';
import type { Remote } from '../core/step.js';
import type { Inventory } from '../inventory/model.js';
import { resolveSecrets } from '../inventory/secrets.js';
import { HostSession } from '../run/host-session.js';
import { ConnectionPool, type PoolOptions } from '../transport/pool.js';

export interface OpenRemote {
  readonly remote: Remote;
  close(): Promise<void>;
}

/** `name` of `inventory` as a Remote (connected at its first command); `pool`: e.g. `{ acceptNew: true }`. */
export function openRemote(inventory: Inventory, name: string, pool: PoolOptions = {}): OpenRemote {
  const host = inventory.host(name);
  if (!host)
    throw new UsageError(
      `no host ${name} in ${inventory.file}: name one of ${inventory.hosts.map((h) => h.name).join(', ')}`,
    );
  const connections = new ConnectionPool(pool);
  const remote = new HostSession(host, (h) => connections.shell(h, resolveSecrets(h)));
  return { remote, close: () => connections.closeAll() };
}
