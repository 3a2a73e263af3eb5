// The inventory of `play drift` as the command line names it (-i, $PLAY_INVENTORY, ansible.cfg, the
// lab's), with the vault passwords and connection flags read once: opened for each run of a schedule
// (runner/drift/run/), so that every tick sees the inventory as it is then. A tick whose inputs (every
// file and directory the load read: inventory-inputs.ts) show no change since the last load reuses
// it: at 1,000 hosts a load was about a sixth of a kept tick's CPU on the controller.
import type { InventoryOpener, OpenedInventory } from '../drift/run/options.js';
import { type InputRoot, type InputSnapshot, nowNs, snapshotInputs, unchangedSince } from '../core/input-snapshot.js';
import type { ConnectionSettings } from '../inventory/connection-defaults.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { inventoryInputs } from './inventory-inputs.js';
import { inventoryLine, inventoryPaths } from './inventory-path.js';
import { openInventorySource } from './open-inventory.js';

interface Loaded {
  readonly opened: OpenedInventory;
  readonly inputs: readonly InputRoot[];
  readonly snapshot: InputSnapshot;
  /** When the load began: inputs that changed after it are not vouched for by the snapshot. */
  readonly readAtNs: bigint;
}

/** `clock`: the time a load begins, in ns (a test's may run ahead of the files it just wrote). */
export function driftInventory(
  option: string | readonly string[] | undefined,
  vault?: VaultKeyring,
  connection?: ConnectionSettings,
  clock: () => bigint = nowNs,
): InventoryOpener {
  let last: Loaded | null = null;
  return {
    open: (err) => {
      // An incomplete snapshot never vouches: not even walked again.
      if (last?.snapshot.complete && unchangedSince(last.snapshot, snapshotInputs(last.inputs), last.readAtNs)) {
        for (const w of last.opened.inventory.warnings ?? []) err.write(`play: warning: ${w}\n`);
        return last.opened;
      }
      last = null;
      const readAtNs = clock();
      const { inventory, source, sshConfig } = openInventorySource(option, err, vault, connection);
      const opened = {
        inventory,
        line: inventoryLine(source),
        paths: source.paths,
        isLab: source.origin.kind === 'lab',
      };
      // Taken after the load, which alone knows what it read; a write between the load's read and
      // this snapshot is newer than readAtNs, and unchangedSince does not trust it.
      const inputs = inventoryInputs(source.paths, sshConfig);
      last = { opened, inputs, snapshot: snapshotInputs(inputs), readAtNs };
      return opened;
    },
    paths: () => inventoryPaths(option),
  };
}
