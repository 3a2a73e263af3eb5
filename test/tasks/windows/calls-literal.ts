// The calls a rendered program carries (runner/transport/powershell/program.ts), read back out of its
// JSON literal the way PowerShell's tokenizer reads a single-quoted string: the syntax checks compare
// that with what the step meant to send.
import { CALLS_VARIABLE } from '../../../runner/transport/powershell/program.js';

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
