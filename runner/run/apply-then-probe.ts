// Applies and the re-probe after them in one round trip (pure: the script, its stdin and the split of
// its output). Each apply runs as it would alone, in a subshell of its own that `eval`s its text: its
// `set -e`, traps, `exit` and `exec` stay its own, and a syntax error fails it alone, as a `/bin/sh -c`
// of its own would, for a fork instead of a new shell program (an exec and its loading, about half a
// millisecond of the host's CPU per apply). They run one after the other whatever the earlier ones
// returned; after each, a frame with its exit status on stdout and a mark on stderr; then the probes'
// batch (probe-batch.ts), each reading /dev/null. The frames carry a per-run random nonce, so no
// output can forge one. The round trip's own script sets nothing before an apply but `play_apply`.
//
// Standard input: the command's stdin is the applies' inputs one after the other. The last apply that
// takes input reads the rest of it as it would alone; an earlier one reads exactly its own bytes
// (`head -c N` reads no further than N), and whatever it leaves unread is drained, so the next one
// starts at its own first byte. An apply without input reads /dev/null.
//
// A dependent's apply may follow its dependencies' in the same round trip (chain.ts): it is guarded.
// After the unguarded applies, one subshell probes each guarded step again (its own stat prelude)
// and compares the probe's output and status, byte for byte, with what the plan was made from; the
// apply runs only where they are the same and every apply it depends on exited 0. Otherwise its frame
// says `skip` and nothing of it ran. A guarded apply reads no input.
import { quoteSh, Script } from '../core/quote.js';
import type { ExecResult } from '../core/step.js';
import { sharedStatScript } from '../core/shared-stat.js';
import { batchScript, splitBatch } from './probe-batch.js';

const applyEnd = (nonce: string, i: number) => `\n@@${nonce}@@apply@@${i}@@end `;
const stderrMark = (nonce: string, i: number) => `\n@@${nonce}@@apply@@${i}@@stderr\n`;

/** One apply's script and the bytes of its input (null: it reads none). */
export interface ApplyInput {
  readonly script: Script;
  readonly stdin: Buffer | null;
  /** Runs only if this probe still prints `seen` and the applies `after` (indices) exited 0. */
  readonly guard?: ApplyGuard;
}

export interface ApplyGuard {
  readonly probe: Script;
  /** The probe's stdout when the plan was made, and its status. */
  readonly seen: { readonly stdout: string; readonly code: number | null };
  readonly after: readonly number[];
}

/** The guard's test on the host: the probe's stdout, a newline, its status; dash keeps no NUL byte. */
function guardTest(g: ApplyGuard, i: number): string {
  const deps = g.after.map((d) => `[ "$play_a_${d}" = 0 ] && `).join('');
  const seen = `${g.seen.stdout}\n${g.seen.code}`;
  // As in its probe batch (probe-batch.ts): in a subshell of its own unless it shares the batch's shell.
  const [open, close] = g.probe.sharesShell ? ['{', '}'] : ['(', ')'];
  return [
    `if ${deps}play_g=$( ${open} ${g.probe.text}`,
    `${close} </dev/null 2>/dev/null; printf '\n%s' "$?") && [ "$play_g" = ${quoteSh(seen)} ]; then printf ' %s' ${i}; fi`,
  ].join('\n');
}

/** The guarded applies' tests, in one subshell (its stat variables go with it): the indices that pass. */
function guardsScript(applies: readonly ApplyInput[]): string {
  const guarded = applies.flatMap((a, i) => (a.guard ? [[a.guard, i] as const] : []));
  if (guarded.length === 0) return '';
  const prelude = sharedStatScript(
    [...new Set(guarded.flatMap(([g]) => g.probe.statPaths))],
    guarded.flatMap(([g]) => g.probe.namedStatPaths),
  );
  return ['play_ok=$(', ...(prelude ? [prelude.text] : []), ...guarded.map(([g, i]) => guardTest(g, i)), ')'].join(
    '\n',
  );
}

/** How each apply reads: the last with input reads the rest; earlier ones their length; others nothing. */
function applyLine(a: ApplyInput, isLastReader: boolean): string {
  const run = `(eval ${quoteSh(a.script.text)})`;
  if (a.stdin === null) return `${run} </dev/null`;
  if (isLastReader) return run;
  return `head -c ${a.stdin.length} | { ${run}; play_apply=$?; cat >/dev/null; exit $play_apply; }`;
}

