// Loads the inventory a command uses and shows its warnings (things Ansible accepts silently
// that are probably mistakes) on stderr.
import { resolve } from 'node:path';
import { checkInventoryPath, loadInventory } from '../inventory/load.js';
import type { Inventory } from '../inventory/model.js';
import { inventoryPath } from './inventory-path.js';

export function openInventory(option: string | undefined, err: NodeJS.WritableStream): Inventory {
  // Before inventoryPath(), which would call a link loop or a dangling link a missing file.
  const given = option ?? process.env.PLAY_INVENTORY;
  if (given) checkInventoryPath(resolve(given));
  const inventory = loadInventory(inventoryPath(option));
  for (const w of inventory.warnings ?? []) err.write(`play: warning: ${w}\n`);
  return inventory;
}
