// What `--on-failure rollback` needs of the run (rollback-node.ts uses it; the CLI builds it): its
// own module, so the node cycle's types and the rollback's code need not import each other.
import type { InstalledUpdate, OnFailure } from './rollback.js';

export interface RollbackOps {
  readonly onFailure: OnFailure;
  /** The updates the host's apply recorded in this run (null: none recorded). */
  installed(host: string): readonly InstalledUpdate[] | null;
  /** Removes the update's package, reboots, and returns the build the node came back with. */
  rollBack(host: string, update: InstalledUpdate & { packageName: string }): Promise<{ build: string }>;
  /** Records the KB as quarantined in the store. */
  quarantine(host: string, update: InstalledUpdate, reason: string): Promise<void>;
}
