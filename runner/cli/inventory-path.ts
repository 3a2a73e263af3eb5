// Which inventory a command uses: -i (several -i: several sources, in order), else $PLAY_INVENTORY,
// else the lab's when a lab is up. A source that is no path and has a comma is a list of hosts
// (`-i 'h1,h2,'`, ansible's host_list), passed on as written.
// With the lab's inventory, the lab's env file (every lab secret: the simulated Windows nodes'
// password, the VRRP password) is loaded too, without overriding the environment or .env.
// Only lab/paths.ts is imported here: the rest of the lab (and esbuild) loads only for `play lab`.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { UsageError } from '../core/errors.js';
import { isHostList } from '../inventory/sources.js';
import { labPaths, resolveLabDir } from '../../lab/paths.js';

/** The sources named by -i (a string, or an array when -i is repeated), else by $PLAY_INVENTORY. */
export function givenInventories(option: string | readonly string[] | undefined): string[] {
  const fromOption = (typeof option === 'string' ? [option] : (option ?? [])).map(String).filter((p) => p);
  if (fromOption.length) return fromOption;
  return process.env.PLAY_INVENTORY ? [process.env.PLAY_INVENTORY] : [];
}

export function inventoryPaths(option: string | readonly string[] | undefined): string[] {
  const given = givenInventories(option);
  if (given.length) {
    const fromOption = (typeof option === 'string' ? [option] : (option ?? [])).some((p) => p);
    return given.map((g) => {
      if (isHostList(g)) return g;
      const p = resolve(g);
      if (!existsSync(p))
        throw new UsageError(`inventory ${p} does not exist (from ${fromOption ? '-i' : 'PLAY_INVENTORY'})`);
      loadLabEnv(p);
      return p;
    });
  }
  const paths = labPaths(resolveLabDir());
  if (!existsSync(paths.state) || !existsSync(paths.inventory)) {
    throw new UsageError('no inventory: pass -i FILE (or set PLAY_INVENTORY), or start the lab with `play lab up`');
  }
  loadLabEnv(paths.inventory);
  return [paths.inventory];
}

/** When `inventory` is the lab's: its env file into process.env (variables already set win). */
function loadLabEnv(inventory: string): void {
  let paths: ReturnType<typeof labPaths>;
  try {
    paths = labPaths(resolveLabDir());
  } catch {
    return; // an unusable PLAY_LAB_DIR: then this is not the lab's inventory either
  }
  if (inventory !== paths.inventory) return;
  for (const file of [paths.env, paths.legacyWindowsEnv]) {
    if (existsSync(file) && statSync(file).isFile()) loadDotenv({ path: file, quiet: true, override: false });
  }
}
