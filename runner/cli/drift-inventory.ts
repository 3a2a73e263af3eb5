// The inventory of `play drift` as the command line names it (-i, $PLAY_INVENTORY, ansible.cfg, the
// lab's), with the vault passwords and connection flags read once: opened anew for each run of a
// schedule (runner/drift/run/), so that every tick sees the inventory as it is then.
import type { InventoryOpener } from '../drift/run/options.js';
import type { ConnectionSettings } from '../inventory/connection-defaults.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { inventoryLine, inventoryPaths } from './inventory-path.js';
import { openInventorySource } from './open-inventory.js';

export function driftInventory(
  option: string | readonly string[] | undefined,
  vault?: VaultKeyring,
  connection?: ConnectionSettings,
): InventoryOpener {
  return {
    open: (err) => {
      const { inventory, source } = openInventorySource(option, err, vault, connection);
      return { inventory, line: inventoryLine(source), paths: source.paths, isLab: source.origin.kind === 'lab' };
    },
    paths: () => inventoryPaths(option),
  };
}
