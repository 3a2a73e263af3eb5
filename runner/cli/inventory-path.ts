// Which inventory a command uses: -i, else $PLAY_INVENTORY, else the lab's when a lab is up.
// With the lab's inventory, the lab's windows.env (the simulated Windows nodes' password) is loaded
// too, without overriding the environment or .env.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { UsageError } from '../core/errors.js';
import { labInventoryPath } from '../../lab/lab.js';
import { labPaths, resolveLabDir } from '../../lab/paths.js';

export function inventoryPath(option: string | undefined): string {
  const given = option ?? process.env.PLAY_INVENTORY;
  if (given) {
    const p = resolve(given);
    if (!existsSync(p)) throw new UsageError(`inventory ${p} does not exist (from ${option ? '-i' : 'PLAY_INVENTORY'})`);
    loadLabEnv(p);
    return p;
  }
  let p: string;
  try {
    p = labInventoryPath();
  } catch {
    throw new UsageError('no inventory: pass -i FILE (or set PLAY_INVENTORY), or start the lab with `play lab up`');
  }
  loadLabEnv(p);
  return p;
}

/** When `inventory` is the lab's: its windows.env into process.env (variables already set win). */
function loadLabEnv(inventory: string): void {
  let paths;
  try {
    paths = labPaths(resolveLabDir());
  } catch {
    return; // an unusable PLAY_LAB_DIR: then this is not the lab's inventory either
  }
  if (inventory === paths.inventory && existsSync(paths.windowsEnv)) {
    loadDotenv({ path: paths.windowsEnv, quiet: true, override: false });
  }
}
