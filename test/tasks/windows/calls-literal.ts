// The calls a rendered program carries (runner/transport/powershell/program.ts), read back out of its
// JSON literal the way PowerShell's tokenizer reads a single-quoted string, with each secret argument
// put back from the program's separate list of secrets: the syntax checks compare that with what the
// step meant to send.
import { CALLS_VARIABLE, SECRET_PLACEHOLDER, SECRETS_VARIABLE } from '../../../runner/transport/powershell/program.js';

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

/** The secrets' clear text, in placeholder order, from the program's `$playSecrets = @('base64', ...)`. */
export function secretsOf(text: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(`${SECRETS_VARIABLE} = @(`));
  if (line === undefined) return [];
  return [...line.matchAll(/'([A-Za-z0-9+/=]*)'/g)].map((m) => Buffer.from(m[1]!, 'base64').toString('utf8'));
}

/** The calls' JSON literal as PowerShell reads it, secrets still as placeholders. */
export function callsLiteralOf(text: string): string {
  const marker = `${CALLS_VARIABLE} = ConvertFrom-Json -InputObject `;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error('no calls literal in the program');
  const { value, end } = readPsSingleQuoted(text, at + marker.length);
  if (text[end] !== '\n')
    throw new Error(`the calls literal ends early, before ${JSON.stringify(text.slice(end, end + 40))}`);
  return value;
}

/** The calls a rendered program carries, as PowerShell would read them, secret arguments resolved. */
export function callsOf(text: string): { fn: string; args: any }[] {
  const secrets = secretsOf(text);
  const calls: { fn: string; args: Record<string, unknown> }[] = JSON.parse(callsLiteralOf(text));
  const resolve = (v: any) =>
    v && typeof v === 'object' && SECRET_PLACEHOLDER in v ? secrets[v[SECRET_PLACEHOLDER]] : v;
  return calls.map((c) => ({
    fn: c.fn,
    args: Object.fromEntries(Object.entries(c.args).map(([k, v]) => [k, resolve(v)])),
  }));
}
