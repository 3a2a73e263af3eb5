// Which tasks of a playbook a run performs: --tags, --skip-tags and --start-at-task, as
// ansible-playbook selects them (Ansible's Taggable.evaluate_tags). Pure: the CLI checks the words
// here and the compiler marks the tasks left out; they stay in the graph (ordering, the report).
import { InputError, UsageError } from '../core/errors.js';
import { closeNames } from '../inventory/suggest.js';
import type { Playbook } from './define.js';

/** Words with a meaning of their own: never a task's own tag, except always and never. */
export const SPECIAL_TAGS: readonly string[] = ['all', 'always', 'never', 'tagged', 'untagged'];
/** Only these two may be written on a task; the others are for the command line. */
const TASK_SPECIAL = new Set(['always', 'never']);
const TAG_WORD = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** What an untagged task is matched as (Ansible's Taggable.untagged). */
const UNTAGGED: ReadonlySet<string> = new Set(['untagged']);

export interface TaskSelection {
  /** --tags, split at commas; empty: every task not tagged `never`. */
  tags: readonly string[];
  /** --skip-tags, split at commas. */
  skipTags: readonly string[];
  /** --start-at-task: the tasks before it in run order are left out. */
  startAt?: string;
}

/** --tags a,b --tags c -> [a, b, c]: Ansible's comma lists, repeatable; blanks dropped. */
export function tagList(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => String(v).split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '');
}

/** A task's `tags`, checked: a list of words (letters, digits, `-`, `_`, `.`). */
export function checkTaskTags(playbook: string, task: string, tags: unknown): void {
  if (tags === undefined) return;
  const where = `playbook ${playbook}: task '${task}': tags`;
  if (!Array.isArray(tags)) throw new InputError(`${where} must be a list of words, e.g. tags: ['docker']`);
  for (const t of tags) {
    if (typeof t !== 'string' || !TAG_WORD.test(t))
      throw new InputError(
        `${where}: ${JSON.stringify(t)} is not a word (letters, digits, - _ . ; no spaces or commas)`,
      );
    if (SPECIAL_TAGS.includes(t) && !TASK_SPECIAL.has(t))
      throw new InputError(`${where}: '${t}' is a word of --tags, not a task's tag (a task may have always or never)`);
  }
}

/** Ansible's rule: does a task with these tags run under --tags `only` and --skip-tags `skip`? */
export function runsWithTags(taskTags: readonly string[], only: readonly string[], skip: readonly string[]): boolean {
  return selectedByTags(taskTags, only) && !skippedByTags(taskTags, skip);
}

function selectedByTags(taskTags: readonly string[], only: readonly string[]): boolean {
  const tags = taskTags.length > 0 ? new Set(taskTags) : UNTAGGED;
  const wanted = only.length > 0 ? new Set(only) : new Set(['all']);
  if (tags.has('always')) return true;
  if (wanted.has('all') && !tags.has('never')) return true;
  if ([...tags].some((t) => wanted.has(t))) return true;
  return wanted.has('tagged') && tags !== UNTAGGED && !tags.has('never');
}

function skippedByTags(taskTags: readonly string[], skip: readonly string[]): boolean {
  if (skip.length === 0) return false;
  const tags = taskTags.length > 0 ? new Set(taskTags) : UNTAGGED;
  const skipped = new Set(skip);
  // --skip-tags all spares `always` tasks unless always is skipped by name too.
  if (skipped.has('all')) return !tags.has('always') || skipped.has('always');
  if ([...tags].some((t) => skipped.has(t))) return true;
  return skipped.has('tagged') && tags !== UNTAGGED;
}

/** The playbook's own tags, sorted (the special words a task may carry included). */
export function playbookTags(pb: Playbook): string[] {
  return [...new Set(Object.values(pb.tasks).flatMap((t) => t.tags ?? []))].sort();
}

/** An unknown word in --tags or --skip-tags is a usage error naming the playbook's tags. */
export function checkTagWords(pb: Playbook, flag: '--tags' | '--skip-tags', words: readonly string[]): void {
  const known = playbookTags(pb);
  for (const w of words) {
    if (known.includes(w) || SPECIAL_TAGS.includes(w)) continue;
    const close = closeNames(w, known, 3);
    const hint = close.length ? `did you mean ${close.join(', ')}? ` : '';
    const list = known.length ? known.join(', ') : 'none';
    throw new UsageError(
      `${flag} ${w}: no task of ${pb.name} has this tag; ${hint}its tags: ${list} (and ${SPECIAL_TAGS.join(', ')}; \`play ${pb.name} --list-tags\`)`,
    );
  }
}

/** --start-at-task's task must be one of the playbook's ids. */
export function checkStartAt(pb: Playbook, order: readonly string[], name: string): void {
  if (order.includes(name)) return;
  const close = closeNames(name, order, 3);
  const hint = close.length ? `did you mean ${close.join(', ')}? ` : '';
  throw new UsageError(
    `--start-at-task ${name}: ${pb.name} has no such task; ${hint}its tasks in run order: \`play ${pb.name} --list-tasks\``,
  );
}

/**
 * The tasks a run leaves out, each with why (`left out by --tags`), for tasks in run `order`. The
 * words are checked first: an unknown tag or task is a usage error, before anything is compiled.
 */
export function leftOutTasks(pb: Playbook, order: readonly string[], sel: TaskSelection): Map<string, string> {
  checkTagWords(pb, '--tags', sel.tags);
  checkTagWords(pb, '--skip-tags', sel.skipTags);
  if (sel.startAt !== undefined) checkStartAt(pb, order, sel.startAt);
  const start = sel.startAt === undefined ? 0 : order.indexOf(sel.startAt);
  const out = new Map<string, string>();
  order.forEach((task, i) => {
    const tags = pb.tasks[task]!.tags ?? [];
    if (i < start) out.set(task, 'left out by --start-at-task');
    else if (!selectedByTags(tags, sel.tags))
      out.set(
        task,
        sel.tags.length ? 'left out by --tags' : 'left out: tagged never (it runs only with --tags naming it)',
      );
    else if (skippedByTags(tags, sel.skipTags)) out.set(task, 'left out by --skip-tags');
  });
  return out;
}
