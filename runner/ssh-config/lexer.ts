// An ssh_config file's text into lines of a keyword and its arguments, split as OpenSSH 9 splits them
// (readconf.c's process_config_line and misc.c's strdelim and argv_split): `Key value`, `Key=value`
// or `Key = value`, quoted arguments, backslash escapes, `#` comments. Pure: no file is read here, and
// no keyword is interpreted (keywords.ts does that).

/** One keyword line: the keyword in lower case (as ssh matches it) and as written, its arguments. */
export interface ConfigLine {
  readonly line: number;
  readonly keyword: string;
  readonly written: string;
  readonly args: readonly string[];
  /** The text after the keyword and its separator, for the keywords ssh reads whole (ProxyCommand). */
  readonly rest: string;
}

export interface LexProblem {
  readonly line: number;
  readonly detail: string;
}

const WHITESPACE = ' \t\r\n';
const isSpace = (c: string | undefined) => c !== undefined && WHITESPACE.includes(c);

/** The lines of a file with a keyword, and what ssh would refuse (an unterminated quote, a missing argument). */
export function lexConfig(text: string): { lines: ConfigLine[]; problems: LexProblem[] } {
  const lines: ConfigLine[] = [];
  const problems: LexProblem[] = [];
  text.split('\n').forEach((raw, i) => {
    const r = lexLine(raw.replace(/[ \t\r\n\f]+$/, ''), i + 1);
    if (r && 'detail' in r) problems.push(r);
    else if (r) lines.push(r);
  });
  return { lines, problems };
}

function lexLine(text: string, line: number): ConfigLine | LexProblem | undefined {
  let i = 0;
  while (isSpace(text[i])) i++;
  const start = i;
  while (i < text.length && !isSpace(text[i]) && text[i] !== '=' && text[i] !== '"') i++;
  const written = text.slice(start, i);
  if (!written || written.startsWith('#')) return undefined;
  // One `=` may separate the keyword from its value, with whitespace on either side.
  if (text[i] === '=') i++;
  else {
    while (isSpace(text[i])) i++;
    if (text[i] === '=') i++;
  }
  while (isSpace(text[i])) i++;
  const rest = text.slice(i);
  if (!rest) return { line, detail: `no argument after keyword "${written}"` };
  const args = argvSplit(rest);
  if (!args) return { line, detail: `${written}: invalid quotes` };
  return { line, keyword: written.toLowerCase(), written, args, rest };
}

/** misc.c's argv_split with comments ending the line: quotes group, `\` escapes quotes, `\` and space. */
export function argvSplit(s: string): string[] | undefined {
  const argv: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === ' ' || s[i] === '\t') {
      i++;
      continue;
    }
    if (s[i] === '#') break;
    let arg = '';
    let quote = '';
    for (; i < s.length; i++) {
      const c = s[i]!;
      const next = s[i + 1];
      if (c === '\\') {
        if (next === "'" || next === '"' || next === '\\' || (!quote && next === ' ')) arg += s[++i];
        else arg += c;
      } else if (!quote && (c === ' ' || c === '\t')) break;
      else if (!quote && (c === '"' || c === "'")) quote = c;
      else if (quote && c === quote) quote = '';
      else arg += c;
    }
    if (quote) return undefined;
    argv.push(arg);
  }
  return argv;
}

/** misc.c's strdelim over a whole string: words split at whitespace or one `=`, `"..."` kept together.
 *  Match reads its criteria this way (so `Match host=a,b` works); undefined for an unmatched quote. */
export function strdelimWords(s: string): string[] | undefined {
  const words: string[] = [];
  let i = 0;
  while (i < s.length) {
    const start = i;
    while (i < s.length && !isSpace(s[i]) && s[i] !== '"' && s[i] !== '=') i++;
    if (s[i] === '"') {
      const end = s.indexOf('"', i + 1);
      if (end < 0) return undefined;
      words.push(s.slice(start, i) + s.slice(i + 1, end));
      i = end + 1;
      while (isSpace(s[i])) i++;
      continue;
    }
    words.push(s.slice(start, i));
    const equals = s[i] === '=';
    if (i < s.length) i++;
    while (isSpace(s[i])) i++;
    if (!equals && s[i] === '=') {
      i++;
      while (isSpace(s[i])) i++;
    }
  }
  return words;
}
