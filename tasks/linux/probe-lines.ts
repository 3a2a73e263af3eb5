// Probe output is line-oriented records that our own probe scripts print (`type file`,
// `stat 644 0 0 12 root:root`, ...). Anything else means the host is not what the probe assumed
// (or the output was cut short), so parsing fails with a short excerpt instead of guessing.
import type { ExecResult } from '../../runner/core/step.js';

export class ProbeLines {
  readonly #lines: string[];
  #at = 0;

  constructor(
    readonly what: string,
    readonly result: ExecResult,
  ) {
    const out = result.stdout.endsWith('\n') ? result.stdout.slice(0, -1) : result.stdout;
    this.#lines = out === '' ? [] : out.split('\n');
  }

  fail(detail: string): never {
    const out = this.result.stdout;
    const excerpt = JSON.stringify(out.length > 160 ? `${out.slice(0, 160)}…` : out);
    const err = this.result.stderr.trim();
    const status = this.result.code === 0 ? '' : `, exit ${this.result.code ?? 'signal'}`;
    throw new Error(`${this.what}: ${detail} (output ${excerpt}${status}${err ? `, stderr: ${err.slice(-300)}` : ''})`);
  }

  get done(): boolean {
    return this.#at >= this.#lines.length;
  }

  peek(): string | undefined {
    return this.#lines[this.#at];
  }

  next(expected: string): string {
    if (this.done) this.fail(`output ended where ${expected} was expected`);
    return this.#lines[this.#at++]!;
  }

  /** The next line must be `key` or `key rest`; returns `rest` ('' for a bare key). */
  record(key: string): string {
    const line = this.next(`'${key}'`);
    if (line === key) return '';
    if (!line.startsWith(`${key} `)) this.fail(`expected '${key}', got ${JSON.stringify(line.slice(0, 80))}`);
    return line.slice(key.length + 1);
  }

  /** Like record() but the rest must match `re`; returns the match. */
  match(key: string, re: RegExp): RegExpExecArray {
    const rest = this.record(key);
    const m = re.exec(rest);
    if (!m) this.fail(`malformed '${key}' line: ${JSON.stringify(rest.slice(0, 80))}`);
    return m;
  }

  end(): void {
    if (!this.done) this.fail(`unexpected line ${JSON.stringify(this.peek()!.slice(0, 80))}`);
  }
}
