// A unified diff (as `diff -u` prints it) for plans: the changed lines with 3 lines of context,
// `\ No newline at end of file` where it matters, and a cap on its length. Pure.
// The edit script is jsdiff's (Myers). Past an edit distance of MAX_EDITS it settles for one hunk
// replacing everything between the common head and tail (still a correct diff, only not minimal),
// so a huge rewrite cannot cost quadratic time or memory.
import { createRequire } from 'node:module';
import type { StructuredPatchHunk } from 'diff';

// jsdiff is required when a diff is made, not imported: a run where nothing changed renders no diff and
// need not load its modules. Synchronous (its CommonJS build), as the diffs that call this are pure.
const require = createRequire(import.meta.url);
let loaded: typeof import('diff') | undefined;
const jsdiff = (): typeof import('diff') => (loaded ??= require('diff') as typeof import('diff'));

export interface TextDiffOptions {
  /** Shown in the `---`/`+++` header lines. */
  readonly path?: string;
  readonly context?: number;
  /** Output lines after which the diff is cut, with a note saying how much was left out. */
  readonly maxLines?: number;
}

const MAX_EDITS = 2000;
const NO_NEWLINE = '\\ No newline at end of file';

/** Splits text into lines that keep their '\n' (so a last line without one differs from one with). */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((l) => `${l}\n`);
  const last = lines.pop()!;
  if (last !== '\n') lines.push(last.slice(0, -1));
  return lines;
}

/** One hunk from `a` to `b`: what lies between their common head and tail replaced whole. */
function replacingHunk(before: string, after: string, context: number): StructuredPatchHunk[] {
  const a = splitLines(before),
    b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - context);
  const show = (prefix: string, line: string) =>
    line.endsWith('\n') ? [prefix + line.slice(0, -1)] : [prefix + line, NO_NEWLINE];
  const lines = [
    ...a.slice(from, head).flatMap((l) => show(' ', l)),
    ...a.slice(head, a.length - tail).flatMap((l) => show('-', l)),
    ...b.slice(head, b.length - tail).flatMap((l) => show('+', l)),
    ...a.slice(a.length - tail, a.length - tail + context).flatMap((l) => show(' ', l)),
  ];
  const kept = Math.min(context, tail);
  return [
    {
      oldStart: from + 1,
      oldLines: a.length - tail - from + kept,
      newStart: from + 1,
      newLines: b.length - tail - from + kept,
      lines,
    },
  ];
}

function range(start: number, count: number): string {
  // diff -u numbers an empty range by the line before it, and leaves out a count of 1.
  const first = count === 0 ? start - 1 : start;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** A unified diff from `before` to `after` (null: the file does not exist); '' when equal. */
export function unifiedDiff(before: string | null, after: string | null, opts: TextDiffOptions = {}): string {
  const context = opts.context ?? 3;
  const maxLines = opts.maxLines ?? 200;
  const a = before ?? '',
    b = after ?? '';
  if (a === b && (before === null) === (after === null)) return '';
  const patch = jsdiff().structuredPatch('a', 'b', a, b, undefined, undefined, { context, maxEditLength: MAX_EDITS });
  const hunks = patch?.hunks ?? replacingHunk(a, b, context);

  const out = [
    `--- ${before === null ? '/dev/null' : (opts.path ?? 'before')}`,
    `+++ ${after === null ? '/dev/null' : (opts.path ?? 'after')}`,
  ];
  for (const h of hunks) {
    out.push(`@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`, ...h.lines);
  }
  if (out.length > maxLines) {
    const left = out.length - maxLines;
    out.length = maxLines;
    out.push(`… ${left} more diff line${left === 1 ? '' : 's'} not shown`);
  }
  return out.join('\n') + '\n';
}
