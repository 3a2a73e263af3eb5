// Loads the inventory a command uses and shows its warnings (things Ansible accepts silently
// that are probably mistakes) on stderr.
import { resolve } from 'node:path';
import { checkInventoryPath, loadInventory } from '../inventory/load.js';
import type { Inventory } from '../inventory/model.js';
import { SshConfig } from '../ssh-config/config.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { givenInventories, inventoryPaths } from './inventory-path.js';

/**
 * `option`: -i as yargs gives it, one string or, when -i is repeated, several. `vault`: the passwords
 * the command was given (openVault), for vault-encrypted files and values.
 */
export function openInventory(
  option: string | readonly string[] | undefined,
  err: NodeJS.WritableStream,
  vault?: VaultKeyring,
): Inventory {
  // Before inventoryPaths(), which would call a link loop or a dangling link a missing file.
  for (const given of givenInventories(option)) checkInventoryPath(resolve(given));
  // The user's ssh_config too, as ssh reads it when Ansible runs it (os.homedir(): $HOME).
  const inventory = loadInventory(inventoryPaths(option), { vault, sshConfig: new SshConfig() });
  for (const w of inventory.warnings ?? []) err.write(`play: warning: ${w}\n`);
  return inventory;
}
