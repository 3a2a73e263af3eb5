// Which inventory a rolling run works on: its sources as given, resolved, so two spellings of one path
// are one inventory. The key names the run's lease and lets `play resume` find the inventory again.
import { resolve } from 'node:path';
import type { Inventory } from '../inventory/model.js';

export function inventoryKey(inventory: Inventory): string {
  return (inventory.sources ?? [inventory.file]).map((s) => resolve(s)).join('\n');
}

/** The inventory's sources from its key. */
export const inventorySources = (key: string): string[] => key.split('\n');
