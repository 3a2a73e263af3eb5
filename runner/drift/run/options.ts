// What a drift run is asked to do (`play drift [PLAYBOOK...]`, read by runner/cli), and how it opens
// the inventory: through the command line's opener, called anew for every run, so that a schedule
// sees the inventory as it is at each tick.
import type { Writable } from 'node:stream';
import type { Inventory } from '../../inventory/model.js';
import type { RunOutputs } from '../../report/run-output.js';
import type { KeptConnections } from '../../transport/kept-pool.js';

/** An inventory as a run opened it. */
export interface OpenedInventory {
  readonly inventory: Inventory;
  /** The run's header line naming it and why that one (`inventory: PATH (from -i)`). */
  readonly line: string;
  /** Its sources: absolute paths, or a host list as written. */
  readonly paths: readonly string[];
  /** Named by nothing: the lab's, used because a lab is up. */
  readonly isLab: boolean;
}

/** The command line's inventory (-i, $PLAY_INVENTORY, ansible.cfg, the lab's). */
export interface InventoryOpener {
  /** Loaded, its warnings written to `err`. */
  open(err: Writable): OpenedInventory;
  /** Its sources' paths, not loaded; throws when a named one is missing. */
  paths(): string[];
}

export interface DriftRunOptions {
  playbooks: string[];
  /** -i as given, once or several times (recorded with the run as given). */
  inventory?: string | readonly string[];
  inventories: InventoryOpener;
  limit?: string;
  forks: number;
  timeout: number;
  state?: string;
  /** `90d` (days) or a number of runs. */
  keep?: string;
  json: boolean;
  /** A waivers file; default waivers.yml beside the inventory (absent: no waivers). */
  waivers?: string;
  /** A URL to post a JSON message to when a run has new or resolved items. */
  notify?: string;
  /** Report files to write (each atomically: temp file, then rename). */
  junit?: string;
  html?: string;
  markdown?: string;
  metrics?: string;
  acceptNew: boolean;
  knownHosts?: string;
  /** A schedule's connections, kept between its runs (kept-pool.ts); absent: this run opens and closes its own. */
  kept?: KeptConnections;
  /** -v count (0-3), --events FILE|-, --log FILE: what the check runs show and keep, as a playbook run's. */
  verbosity?: number;
  events?: string;
  log?: string;
  /** A schedule's outputs, opened once so that --events and --log get every tick's runs; absent: this run's own. */
  outputs?: RunOutputs;
}
