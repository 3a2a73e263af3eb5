// The options a rolling run works with: the command line's, or for --resume the run's own, as its
// journal recorded them (a resume that names other options, or runs other files, is refused).
import { InputError, UsageError } from '../../core/errors.js';
import type { Playbook } from '../../playbook/define.js';
import type { RolloutRecord, StateStore } from '../../state/store.js';
import { inventorySources } from '../inventory-key.js';
import type { RollingPolicy } from '../model.js';
import { type RollingOverrides, rollingPolicy } from '../policy.js';
import { RollingOptionError } from '../serial.js';
import { changedSources, type SourceHashes, sourceHashes } from '../source-hash.js';
import { stagingRunName } from '../stage-run.js';
import type { RollingRunOptions } from './options.js';

export interface Effective {
  readonly limit?: string;
  readonly extraVars: readonly string[];
  readonly policy: RollingPolicy;
  readonly resume: RolloutRecord | null;
  /** A staging run (--stage, or the staging run being resumed). */
  readonly stage: boolean;
}

/** What a run recorded in its journal to be resumed with (apply.ts). */
interface Recorded {
  limit?: string | null;
  extraVars?: string[];
  policy?: RollingPolicy;
  sources?: SourceHashes;
  stage?: boolean;
}

/** Playbook problems are the playbook's (65); flag problems the command line's (64). */
function policyFor(playbook: Playbook, file: string, overrides: RollingOverrides): RollingPolicy {
  try {
    return rollingPolicy(playbook.rolling ?? {}, overrides, file);
  } catch (e) {
    if (!(e instanceof RollingOptionError)) throw e;
    throw String(e.field).startsWith('--') ? new UsageError(e.message) : new InputError(e.message);
  }
}

export async function effective(
  args: RollingRunOptions,
  refused: readonly string[],
  playbook: Playbook,
  file: string,
  store: StateStore | null,
  key: string,
): Promise<Effective> {
  const policy = policyFor(playbook, file, args.overrides);
  const stage = args.stage === true;
  if (!args.resume || !store) return { limit: args.limit, extraVars: args.extraVars, policy, resume: null, stage };
  const name = stage ? stagingRunName(playbook.name) : playbook.name;
  const found =
    args.resumeRun === undefined
      ? await store.rollouts.latestUnfinished(key, name)
      : await store.rollouts.get(args.resumeRun);
  if (!found)
    throw new UsageError(
      `--resume: no unfinished ${name} run on this inventory in ${store.location} (play rollouts list shows the runs)`,
    );
  if (refused.length)
    throw new UsageError(
      `--resume continues run ${found.id} with the options it started with; drop ${refused.join(', ')}`,
    );
  const a = found.args as Recorded;
  if (a.sources && !args.allowChanged) {
    const changed = changedSources(a.sources, sourceHashes(file, inventorySources(key)));
    if (changed.length)
      throw new UsageError(
        `run ${found.id} started with other files: ${changed.join(' and ')} here differ from what it was started with ` +
          `(another checkout, or edited since); resume with these files anyway with --allow-changed`,
      );
  }
  const resumed = { limit: a.limit ?? undefined, extraVars: a.extraVars ?? [], policy: a.policy ?? policy };
  return { ...resumed, resume: found, stage: a.stage === true };
}