/** `readPrelude`: a read cache's part of the probes' batch (read-cache.ts), run after the applies. */
export function appliesThenProbeScript(
  applies: readonly ApplyInput[],
  probes: readonly Script[],
  nonce: string,
  readPrelude?: string,
): Script {
  if (applies.some((a) => a.script.shell !== 'sh')) throw new TypeError('only a sh apply can carry its probe');
  const firstGuarded = applies.findIndex((a) => a.guard);
  if (firstGuarded >= 0 && applies.slice(firstGuarded).some((a) => !a.guard || a.stdin !== null))
    throw new TypeError('guarded applies come last and read no input');
  const lastReader = applies.reduce((last, a, i) => (a.stdin === null ? last : i), -1);
  const lines = applies.flatMap((a, i) => [
    ...(i === firstGuarded ? [guardsScript(applies)] : []),
    a.guard
      ? `case "$play_ok " in *" ${i} "*) ${applyLine(a, false)}; play_apply=$? ;; *) play_apply=skip ;; esac`
      : `${applyLine(a, i === lastReader)}; play_apply=$?; play_a_${i}=$play_apply`,
    `printf '${applyEnd(nonce, i).replace('\n', '\\n')}%s\\n' "$play_apply"`,
    `printf '${stderrMark(nonce, i).replace(/\n/g, '\\n')}' >&2`,
  ]);
  return new Script('sh', [...lines, batchScript(probes, nonce, readPrelude).text].join('\n'));
}

/** The command's stdin for `applies`: their inputs in order (empty when none takes any). */
export function appliesStdin(applies: readonly ApplyInput[]): Buffer {
  return Buffer.concat(applies.flatMap((a) => (a.stdin ? [a.stdin] : [])));
}

/** One apply and the probes after it (its stdin, if any, is the command's whole stdin). */
export function applyThenProbeScript(
  apply: Script,
  probes: readonly Script[],
  nonce: string,
  readPrelude?: string,
): Script {
  return appliesThenProbeScript([{ script: apply, stdin: Buffer.alloc(0) }], probes, nonce, readPrelude);
}

/** A guarded apply that did not run: its step's state was no longer what its plan was made from. */
export const SKIPPED = 'skipped';

export interface SplitApplies {
  /** What each apply printed, and its exit status; null for one whose frame is missing (cut short). */
  applies: (ExecResult | typeof SKIPPED | null)[];
  /** One result per probe, or why the probes' output cannot be read. */
  probes: ExecResult[] | Error;
}

/**
 * Each apply's result and the probes' results, from the combined output of `count` applies;
 * `expand`: the read cache's expansion of the probes' output (read-cache.ts).
 */
export function splitAppliesThenProbe(
  out: ExecResult,
  nonce: string,
  count: number,
  probeCount: number,
  expand: (stdout: string) => string = (stdout) => stdout,
): SplitApplies {
  const applies: (ExecResult | typeof SKIPPED | null)[] = [];
  let out1 = 0;
  let err1 = 0;
  for (let i = 0; i < count; i++) {
    const end = out.stdout.indexOf(applyEnd(nonce, i), out1);
    const codeFrom = end + applyEnd(nonce, i).length;
    const codeEnd = end < 0 ? -1 : out.stdout.indexOf('\n', codeFrom);
    if (codeEnd < 0) {
      // Cut short here: this apply and the ones after it have no result of their own.
      while (applies.length < count) applies.push(null);
      return { applies, probes: new Error('the output was cut short before the probes ran') };
    }
    const mark = out.stderr.indexOf(stderrMark(nonce, i), err1);
    const status = out.stdout.slice(codeFrom, codeEnd);
    applies.push(
      status === 'skip'
        ? SKIPPED
        : {
            stdout: out.stdout.slice(out1, end),
            stderr: mark < 0 ? out.stderr.slice(err1) : out.stderr.slice(err1, mark),
            code: Number(status),
          },
    );
    out1 = codeEnd + 1;
    err1 = mark < 0 ? out.stderr.length : mark + stderrMark(nonce, i).length;
  }
  let probes: ExecResult[] | Error;
  try {
    const rest: ExecResult = { stdout: expand(out.stdout.slice(out1)), stderr: out.stderr.slice(err1), code: out.code };
    probes = splitBatch(rest, nonce, probeCount);
  } catch (e) {
    probes = e as Error;
  }
  return { applies, probes };
}

export interface SplitApply {
  /** What the apply alone printed, and its exit status. */
  apply: ExecResult;
  /** One result per probe, or why the probes' output cannot be read. */
  probes: ExecResult[] | Error;
}

/** The apply's result and the probes' results; null when the apply's frame is missing (it was cut short). */
export function splitApplyThenProbe(
  out: ExecResult,
  nonce: string,
  count: number,
  expand?: (stdout: string) => string,
): SplitApply | null {
  const split = splitAppliesThenProbe(out, nonce, 1, count, expand);
  const apply = split.applies[0];
  return apply && apply !== SKIPPED ? { apply, probes: split.probes } : null;
}
