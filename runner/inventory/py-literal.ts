// The two bits of Python that ansible's INI inventory plugin leans on, so that an INI line means the
// same here: shlex.split(line, comments=True) for host lines, and ast.literal_eval for every value
// (`a=1` is the number 1, `b=[1, 2]` a list, `c=yes` the string 'yes'; what literal_eval refuses
// stays the text as written).

/** Python's shlex.split(text, comments=True, posix=True). Throws on an unclosed quote. */
export function shlexSplit(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === '#') {
      break; // shlex starts a comment at a '#' outside quotes, even inside a word
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error('No closing quotation');
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        // Inside double quotes a backslash escapes only '"' and '\'.
        if (text[j] === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) j++;
        word += text[j];
      }
      if (j >= text.length) throw new Error('No closing quotation');
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= text.length) throw new Error('No escaped character');
      word = (word ?? '') + text[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Thrown where literal_eval would raise: the INI value then stays a string. */
class NotLiteral extends Error {}

/** A value Python has and JSON has not (a set, a complex number): reported, not guessed at. */
export class UnsupportedLiteral extends Error {}

type Token = { kind: 'num' | 'str' | 'name' | 'op'; text: string; value?: unknown };

const NUMBER =
  /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|(?:[0-9](?:_?[0-9])*)?\.?(?:[0-9](?:_?[0-9])*)?(?:[eE][-+]?[0-9](?:_?[0-9])*)?[jJ]?)/;
const STRING = /^([rRbBuU]{0,2})('''|"""|'|")/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const rest = text.slice(i);
    const space = /^(?:[ \t\f]+|\\\n|#.*)/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const str = STRING.exec(rest);
    if (str && !/[^rRbBuU]/.test(str[1]!) && !/[uU].|.[uU]/.test(str[1]!)) {
      const { value, length } = readString(rest, str[1]!, str[2]!);
      tokens.push({ kind: 'str', text: rest.slice(0, length), value });
      i += length;
      continue;
    }
    const num = /^[0-9.]/.test(rest) ? NUMBER.exec(rest) : null;
    if (num && num[0] && num[0] !== '.') {
      tokens.push({ kind: 'num', text: num[0], value: pyNumber(num[0]) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (name) {
      tokens.push({ kind: 'name', text: name[0] });
      i += name[0].length;
      continue;
    }
    if (!'[](){},:+-'.includes(rest[0]!)) throw new NotLiteral();
    tokens.push({ kind: 'op', text: rest[0]! });
    i++;
  }
  return tokens;
}

function pyNumber(text: string): number {
  if (/[jJ]$/.test(text)) throw new UnsupportedLiteral('a complex number');
  const t = text.replace(/_/g, '');
  if (/^0[xXoObB]/.test(t)) return Number(t.toLowerCase());
  // Python refuses 010 (a SyntaxError): the INI value stays the string '010'.
  if (/^0[0-9]+$/.test(t) && /[1-9]/.test(t)) throw new NotLiteral();
  if (!/[0-9]/.test(t)) throw new NotLiteral();
  return Number(t);
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\n': '',
};

function readString(text: string, prefix: string, quote: string): { value: string; length: number } {
  const raw = /[rR]/.test(prefix);
  let i = prefix.length + quote.length;
  let value = '';
  for (; i < text.length; i++) {
    if (text.startsWith(quote, i)) return { value, length: i + quote.length };
    const c = text[i]!;
    if (c === '\n' && quote.length === 1) break;
    if (c === '\\' && i + 1 < text.length) {
      const n = text[i + 1]!;
      const hex = /^x([0-9a-fA-F]{2})|^u([0-9a-fA-F]{4})/.exec(text.slice(i + 1));
      if (raw) value += c + n;
      else if (hex) value += String.fromCharCode(parseInt(hex[1] ?? hex[2]!, 16));
      else value += n in ESCAPES ? ESCAPES[n] : c + n;
      i += raw || !hex ? 1 : hex[0].length;
      continue;
    }
    value += c;
  }
  throw new NotLiteral();
}

class Parser {
  #i = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(text?: string): Token | undefined {
    const t = this.tokens[this.#i];
    return text === undefined || t?.text === text ? t : undefined;
  }

  next(): Token {
    const t = this.tokens[this.#i++];
    if (!t) throw new NotLiteral();
    return t;
  }

  expect(text: string): void {
    if (this.next().text !== text) throw new NotLiteral();
  }

  /** `a, b` without parentheses is a tuple, as at the top of a Python expression. */
  top(): unknown {
    const first = this.value();
    if (!this.peek(',')) return first;
    const items = [first];
    while (this.peek(',')) {
      this.next();
      if (this.#i < this.tokens.length) items.push(this.value());
    }
    return items;
  }

  value(): unknown {
    const t = this.next();
    if (t.kind === 'num') return t.value;
    if (t.kind === 'str') {
      let s = t.value as string;
      while (this.peek()?.kind === 'str') s += this.next().value as string; // 'a' 'b' is 'ab'
      return s;
    }
    if (t.kind === 'name') {
      if (t.text === 'True') return true;
      if (t.text === 'False') return false;
      if (t.text === 'None') return null;
      throw new NotLiteral();
    }
    if (t.text === '-' || t.text === '+') {
      const n = this.value();
      if (typeof n !== 'number') throw new NotLiteral();
      return t.text === '-' ? -n : n;
    }
    if (t.text === '[') return this.items(']');
    if (t.text === '(') return this.items(')', true);
    if (t.text === '{') return this.mapping();
    throw new NotLiteral();
  }

  items(close: string, tuple = false): unknown[] {
    const out: unknown[] = [];
    let comma = false;
    while (!this.peek(close)) {
      out.push(this.value());
      comma = !!this.peek(',');
      if (comma) this.next();
      else break;
    }
    this.expect(close);
    // (1) is 1, (1,) a tuple; a tuple shows as a JSON list, as in ansible's output.
    return tuple && out.length === 1 && !comma ? (out[0] as unknown[]) : out;
  }

  mapping(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (this.peek('}')) {
      this.next();
      return out;
    }
    const first = this.value();
    if (!this.peek(':')) throw new UnsupportedLiteral('a set');
    this.expect(':');
    out[String(first)] = this.value();
    while (this.peek(',')) {
      this.next();
      if (this.peek('}')) break;
      const key = this.value();
      this.expect(':');
      out[String(key)] = this.value();
    }
    this.expect('}');
    return out;
  }

  get done(): boolean {
    return this.#i >= this.tokens.length;
  }
}

/**
 * ansible's INI `_parse_value`: ast.literal_eval(text), or the text itself where that fails.
 * Throws UnsupportedLiteral for a Python value JSON cannot hold.
 */
export function iniValue(text: string): unknown {
  try {
    const parser = new Parser(tokenize(text.replace(/^[ \t]+/, '')));
    const value = parser.top();
    if (!parser.done) throw new NotLiteral();
    return value;
  } catch (e) {
    if (e instanceof NotLiteral) return text;
    throw e;
  }
}
