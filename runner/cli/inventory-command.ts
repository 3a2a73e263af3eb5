// `play inventory --list` and `play inventory --host NAME`: the inventory as play reads it, in the
// JSON `ansible-inventory` prints, so that the two can be compared line by line. Secrets are shown
// as the env lookups they are written as, never resolved.
import { UsageError } from '../core/errors.js';
import { ansibleJsonText, hostVarsJson, inventoryJson } from '../inventory/export.js';
import { selectHosts } from '../inventory/pattern.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { openInventory } from './open-inventory.js';

export interface InventoryArgs {
  inventory?: string | readonly string[];
  list?: boolean;
  host?: string;
  vault?: VaultKeyring;
}

export function inventoryCommand(args: InventoryArgs, out: NodeJS.WritableStream, err: NodeJS.WritableStream): void {
  if (!args.list === (args.host === undefined))
    throw new UsageError("inventory: pass either --list or --host NAME (see 'play inventory --help')");
  const inv = openInventory(args.inventory, err, args.vault);
  if (args.list) {
    out.write(ansibleJsonText(inventoryJson(inv)) + '\n');
    return;
  }
  // Like ansible-inventory, a pattern that names exactly one host.
  const hosts = selectHosts(inv, args.host!);
  if (hosts.length !== 1)
    throw new UsageError(
      `inventory --host ${args.host}: matches ${hosts.length} hosts (${hosts
        .slice(0, 5)
        .map((h) => h.name)
        .join(', ')}${hosts.length > 5 ? ', ...' : ''}); name one host`,
    );
  out.write(ansibleJsonText(hostVarsJson(hosts[0]!)) + '\n');
}
