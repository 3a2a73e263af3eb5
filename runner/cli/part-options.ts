// The options of `play PLAYBOOK` that run a part of the playbook, as ansible-playbook's: --tags,
// --skip-tags, --start-at-task, --step, and the --list-* looks that run nothing. One table, so
// run-cli.ts adds them with one line and hands them on as PartArgs.
import type { Options } from 'yargs';
import { UsageError } from '../core/errors.js';
import type { TaskSelection } from '../playbook/select-tasks.js';
import { tagList } from '../playbook/select-tasks.js';

export const PART_OPTIONS = {
  tags: {
    alias: 't',
    type: 'string',
    array: true,
    describe: 'run only the tasks with these tags (comma lists, repeatable; all, tagged, untagged, never)',
  },
  'skip-tags': {
    type: 'string',
    array: true,
    describe: 'leave out the tasks with these tags (beats --tags and always)',
  },
  'start-at-task': { type: 'string', describe: 'leave out the tasks before this one in run order (play graph)' },
  step: { type: 'boolean', default: false, describe: 'ask before each task: (N)o/(y)es/(c)ontinue (a terminal)' },
  'list-tags': { type: 'boolean', default: false, describe: "print the playbook's tags with their tasks, run nothing" },
  'list-tasks': { type: 'boolean', default: false, describe: 'print the tasks a run would perform, run nothing' },
  'list-hosts': { type: 'boolean', default: false, describe: 'print the hosts a run would target, run nothing' },
} as const satisfies Record<string, Options>;

export const PART_GROUP = 'Running a part of the playbook:';

export type ListKind = 'hosts' | 'tasks' | 'tags';

export interface PartArgs {
  select: TaskSelection;
  /** --list-hosts, --list-tasks, --list-tags: print these and run nothing. */
  list: ListKind[];
  step: boolean;
}

interface PartFlags {
  tags?: (string | number)[];
  skipTags?: (string | number)[];
  startAtTask?: string;
  step?: boolean;
  listTags?: boolean;
  listTasks?: boolean;
  listHosts?: boolean;
}

export function partArgsOf(a: PartFlags): PartArgs {
  const list: ListKind[] = [];
  if (a.listHosts) list.push('hosts');
  if (a.listTasks) list.push('tasks');
  if (a.listTags) list.push('tags');
  const select: TaskSelection = {
    tags: tagList(a.tags?.map(String)),
    skipTags: tagList(a.skipTags?.map(String)),
    ...(a.startAtTask === undefined ? {} : { startAt: a.startAtTask }),
  };
  return { select, list, step: a.step === true };
}

/** A rolling run cycles each node through all of its tasks (drain, apply, Ready): a part is refused. */
export function refuseInRollingRun(p: PartArgs, playbook: string): UsageError | null {
  const flag = p.select.tags.length
    ? '--tags'
    : p.select.skipTags.length
      ? '--skip-tags'
      : p.select.startAt !== undefined
        ? '--start-at-task'
        : p.step
          ? '--step'
          : null;
  if (flag === null) return null;
  return new UsageError(
    `${flag}: ${playbook} is a rolling run, which takes each node through all of its tasks (cordon, drain, apply, Ready): run it without ${flag}`,
  );
}
