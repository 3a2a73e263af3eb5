// Which inventory a command uses, and where that choice came from: -i (several -i: several sources,
// in order), else $PLAY_INVENTORY, else $ANSIBLE_INVENTORY, else the `inventory` of the ansible.cfg in
// effect (runner/ansible-config/), else the lab's when a lab is up. A source that is no path and has a
// comma is a list of hosts (`-i 'h1,h2,'`, ansible's host_list), passed on as written.
// The origin travels with the paths (run headers, `play --version`, `play config`, the event stream).
// With the lab's inventory, the lab's env file (every lab secret: the simulated Windows nodes'
// password, the VRRP password) is loaded too, without overriding the environment or .env.
// The lab is not imported: only its state directory's convention (lab-state-dir.ts), so that a copy of
// play installed without the lab still uses the inventory of a lab that is up on the machine.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import { InputError, UsageError } from '../core/errors.js';
import { isHostList } from '../inventory/sources.js';
import { loadAnsibleConfig } from '../ansible-config/load.js';
import type { AnsibleConfig } from '../ansible-config/settings.js';
import { labStateDir, labStateFiles } from './lab-state-dir.js';

/** Where the inventory in use was named. */
export type InventoryOrigin =
  | { readonly kind: '-i' }
  | { readonly kind: 'PLAY_INVENTORY' }
  | { readonly kind: 'ANSIBLE_INVENTORY' }
  | { readonly kind: 'ansible.cfg'; readonly file: string; readonly line: number }
  | { readonly kind: 'lab' };

/** The inventory sources a command uses (absolute paths, or a host list as written) and their origin. */
export interface InventorySource {
  readonly paths: readonly string[];
  readonly origin: InventoryOrigin;
}

/** `from -i`, `from ansible.cfg /dir/ansible.cfg`, `the lab's inventory: no -i given`. */
export function inventoryOriginText(origin: InventoryOrigin): string {
  switch (origin.kind) {
    case 'ansible.cfg':
      return `from ansible.cfg ${origin.file}`;
    case 'lab':
      return "the lab's inventory: no -i given";
    default:
      return `from ${origin.kind}`;
  }
}

/** The run header's line naming the inventory: `inventory: /abs/hosts.yaml (from -i)`. */
export function inventoryLine(source: InventorySource): string {
  return `inventory: ${source.paths.join(', ')} (${inventoryOriginText(source.origin)})\n`;
}

type Option = string | readonly string[] | undefined;

/** The sources named (not yet checked), or null when none is: then the lab's. */
function namedSources(
  option: Option,
  env: NodeJS.ProcessEnv,
  config: () => AnsibleConfig,
): { given: string[]; origin: InventoryOrigin } | null {
  const fromOption = (typeof option === 'string' ? [option] : (option ?? [])).map(String).filter((p) => p);
  if (fromOption.length) return { given: fromOption, origin: { kind: '-i' } };
  if (env.PLAY_INVENTORY) return { given: [env.PLAY_INVENTORY], origin: { kind: 'PLAY_INVENTORY' } };
  const c = config();
  const inventory = c.settings.inventory;
  if (!inventory) return null;
  if (inventory.origin === 'ANSIBLE_INVENTORY')
    return { given: [...inventory.value], origin: { kind: 'ANSIBLE_INVENTORY' } };
  const line = Number(inventory.origin.slice(inventory.origin.lastIndexOf(':') + 1));
  return { given: [...inventory.value], origin: { kind: 'ansible.cfg', file: c.file ?? '', line } };
}

/** The sources named by -i, $PLAY_INVENTORY, $ANSIBLE_INVENTORY or ansible.cfg, as written; none: []. */
export function givenInventories(option: Option, env: NodeJS.ProcessEnv = process.env): string[] {
  return namedSources(option, env, loadAnsibleConfig)?.given ?? [];
}

/**
 * The inventory a command uses and its origin; a named path that does not exist is an error naming
 * where it was named. `loadEnv`: load the lab's env file when the inventory is the lab's.
 */
export function inventorySource(
  option: Option,
  o: { env?: NodeJS.ProcessEnv; config?: () => AnsibleConfig; loadEnv?: boolean } = {},
): InventorySource {
  const env = o.env ?? process.env;
  const named = namedSources(option, env, o.config ?? (() => loadAnsibleConfig(env)));
  const loadEnv = o.loadEnv ?? true;
  if (named) {
    const paths = named.given.map((g) => {
      if (isHostList(g)) return g;
      const p = resolve(g);
      if (!existsSync(p)) {
        const why = `inventory ${p} does not exist (${inventoryOriginText(named.origin)}`;
        if (named.origin.kind !== 'ansible.cfg') throw new UsageError(`${why})`);
        throw new InputError(`${why}:${named.origin.line}: fix its [defaults] inventory, or pass -i)`);
      }
      if (loadEnv) loadLabEnv(p);
      return p;
    });
    return { paths, origin: named.origin };
  }
  const paths = labStateFiles(labStateDir());
  if (!existsSync(paths.state) || !existsSync(paths.inventory)) {
    throw new UsageError(
      'no inventory: pass -i FILE (or set PLAY_INVENTORY or ANSIBLE_INVENTORY, or inventory in ansible.cfg), or start the lab with `play lab up`',
    );
  }
  if (loadEnv) loadLabEnv(paths.inventory);
  return { paths: [paths.inventory], origin: { kind: 'lab' } };
}

export function inventoryPaths(option: Option): string[] {
  return [...inventorySource(option).paths];
}

/** When `inventory` is the lab's: its env file into process.env (variables already set win). */
function loadLabEnv(inventory: string): void {
  const paths = labStateFiles(labStateDir());
  if (inventory !== paths.inventory) return;
  for (const file of [paths.env, paths.legacyWindowsEnv]) {
    if (existsSync(file) && statSync(file).isFile()) loadDotenv({ path: file, quiet: true, override: false });
  }
}
