// An apply script and the re-probe after it in one round trip (pure: the script and the split of its
// output). The apply runs as it would alone, in its own `/bin/sh -c` (its `set -e`, traps, `exit` and
// `exec` stay its own) reading the command's stdin; then a frame with its exit status on stdout and a
// mark on stderr; then the probes' batch (probe-batch.ts), each reading /dev/null. The frames carry a
// per-run random nonce, so no output of the apply can forge one.
import { quoteSh, Script } from '../core/quote.js';
import type { ExecResult } from '../core/step.js';
import { batchScript, splitBatch } from './probe-batch.js';

const applyEnd = (nonce: string) => `\n@@${nonce}@@apply@@end `;
const stderrMark = (nonce: string) => `\n@@${nonce}@@apply@@stderr\n`;

export function applyThenProbeScript(apply: Script, probes: readonly Script[], nonce: string): Script {
  if (apply.shell !== 'sh') throw new TypeError('only a sh apply can carry its probe');
  return new Script(
    'sh',
    [
      `/bin/sh -c ${quoteSh(apply.text)}`,
      'play_apply=$?',
      `printf '${applyEnd(nonce).replace('\n', '\\n')}%s\\n' "$play_apply"`,
      `printf '${stderrMark(nonce).replace(/\n/g, '\\n')}' >&2`,
      batchScript(probes, nonce).text,
    ].join('\n'),
  );
}

export interface SplitApply {
  /** What the apply alone printed, and its exit status. */
  apply: ExecResult;
  /** One result per probe, or why the probes' output cannot be read. */
  probes: ExecResult[] | Error;
}

/** The apply's result and the probes' results; null when the apply's frame is missing (it was cut short). */
export function splitApplyThenProbe(out: ExecResult, nonce: string, count: number): SplitApply | null {
  const end = out.stdout.indexOf(applyEnd(nonce));
  if (end < 0) return null;
  const codeFrom = end + applyEnd(nonce).length;
  const codeEnd = out.stdout.indexOf('\n', codeFrom);
  if (codeEnd < 0) return null;
  const code = Number(out.stdout.slice(codeFrom, codeEnd));
  const mark = out.stderr.indexOf(stderrMark(nonce));
  const applyStderr = mark < 0 ? out.stderr : out.stderr.slice(0, mark);
  const probeStderr = mark < 0 ? '' : out.stderr.slice(mark + stderrMark(nonce).length);
  const rest: ExecResult = { stdout: out.stdout.slice(codeEnd + 1), stderr: probeStderr, code: out.code };
  let probes: ExecResult[] | Error;
  try {
    probes = splitBatch(rest, nonce, count);
  } catch (e) {
    probes = e as Error;
  }
  return { apply: { stdout: out.stdout.slice(0, end), stderr: applyStderr, code }, probes };
}
