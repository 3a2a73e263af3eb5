// The names of the functions a program of play's (play/testing's powershellProgram) calls, read from
// its `$playCalls` literal. Only the hangFunction fault (faults.ts) needs them: the program itself runs
// under real PowerShell, which reads the same literal.
import { PROGRAM_CALLS_VARIABLE } from '../../../runner/testing/index.js';

const PREFIX = `${PROGRAM_CALLS_VARIABLE} = ConvertFrom-Json -InputObject '`;
const QUOTES = "'\u2018\u2019\u201a\u201b";

/** The value of a PowerShell single-quoted string whose opening quote is just before `start`. */
function singleQuoted(text: string, start: number): string | null {
  let value = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (!QUOTES.includes(c)) value += c;
    else if (QUOTES.includes(text[i + 1] ?? '')) value += text[++i];
    else return value;
  }
  return null;
}

/** Lower-cased names, in call order; empty when the text is not such a program. */
export function calledFunctions(program: string): string[] {
  const at = program.indexOf(PREFIX);
  if (at < 0) return [];
  const literal = singleQuoted(program, at + PREFIX.length);
  try {
    const parsed: unknown = JSON.parse(literal ?? '');
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.map((c) => String((c as { fn?: unknown })?.fn ?? '').toLowerCase());
  } catch {
    return [];
  }
}
