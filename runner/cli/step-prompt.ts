// --step: before each task (not each host) ask the operator, as ansible-playbook --step does:
// `Perform task: NAME (N)o/(y)es/(c)ontinue:`. No leaves the task out, yes runs it, continue runs it
// and every later task without asking. Hosts run in parallel, so questions are asked one at a time
// and each task's answer is shared by all its hosts.
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';

export type StepAnswer = 'no' | 'yes' | 'continue';

/** What a typed line means: Ansible's rule (y/yes, c/continue; anything else, Enter included, is no). */
export function stepAnswer(line: string): StepAnswer {
  const word = line.trim().toLowerCase();
  if (word === 'y' || word === 'yes') return 'yes';
  if (word === 'c' || word === 'continue') return 'continue';
  return 'no';
}

/** --step reads the terminal: a stdin that is no terminal (a pipe, a CI job, /dev/null) is refused. */
export function checkStepTerminal(stdin: { isTTY?: boolean }): void {
  if (stdin.isTTY !== true)
    throw new UsageError(
      '--step asks before each task and needs a terminal: run it interactively, without --step in scripts',
    );
}

export class StepPrompt {
  readonly #answers = new Map<string, Promise<boolean>>();
  #asking: Promise<unknown> = Promise.resolve();
  #continue = false;
  #lines: Interface | undefined;
  #closed = false;
  /** Lines typed before their question (type-ahead), and questions waiting for a line. */
  readonly #typed: string[] = [];
  readonly #waiting: ((line: string | null) => void)[] = [];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    signal?: AbortSignal,
  ) {
    // Ctrl-C at a question: no more questions, the run ends as interrupted.
    signal?.addEventListener('abort', () => this.close(), { once: true });
  }

  /** Whether to perform `task`; asked once per task, one question at a time. */
  confirm(task: string): Promise<boolean> {
    let answer = this.#answers.get(task);
    if (!answer) {
      answer = this.#asking.then(() => this.#ask(task));
      this.#asking = answer.catch(() => undefined);
      this.#answers.set(task, answer);
    }
    return answer;
  }

  close(): void {
    this.#closed = true;
    this.#lines?.close();
    for (const waiting of this.#waiting.splice(0)) waiting(null);
  }

  async #ask(task: string): Promise<boolean> {
    if (this.#continue) return true;
    this.output.write(`Perform task: ${task} (N)o/(y)es/(c)ontinue: `);
    // End of input (Ctrl-D) answers no: nothing runs that the operator did not say yes to.
    const line = await this.#readLine();
    if (line === null) this.output.write('\n');
    const answer = stepAnswer(line ?? '');
    if (answer === 'continue') this.#continue = true;
    return answer !== 'no';
  }

  #readLine(): Promise<string | null> {
    if (!this.#lines) {
      this.#lines = createInterface({ input: this.input, terminal: false });
      this.#lines.on('line', (line) => {
        const waiting = this.#waiting.shift();
        if (waiting) waiting(line);
        else this.#typed.push(line);
      });
      this.#lines.on('close', () => {
        this.#closed = true;
        for (const waiting of this.#waiting.splice(0)) waiting(null);
      });
    }
    const typed = this.#typed.shift();
    if (typed !== undefined) return Promise.resolve(typed);
    if (this.#closed) return Promise.resolve(null);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }
}
