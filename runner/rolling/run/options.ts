// What a rolling run is asked to do (`play PLAYBOOK` of a rolling playbook, --serial, --resume, --stage)
// and of what: the command line's values, read by runner/cli, and the loaded playbook and inventory.
// The command line's own syntax stays there: -e texts are parsed, and key files and --report checked,
// through the functions it hands in, so that a resumed run's recorded -e is read exactly as a new one's.
import type { Writable } from 'node:stream';
import type { Host, Inventory } from '../../inventory/model.js';
import type { Playbook } from '../../playbook/define.js';
import type { RollingOverrides } from '../policy.js';
import type { OnFailure } from '../rollback.js';

/** What only a rolling run takes, over an ordinary run's flags: the command line's RollingArgs too. */
export interface RollingControls {
  readonly overrides: RollingOverrides;
  readonly resume: boolean;
  /** Resume even when the playbook or inventory differs from what the run started with. */
  readonly allowChanged?: boolean;
  readonly state?: string;
  /** `play resume RUN`: this run, not the newest unfinished one. */
  readonly resumeRun?: number;
  /** Drain the nodes whose drain the preflight predicts to block, rather than refuse them. */
  readonly tryBlocked?: boolean;
  readonly onFailure?: OnFailure;
  /** Run the playbook's staging tasks only, on the nodes that need work, never cordoned (stage-command.ts). */
  readonly stage?: boolean;
}

export interface RollingRunOptions extends RollingControls {
  readonly check: boolean;
  readonly limit?: string;
  /** -e as given (recorded in the journal as written, so that a resume reads them again). */
  readonly extraVars: readonly string[];
  readonly forks: number;
  /** Per-step time limit, seconds. */
  readonly timeout: number;
  readonly report?: string;
  readonly json: boolean;
  readonly acceptNew: boolean;
  readonly knownHosts?: string;
  /** -v count (0-3), --events FILE|-, --log FILE: runner/report/run-output.ts. */
  readonly verbosity?: number;
  readonly events?: string;
  readonly log?: string;
}

/** The command line's readers, applied to the options the run works with (its own, or a resumed run's). */
export interface CommandLineReaders {
  /** The flags given that a resume refuses (it continues with the options the run started with). */
  readonly resumeRefuses: readonly string[];
  /** -e texts as variables (vault values and env lookups resolved). */
  extraVarsOf(texts: readonly string[]): Record<string, unknown>;
  /** What is checked before any host is touched: every private key file the run will use, --report's folder. */
  checkBeforeHosts(hosts: readonly Host[]): void;
}

/** What a rolling run is of and where it reports: the loaded playbook and inventory, the streams. */
export interface RollingTarget {
  readonly playbook: Playbook;
  readonly playbookFile: string;
  readonly inventory: Inventory;
  readonly out: Writable;
  readonly err: Writable;
  readonly signal?: AbortSignal;
}
