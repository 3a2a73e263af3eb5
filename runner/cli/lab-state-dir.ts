// The lab's state directory, as play needs to know it without the lab: when no inventory is named, a
// command uses the inventory of a lab that is up (and its env file of secrets). Only the convention
// lives here (PLAY_LAB_DIR, else /var/lib/play-lab, and four file names in it). play owns it, not the
// lab: an installed copy of play, which does not ship the lab, must still find a lab a checkout brought
// up on the machine, and runner/ never imports the lab. The lab, built on play's public API only, keeps
// its own copy of these names (lab/paths.ts) rather than have play publish them; the two are compared
// by test/package/lab-boundary.test.ts.
import { join, resolve } from 'node:path';

export const DEFAULT_LAB_DIR = '/var/lib/play-lab';

/** The files of a lab's state directory that play reads. */
export interface LabStateFiles {
  readonly dir: string;
  /** `state.json`: written by `play lab up`; its presence says a lab was made here. */
  readonly state: string;
  readonly inventory: string;
  /** `lab.env` (0600): the secrets the lab's inventory reads from the environment. */
  readonly env: string;
  /** `windows.env`, where labs made before lab.env kept the Windows password. */
  readonly legacyWindowsEnv: string;
}

/** $PLAY_LAB_DIR, else /var/lib/play-lab, as an absolute path (lab/paths.ts validates it further). */
export function labStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.PLAY_LAB_DIR ?? DEFAULT_LAB_DIR);
}

export function labStateFiles(dir: string): LabStateFiles {
  return {
    dir,
    state: join(dir, 'state.json'),
    inventory: join(dir, 'inventory.yaml'),
    env: join(dir, 'lab.env'),
    legacyWindowsEnv: join(dir, 'windows.env'),
  };
}
