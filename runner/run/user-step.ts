// Building a task's step from the playbook: the step itself, or the result of calling the task's step
// function. What goes wrong here is the playbook's (InputError, exit 65), never a bug in play: a
// function that returns nothing or something that is not a step, or that throws (a TypeError from an
// option of the wrong type that slipped past the types, an error of the user's own). UnknownOutput
// passes through: it only means the step needs an output that does not exist yet.
import { relative } from 'node:path';
import { InputError, PlayError } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/play-root.js';
import type { AnyStep } from '../core/step.js';
import type { TaskNode } from '../playbook/compile.js';
import { type ContextFactory, UnknownOutput } from './context.js';

/** A playbook's task that did not give a step: names the task and, where the error shows it, the file. */
export class StepBuildError extends InputError {
  constructor(
    readonly task: string,
    detail: string,
  ) {
    super(detail);
  }
}

function isStep(v: unknown): v is AnyStep {
  const s = v as Partial<AnyStep> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    typeof s.kind === 'string' &&
    typeof s.probe === 'function' &&
    typeof s.diff === 'function' &&
    typeof s.apply === 'function'
  );
}

function describe(v: unknown): string {
  if (v === undefined) return 'undefined (a missing `return`?)';
  if (v === null) return 'null';
  if (typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function')
    return 'a Promise (a step function must not be async: build the step synchronously)';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return `an object with ${Object.keys(v).slice(0, 5).join(', ') || 'no keys'}`;
  return `${typeof v} ${JSON.stringify(v)?.slice(0, 60)}`;
}

const PLAY_OWN = ['runner/', 'tasks/', 'dist/', 'node_modules/'].map((d) => `${PACKAGE_ROOT}/${d}`);

/** The first frame of `err`'s stack that is not play's own code nor Node's: the user's line. */
export function userFrame(err: unknown): string | undefined {
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  for (const m of stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):(\d+)/g)) {
    const path = m[1]!;
    if (PLAY_OWN.some((own) => path.startsWith(own)) || path.includes('/node_modules/')) continue;
    return `${relative(process.cwd(), path) || path}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

function thrown(node: TaskNode, e: unknown): Error {
  if (e instanceof UnknownOutput || e instanceof PlayError) return e;
  const err = e instanceof Error ? e : new Error(String(e));
  const where = userFrame(err);
  const first = err.message.split('\n')[0] ?? '';
  return new StepBuildError(node.task, `the step function threw ${err.name}: ${first}${where ? ` (at ${where})` : ''}`);
}

export function buildUserStep(node: TaskNode, contexts: ContextFactory): AnyStep {
  const src = node.spec.step;
  let step: unknown;
  try {
    step = typeof src === 'function' ? src(contexts.for(node)) : src;
  } catch (e) {
    throw thrown(node, e);
  }
  if (!isStep(step)) {
    throw new StepBuildError(
      node.task,
      typeof src === 'function'
        ? `the step function returned ${describe(step)}, not a step: return one, e.g. \`step: ({ host }) => file({ ... })\``
        : `'step' is ${describe(step)}, not a step (or a function returning one)`,
    );
  }
  return step;
}
