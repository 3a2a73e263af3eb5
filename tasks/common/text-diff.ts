// A small unified diff (as `diff -u` prints it) for plans: the changed lines with 3 lines of
// context, `\ No newline at end of file` where it matters, and a cap on its length. Pure.
// Lines are compared by Myers' algorithm on what remains after trimming the common head and
// tail; past an edit distance of MAX_EDITS it settles for one hunk replacing the middle (still a
// correct diff, only not minimal), so a huge rewrite cannot cost quadratic time or memory.

export interface TextDiffOptions {
  /** Shown in the `---`/`+++` header lines. */
  readonly path?: string;
  readonly context?: number;
  /** Output lines after which the diff is cut, with a note saying how much was left out. */
  readonly maxLines?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

const MAX_EDITS = 2000;

/** Splits text into lines that keep their '\n' (so a last line without one differs from one with). */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((l) => `${l}\n`);
  const last = lines.pop()!;
  if (last !== '\n') lines.push(last.slice(0, -1));
  return lines;
}

/** Myers' O(ND) shortest edit script, or null beyond maxD edits. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Op[] | null {
  const n = a.length,
    m = b.length,
    off = n + m + 1;
  const v = new Int32Array(2 * off + 1);
  // trace[d] holds v for k in [-d-1, d+1] as it was before round d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(n + m, maxD); d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1]! < v[off + k + 1]!) ? v[off + k + 1]! : v[off + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return null;
}

function backtrack(a: readonly string[], b: readonly string[], trace: readonly Int32Array[]): Op[] {
  const ops: Op[] = [];
  let x = a.length,
    y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const saved = trace[d]!;
    const at = (k: number) => saved[k + d + 1]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK),
      prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ kind: ' ', line: a[x]! });
    }
    if (d > 0) {
      if (x === prevX) ops.push({ kind: '+', line: b[y - 1]! });
      else ops.push({ kind: '-', line: a[x - 1]! });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail),
    midB = b.slice(head, b.length - tail);
  const mid = myers(midA, midB, MAX_EDITS) ?? [
    ...midA.map((line): Op => ({ kind: '-', line })),
    ...midB.map((line): Op => ({ kind: '+', line })),
  ];
  const same = (line: string): Op => ({ kind: ' ', line });
  return [...a.slice(0, head).map(same), ...mid, ...a.slice(a.length - tail).map(same)];
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
  const ops = editScript(splitLines(before ?? ''), splitLines(after ?? ''));
  const changed = ops.flatMap((op, i) => (op.kind === ' ' ? [] : [i]));
  if (changed.length === 0 && (before === null) === (after === null)) return '';

  const out = [
    `--- ${before === null ? '/dev/null' : (opts.path ?? 'before')}`,
    `+++ ${after === null ? '/dev/null' : (opts.path ?? 'after')}`,
  ];
  // Group the changes whose gap is small enough that their contexts touch.
  let i = 0;
  while (i < changed.length) {
    let j = i;
    while (j + 1 < changed.length && changed[j + 1]! - changed[j]! <= 2 * context + 1) j++;
    const from = Math.max(0, changed[i]! - context),
      to = Math.min(ops.length, changed[j]! + context + 1);
    let aLine = 1,
      bLine = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== '+') aLine++;
      if (op.kind !== '-') bLine++;
    }
    const hunk = ops.slice(from, to);
    const aCount = hunk.filter((op) => op.kind !== '+').length,
      bCount = hunk.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${range(aLine, aCount)} +${range(bLine, bCount)} @@`);
    for (const op of hunk) {
      out.push(op.kind + (op.line.endsWith('\n') ? op.line.slice(0, -1) : op.line));
      if (!op.line.endsWith('\n')) out.push('\\ No newline at end of file');
    }
    i = j + 1;
  }
  if (out.length > maxLines) {
    const left = out.length - maxLines;
    out.length = maxLines;
    out.push(`… ${left} more diff line${left === 1 ? '' : 's'} not shown`);
  }
  return out.join('\n') + '\n';
}
