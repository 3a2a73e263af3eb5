// What `play PLAYBOOK` is asked to do, from its flags (run-cli.ts) or a resumed run's journal
// (resume-command.ts): an ordinary run's arguments and a rolling run's. Types only, so that the
// commands (run-command.ts, rolling-command.ts) share them without importing one another.
import type { ConnectionSettings } from '../inventory/connection-defaults.js';
import type { RollingOverrides } from '../rolling/policy.js';
import type { OnFailure } from '../rolling/rollback.js';
import type { RollingControls } from '../rolling/run/options.js';
import type { VaultKeyring } from '../vault/keyring.js';
import type { PartArgs } from './part-options.js';

export interface RunArgs {
  playbook: string;
  inventory?: string;
  limit?: string;
  check: boolean;
  diff: boolean;
  forks: number;
  timeout: number;
  report?: string;
  json: boolean;
  extraVars: string[];
  /** The vault passwords (openVault); absent: ANSIBLE_VAULT_PASSWORD_FILE's, if set (`play resume`). */
  vault?: VaultKeyring;
  /** -u, --private-key, -b, -k, -K... (connection-flags.ts): defaults under the inventory's vars. */
  connection?: ConnectionSettings;
  acceptNew: boolean;
  knownHosts?: string;
  /** Live (listr2) view: 'auto' picks it on a terminal for up to 20 hosts. */
  live: 'auto' | 'never';
  /** -v count (0-3), --events FILE|-, --log FILE: runner/report/run-output.ts. */
  verbosity?: number;
  events?: string;
  log?: string;
  /** Rolling runs (a playbook with `rolling`, or --serial): docs/rolling.md. */
  rolling?: {
    overrides: RollingOverrides;
    resume: boolean;
    allowChanged?: boolean;
    state?: string;
    resumeRun?: number;
    /** Drain a node the preflight predicts to block instead of refusing it. */
    tryBlocked?: boolean;
    /** --on-failure: a node that fails after its install is left as it is, or rolled back (rollback.ts). */
    onFailure?: OnFailure;
    /** --stage: the playbook's staging tasks only, never cordoned (runner/rolling/stage-command.ts). */
    stage?: boolean;
  };
  /** --tags, --skip-tags, --start-at-task, --step, --list-*: part-options.ts. */
  part?: PartArgs;
}

export interface RollingArgs extends RunArgs, RollingControls {}
