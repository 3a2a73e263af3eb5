// Where `play lab` finds the built-in lab. The lab is a test bench that lives in play's repository
// and is not part of the package (package.json `files`), so play does not import it: `play lab` looks
// for it beside the code that runs (a checkout's dist/lab/ compiled by scripts/build.mjs, or lab/
// itself when the tests run the sources) and loads it only then. An installed copy has none: one
// message says where the lab comes from (exit 64).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from '../core/errors.js';
import { CODE_ROOT, PACKAGE_ROOT, RUNNING_COMPILED } from '../core/play-root.js';

/** The host counts of `play lab up` (lab/up.ts LabUpOptions takes these). */
export interface LabUpCounts {
  linux: number;
  tor: number;
  windows: number;
  control: number;
  bastion: number | undefined;
  private: number | undefined;
}

/** What `play lab status` shows of a host (lab/status.ts LabHostStatus has more). */
export interface LabHostView {
  name: string;
  group: string;
  address: string;
  namespace: boolean;
  server: string;
  sshdPid: number | null;
  sshdAlive: boolean;
  reachable: boolean;
}

/** What `play lab` uses of the lab's entry (lab/lab.ts); test/package/lab-boundary.test.ts checks
 *  that the lab's module satisfies it, so the two are type-checked against each other. */
export interface LabModule {
  labUp(counts: LabUpCounts): Promise<{ inventoryPath: string }>;
  labDown(): Promise<void>;
  labInventoryPath(): string;
  labStatus(): Promise<{ up: boolean; dir: string; inventoryPath: string | null; hosts: LabHostView[] }>;
}

/** Where play's code runs from (runner/core/play-root.ts). */
export interface CodeLocation {
  codeRoot: string;
  packageRoot: string;
  compiled: boolean;
}

export type LabLocation = { readonly entry: string } | { readonly missing: string };

const HOW_TO_GET_IT =
  "the built-in lab is not installed with this copy of play: it comes with play's repository. " +
  'Clone the repository, run `npm ci && npm link` in it (README.md), and run `play lab` from that copy';

/** The lab's entry module for code running at `at`, or why there is none. Pure. */
export function locateLab(at: CodeLocation, exists: (path: string) => boolean = existsSync): LabLocation {
  const entry = join(at.codeRoot, 'lab', at.compiled ? 'lab.js' : 'lab.ts');
  if (exists(entry)) return { entry };
  if (at.compiled && exists(join(at.packageRoot, 'lab', 'lab.ts'))) {
    return { missing: `the lab is not built: run \`npm run build\` in ${at.packageRoot}` };
  }
  return { missing: HOW_TO_GET_IT };
}

/** The lab's module, loaded; a UsageError (64) when this copy of play has no lab. */
export async function importLab(
  at: CodeLocation = { codeRoot: CODE_ROOT, packageRoot: PACKAGE_ROOT, compiled: RUNNING_COMPILED },
): Promise<LabModule> {
  const found = locateLab(at);
  if ('missing' in found) throw new UsageError(`lab: ${found.missing}`);
  return (await import(pathToFileURL(found.entry).href)) as LabModule;
}
