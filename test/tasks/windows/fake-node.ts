// A test double of a Windows host as the steps see it: a Remote whose run() takes the PsCall a step
// sends, renders the whole program the transport would send for it (kept in `programs`, for the
// syntax checks), reads the call's arguments back out of that program's JSON literal exactly as
// PowerShell would tokenize it, and answers from handlers keyed by function name (an in-test model).
// A handler's exception becomes the call's error (exit 1, its message on stderr), except transport
// errors (UnreachableError), which reject as the transport does.
import { UnreachableError } from '../../../runner/core/errors.js';
import { PsCall } from '../../../runner/core/ps-call.js';
import type { Script } from '../../../runner/core/quote.js';
import type { AnyStep, ExecOptions, ExecResult, Remote, Step } from '../../../runner/core/step.js';
import type { Change } from '../../../runner/core/change.js';
import { CALLS_VARIABLE, program } from '../../../runner/transport/powershell/program.js';
import type { PlayFunctionName } from '../../../tasks/windows/contract.js';

export type Handler = (args: any) => unknown;
export type Handlers = Partial<Record<PlayFunctionName, Handler>>;

const QUOTES = new Set(["'", '\u2018', '\u2019', '\u201a', '\u201b']);

/**
 * Reads a PowerShell single-quoted string starting at `from` (its opening quote) the way the
 * PowerShell tokenizer does: any of the five single-quote characters ends it, unless another one
 * follows, in which case that second one is the literal character. Returns the value and the end.
 */
export function readPsSingleQuoted(text: string, from: number): { value: string; end: number } {
  if (!QUOTES.has(text[from]!)) throw new Error(`no single-quoted string at ${from}`);
  let value = '';
  for (let i = from + 1; i < text.length; i++) {
    const c = text[i]!;
    if (!QUOTES.has(c)) {
      value += c;
      continue;
    }
    if (i + 1 < text.length && QUOTES.has(text[i + 1]!)) {
      value += text[i + 1];
      i++;
      continue;
    }
    return { value, end: i + 1 };
  }
  throw new Error('unterminated single-quoted string');
}

/** The calls a rendered program carries, as PowerShell would read its JSON literal. */
export function callsOf(text: string): { fn: string; args: any }[] {
  const marker = `${CALLS_VARIABLE} = ConvertFrom-Json -InputObject `;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error('no calls literal in the program');
  const { value, end } = readPsSingleQuoted(text, at + marker.length);
  if (text[end] !== '\n')
    throw new Error(`the calls literal ends early, before ${JSON.stringify(text.slice(end, end + 40))}`);
  return JSON.parse(value);
}

export class FakeWindows implements Remote {
  readonly name = 'node009';
  readonly calls: { fn: string; args: any }[] = [];
  readonly programs: string[] = [];

  constructor(readonly handlers: Handlers) {}

  async run(script: Script, _options?: ExecOptions): Promise<ExecResult> {
    if (!(script instanceof PsCall))
      throw new Error(`a Windows step sent a ${script.shell} script that is not a PsCall`);
    const text = program([script]);
    this.programs.push(text);
    const [call] = callsOf(text);
    this.calls.push(call!);
    const handler = this.handlers[call!.fn as PlayFunctionName];
    if (!handler) throw new Error(`the fake node has no model of ${call!.fn}`);
    try {
      return { stdout: JSON.stringify(handler(call!.args) ?? null), stderr: '', code: 0 };
    } catch (e) {
      if (e instanceof UnreachableError) throw e;
      return { stdout: '', stderr: (e as Error).message, code: 1 };
    }
  }

  /** The names of the calls made since `from`, for asserting what ran. */
  namesSince(from: number): string[] {
    return this.calls.slice(from).map((c) => c.fn);
  }
}

const READ_ONLY = /^(Get|Test)-/;

export async function plan<A>(remote: Remote, step: Step<any, A, any>): Promise<{ actual: A | null; change: Change }> {
  const probe = step.probe();
  const result = await remote.run(probe.script);
  if (result.code !== 0) throw new Error(`probe failed: ${result.stderr}`);
  const actual = probe.parse(result);
  return { actual, change: step.diff(step.desired, actual) };
}

/**
 * The runner's cycle three times: check mode reports the change and changes nothing; apply makes
 * it and the probe after it shows convergence; the next run is a noop that calls nothing but
 * probes. Returns the first change and the outputs as the runner would record them.
 */
export async function threeRuns(
  node: FakeWindows,
  step: AnyStep,
): Promise<{ first: Change; applied: Change; outputs: Record<string, unknown>; applyCalls: string[] }> {
  const start = node.calls.length;
  const first = (await plan(node, step)).change;
  if (first.action === 'noop') throw new Error('check mode found nothing to change');
  const writes = node.namesSince(start).filter((n) => !READ_ONLY.test(n));
  if (writes.length) throw new Error(`check mode called ${writes.join(', ')}`);

  const second = await plan(node, step);
  const mark = node.calls.length;
  const applied = (await step.apply(node, second.change, second.actual)) ?? {};
  const applyCalls = node.namesSince(mark);
  const after = await plan(node, step);
  if (after.change.action !== 'noop')
    throw new Error(`not converged: ${after.change.fields.join(', ')} (${JSON.stringify(after.change)})`);
  const outputs = { ...(step.outputs?.(step.desired, after.actual) ?? {}), ...applied };

  const third = node.calls.length;
  const again = await plan(node, step);
  if (again.change.action !== 'noop') throw new Error(`the third run is not a noop: ${JSON.stringify(again.change)}`);
  const more = node.namesSince(third).filter((n) => !READ_ONLY.test(n));
  if (more.length) throw new Error(`the third run called ${more.join(', ')}`);
  return { first, applied: second.change, outputs, applyCalls };
}
