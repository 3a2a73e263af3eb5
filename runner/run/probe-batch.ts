// Several probes of one host in one round trip: each probe's output is framed by markers that
// carry a per-batch random nonce (so no file content can forge one) and its exit status.
import { PsCall } from '../core/ps-call.js';
import { Script, type UsedPaths } from '../core/quote.js';
import { sharedStatScript } from '../core/shared-stat.js';
import type { ExecResult } from '../core/step.js';

/**
 * How a host's probes share round trips, by the indices of `scripts`: every sh probe in one sh
 * batch, every PowerShell call (PsCall) in one PowerShell program, and any other PowerShell
 * script (a user's own text) alone, since only calls can be dispatched inside one program.
 */
export type ProbeGroup =
  | { readonly kind: 'sh-batch'; readonly indices: readonly number[] }
  | { readonly kind: 'ps-calls'; readonly indices: readonly number[] }
  | { readonly kind: 'alone'; readonly indices: readonly [number] };

export function groupProbes(scripts: readonly Script[]): ProbeGroup[] {
  const sh: number[] = [];
  const calls: number[] = [];
  const alone: ProbeGroup[] = [];
  scripts.forEach((s, i) => {
    if (s instanceof PsCall) calls.push(i);
    else if (s.shell === 'sh') sh.push(i);
    else alone.push({ kind: 'alone', indices: [i] });
  });
  return [
    ...(sh.length ? [{ kind: 'sh-batch', indices: sh } as const] : []),
    ...(calls.length ? [{ kind: 'ps-calls', indices: calls } as const] : []),
    ...alone,
  ];
}

/** The paths the probes stat (shared-stat.ts; with names or not) or read (content-read.ts), each once, in order. */
function pathsOf(probes: readonly Script[], which: UsedPaths): string[] {
  return [...new Set(probes.flatMap((p) => p[which]))];
}

/** The paths whose content the probes read (content-read.ts), each once. */
export function readPathsOf(probes: readonly Script[]): string[] {
  return pathsOf(probes, 'readPaths');
}

/** What the probes expect files they read to hold (ShellProbe.expect); the first probe naming a path wins. */
export function expectedReads(
  probes: readonly { readonly expect?: ReadonlyMap<string, string> }[],
): Map<string, string> {
  const expected = new Map<string, string>();
  for (const p of probes)
    for (const [path, content] of p.expect ?? []) if (!expected.has(path)) expected.set(path, content);
  return expected;
}

/**
 * One POSIX sh script running each probe in a subshell, so an `exit` in one cannot end the batch
 * (play's own probes, which never exit, in the batch's shell: quote.ts sharesShell);
 * first, one `stat` for the paths the probes read (shared-stat.ts), and a read cache's prelude when
 * the connection keeps one (read-cache.ts).
 */
export function batchScript(probes: readonly Script[], nonce: string, readPrelude?: string): Script {
  const prelude = sharedStatScript(pathsOf(probes, 'statPaths'), pathsOf(probes, 'namedStatPaths'));
  const parts = probes.map((p, i) => {
    if (p.shell !== 'sh') throw new TypeError('only sh probes can be batched in a sh batch');
    const [open, close] = p.sharesShell ? ['{', '}'] : ['(', ')'];
    return `printf '%s\\n' '@@${nonce}@@${i}@@begin'\n${open} ${p.text}\n${close} </dev/null\nprintf '\\n@@${nonce}@@${i}@@end %s\\n' "$?"`;
  });
  return new Script(
    'sh',
    [...(prelude ? [prelude.text] : []), ...(readPrelude ? [readPrelude] : []), ...parts].join('\n'),
  );
}

/** Splits a batch's stdout back into one ExecResult per probe; a missing frame is an error. */
export function splitBatch(out: ExecResult, nonce: string, count: number): ExecResult[] {
  const results: ExecResult[] = [];
  let from = 0;
  for (let i = 0; i < count; i++) {
    const begin = `@@${nonce}@@${i}@@begin\n`;
    const b = out.stdout.indexOf(begin, from);
    const endMark = `\n@@${nonce}@@${i}@@end `;
    const e = b < 0 ? -1 : out.stdout.indexOf(endMark, b + begin.length);
    if (b < 0 || e < 0) {
      const why = out.code === 0 ? 'output was cut short' : `the batch exited ${out.code ?? 'by a signal'}`;
      throw new Error(
        `probe ${i + 1} of ${count} returned no result (${why})${out.stderr ? `: ${out.stderr.trim().slice(0, 500)}` : ''}`,
      );
    }
    const codeEnd = out.stdout.indexOf('\n', e + endMark.length);
    const code = Number(out.stdout.slice(e + endMark.length, codeEnd < 0 ? undefined : codeEnd));
    results.push({ stdout: out.stdout.slice(b + begin.length, e), stderr: out.stderr, code });
    from = codeEnd < 0 ? out.stdout.length : codeEnd;
  }
  return results;
}
