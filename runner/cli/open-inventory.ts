// Loads the inventory a command uses and shows its warnings (things Ansible accepts silently
// that are probably mistakes) on stderr, with those of the ansible.cfg in effect.
import { resolve } from 'node:path';
import { connectionSettings } from '../ansible-config/connection-settings.js';
import { loadAnsibleConfig, showConfigWarnings } from '../ansible-config/load.js';
import { type ConnectionSettings, connectionDefaults } from '../inventory/connection-defaults.js';
import { checkInventoryPath, loadInventory } from '../inventory/load.js';
import type { Inventory } from '../inventory/model.js';
import { isHostList } from '../inventory/sources.js';
import { SshConfig } from '../ssh-config/config.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { givenInventories, type InventorySource, inventorySource } from './inventory-path.js';

/**
 * `option`: -i as yargs gives it, one string or, when -i is repeated, several. `vault`: the passwords
 * the command was given (openVault), for vault-encrypted files and values. `flags`: the command's
 * connection flags (-u, -b, ...), over ansible.cfg's and ANSIBLE_*'s connection defaults, both under
 * the inventory's vars. Returns the inventory, where it was named (inventory-path.ts), for the
 * run's header, and the ssh_config its hosts were looked up through.
 */
export function openInventorySource(
  option: string | readonly string[] | undefined,
  err: NodeJS.WritableStream,
  vault?: VaultKeyring,
  flags: ConnectionSettings = {},
): { inventory: Inventory; source: InventorySource; sshConfig: SshConfig } {
  const config = loadAnsibleConfig();
  showConfigWarnings(config, err);
  // Before inventorySource(), which would call a link loop or a dangling link a missing file.
  for (const given of givenInventories(option)) if (!isHostList(given)) checkInventoryPath(resolve(given));
  const source = inventorySource(option);
  // The user's ssh_config too, as ssh reads it when Ansible runs it (os.homedir(): $HOME).
  const sshConfig = new SshConfig();
  const inventory = loadInventory([...source.paths], {
    vault,
    sshConfig,
    connectionDefaults: connectionDefaults(flags, connectionSettings(config)),
  });
  for (const w of inventory.warnings ?? []) err.write(`play: warning: ${w}\n`);
  return { inventory, source, sshConfig };
}

export function openInventory(
  option: string | readonly string[] | undefined,
  err: NodeJS.WritableStream,
  vault?: VaultKeyring,
  flags?: ConnectionSettings,
): Inventory {
  return openInventorySource(option, err, vault, flags).inventory;
}
