// Which inventory a command uses: -i, else $PLAY_INVENTORY, else the lab's when a lab is up.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { labInventoryPath } from '../../lab/lab.js';

export function inventoryPath(option: string | undefined): string {
  const given = option ?? process.env.PLAY_INVENTORY;
  if (given) {
    const p = resolve(given);
    if (!existsSync(p)) throw new UsageError(`inventory ${p} does not exist (from ${option ? '-i' : 'PLAY_INVENTORY'})`);
    return p;
  }
  try {
    return labInventoryPath();
  } catch {
    throw new UsageError('no inventory: pass -i FILE (or set PLAY_INVENTORY), or start the lab with `play lab up`');
  }
}
