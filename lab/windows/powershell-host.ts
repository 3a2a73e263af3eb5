// What powershell.exe does with a program on the simulated Windows node (a test double): it reads
// the program the transport built (runner/transport/powershell/program.ts), checks that every called
// function is defined in it (the `function NAME {` blocks, as sent) and that the dispatcher is the
// transport's, decodes the `$playCalls` single-quoted literal, runs the calls against the model in
// order, and answers as the real bootstrap does: a JSON array and exit 0, the parse-error JSON and
// exit 3, or a terminating error as CLIXML on stderr and exit 1.
import { CALLS_VARIABLE, program } from '../../runner/transport/powershell/program.js';
import { PARSE_ERROR_EXIT } from '../../runner/transport/powershell/bootstrap.js';
import { notRecognized, WindowsError } from './errors.js';
import type { SimulatedWindowsNode } from './model.js';

export interface ProgramCall {
  fn: string;
  args: unknown;
}

export type ReadProgram =
  /** definitions: by lower-cased name (PowerShell resolves names case-insensitively). */
  | { kind: 'calls'; calls: ProgramCall[]; definitions: Map<string, string> }
  | { kind: 'parse-error'; errors: string[] }
  | { kind: 'runtime-error'; message: string };

export interface ProgramOutput {
  stdout: string;
  stderr: string;
  code: number;
}

const CALLS_PREFIX = `${CALLS_VARIABLE} = ConvertFrom-Json -InputObject '`;
const QUOTES = "'\u2018\u2019\u201a\u201b";
const HEADER = /^function ([A-Za-z]+-Play[A-Za-z0-9]+) \{$/;

/** The dispatcher program.ts puts after the `$playCalls` line. */
const DISPATCHER = (() => {
  const empty = program([]);
  return empty.slice(empty.indexOf('\n', empty.indexOf(CALLS_PREFIX)) + 1);
})();

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** Reads a PowerShell single-quoted string whose opening quote is just before `start`. */
function singleQuoted(text: string, start: number): { value: string; end: number } | null {
  let value = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (!QUOTES.includes(c)) {
      value += c;
      continue;
    }
    const next = text[i + 1];
    if (next !== undefined && QUOTES.includes(next)) {
      value += next;
      i++;
      continue;
    }
    return { value, end: i + 1 };
  }
  return null;
}

function definitionsOf(head: string): Map<string, string> | string {
  const defs = new Map<string, string>();
  const lines = head.split('\n');
  let current: { name: string; lines: string[] } | null = null;
  const close = (): string | null => {
    if (!current) return null;
    const text = current.lines.join('\n').trimEnd();
    if (!text.endsWith('}')) return `the definition of ${current.name} does not end with '}'`;
    defs.set(current.name.toLowerCase(), text);
    return null;
  };
  for (const line of lines) {
    const m = HEADER.exec(line);
    if (m) {
      const problem = close();
      if (problem) return problem;
      current = { name: m[1]!, lines: [line] };
    } else if (current) {
      current.lines.push(line);
    } else if (line.trim() !== '') {
      return `text before the first function definition: ${JSON.stringify(line.slice(0, 80))}`;
    }
  }
  return close() ?? defs;
}

export function readProgram(text: string): ReadProgram {
  const program = text.replace(/\r\n/g, '\n');
  const at = program.startsWith(CALLS_PREFIX) ? 0 : program.indexOf(`\n${CALLS_PREFIX}`) + 1;
  if (at === 0 && !program.startsWith(CALLS_PREFIX)) {
    return {
      kind: 'parse-error',
      errors: [
        `line 1: SimulatedWindowsNode runs only programs of runner/transport/powershell/program.ts: no line \`${CALLS_PREFIX}...'\``,
      ],
    };
  }
  const literal = singleQuoted(program, at + CALLS_PREFIX.length);
  if (!literal)
    return { kind: 'parse-error', errors: [`line ${lineOf(program, at)}: The string is missing the terminator: '.`] };
  const lineEnd = program.indexOf('\n', literal.end);
  const trailing = program.slice(literal.end, lineEnd < 0 ? undefined : lineEnd);
  if (trailing.trim() !== '')
    return {
      kind: 'parse-error',
      errors: [
        `line ${lineOf(program, literal.end)}: SimulatedWindowsNode: unexpected text after the ${CALLS_VARIABLE} literal: ${trailing.trim().slice(0, 80)}`,
      ],
    };
  if (lineEnd < 0 || program.slice(lineEnd + 1) !== DISPATCHER) {
    return {
      kind: 'parse-error',
      errors: [
        `line ${lineOf(program, literal.end) + 1}: SimulatedWindowsNode: the dispatcher after ${CALLS_VARIABLE} is not the one runner/transport/powershell/program.ts writes`,
      ],
    };
  }
  const defs = definitionsOf(program.slice(0, at));
  if (typeof defs === 'string') return { kind: 'parse-error', errors: [`line 1: SimulatedWindowsNode: ${defs}`] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(literal.value);
  } catch {
    return {
      kind: 'runtime-error',
      message: `ConvertFrom-Json : Invalid JSON primitive: ${literal.value.slice(0, 40)}.`,
    };
  }
  // @($playCalls): one object is one call.
  const list = Array.isArray(parsed) ? parsed : [parsed];
  const calls: ProgramCall[] = [];
  for (const c of list) {
    const fn = c && typeof c === 'object' ? (c as { fn?: unknown }).fn : undefined;
    calls.push({
      fn: typeof fn === 'string' ? fn : String(fn),
      args: c && typeof c === 'object' ? ((c as { args?: unknown }).args ?? null) : null,
    });
  }
  return { kind: 'calls', calls, definitions: defs };
}

/** How PowerShell writes a terminating error to stderr over SSH. */
export function clixmlError(message: string): string {
  const escaped = `${message}\r\n`
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '_x000D_')
    .replace(/\n/g, '_x000A_');
  return `#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04"><S S="Error">${escaped}</S></Objs>`;
}

export interface RunControl {
  /** A call to this function hangs the program. */
  readonly hangFunction: string | null;
  /** True once the session's connection is gone: the rest of the program dies with it. */
  readonly gone: () => boolean;
}

export type RunOutcome = { kind: 'output'; output: ProgramOutput } | { kind: 'hang' } | { kind: 'gone' };

export function runProgram(node: SimulatedWindowsNode, text: string, control: RunControl): RunOutcome {
  const read = readProgram(text);
  if (read.kind === 'parse-error') {
    return {
      kind: 'output',
      output: { stdout: JSON.stringify({ playParseErrors: read.errors }), stderr: '', code: PARSE_ERROR_EXIT },
    };
  }
  if (read.kind === 'runtime-error')
    return { kind: 'output', output: { stdout: '', stderr: clixmlError(read.message), code: 1 } };
  const results: ({ ok: true; value: unknown } | { ok: false; error: string })[] = [];
  for (const c of read.calls) {
    if (control.hangFunction !== null && c.fn.toLowerCase() === control.hangFunction.toLowerCase())
      return { kind: 'hang' };
    try {
      if (!read.definitions.has(c.fn.toLowerCase())) throw new WindowsError(notRecognized(c.fn));
      results.push({ ok: true, value: node.call(c.fn, c.args) ?? null });
    } catch (e) {
      if (!(e instanceof WindowsError)) throw e;
      results.push({ ok: false, error: e.message });
    }
    if (control.gone()) return { kind: 'gone' };
  }
  return { kind: 'output', output: { stdout: JSON.stringify(results), stderr: '', code: 0 } };
}
