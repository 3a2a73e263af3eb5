// The end of what a step's apply commands wrote: each command's stdout and stderr are appended to a
// bounded tail (the last TAIL_LINES lines and TAIL_BYTES bytes of each stream: the end is where an
// error is), masked as it comes: redact() scrubs every revealed secret, and the host's own secrets
// (vault values in its vars) are revealed first so they are scrubbed even if the step never sent them.
import { isSecret, redact, type Secret } from '../core/secret.js';
import type { ExecResult } from '../core/step.js';
import type { StepReport } from '../report/model.js';

export const TAIL_LINES = 20;
export const TAIL_BYTES = 4096;

export type StepOutput = NonNullable<StepReport['output']>;

/** The last `maxLines` lines and `maxBytes` bytes of `text` (cut on a character boundary), and whether it was cut. */
export function tailOf(
  text: string,
  maxLines = TAIL_LINES,
  maxBytes = TAIL_BYTES,
): { text: string; truncated: boolean } {
  let out = text;
  let truncated = false;
  const body = out.endsWith('\n') ? out.slice(0, -1) : out;
  const lines = body.split('\n');
  if (lines.length > maxLines) {
    out = lines.slice(-maxLines).join('\n') + (out.endsWith('\n') ? '\n' : '');
    truncated = true;
  }
  const bytes = Buffer.from(out, 'utf8');
  if (bytes.length > maxBytes) {
    // Drop a partial UTF-8 sequence at the cut: continuation bytes are 10xxxxxx.
    let start = bytes.length - maxBytes;
    while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
    out = bytes.subarray(start).toString('utf8');
    truncated = true;
  }
  return { text: out, truncated };
}

/** Every Secret in a host's variables (nested in lists and objects too). */
export function secretsIn(value: unknown, found: Secret[] = []): Secret[] {
  if (isSecret(value)) found.push(value);
  else if (Array.isArray(value)) for (const v of value) secretsIn(v, found);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) secretsIn(v, found);
  return found;
}

/** Collects the commands' output of one step, masked and bounded as it goes (a chatty step never holds more
 *  than a tail, and a secret is masked before a cut could leave part of it). */
export class OutputTail {
  #stdout = '';
  #stderr = '';
  #truncated = false;
  #commands = 0;

  /** `secrets`: the host's own, revealed now so that redact() knows them from here on. */
  constructor(secrets: readonly Secret[] = []) {
    for (const s of secrets) s.reveal();
  }

  add(result: Pick<ExecResult, 'stdout' | 'stderr'>): void {
    this.#commands++;
    const out = tailOf(this.#stdout + redact(result.stdout));
    const err = tailOf(this.#stderr + redact(result.stderr));
    this.#stdout = out.text;
    this.#stderr = err.text;
    this.#truncated ||= out.truncated || err.truncated;
  }

  /** The tail, or undefined when no command ran or none wrote anything (a report without noise). */
  snapshot(): StepOutput | undefined {
    if (this.#commands === 0 || (this.#stdout === '' && this.#stderr === '' && !this.#truncated)) return undefined;
    return { stdout: redact(this.#stdout), stderr: redact(this.#stderr), truncated: this.#truncated };
  }
}
