// `-e 'a=1 b="x y"'`: key=value text split as ansible-core 2.14 splits it (parsing/splitter.py:
// split_args and parse_kv): on spaces and newlines, except inside quotes or a Jinja2 block ({{ }},
// {% %}, {# #}); then Python escapes decoded (\n, \t, \\, \', \", \xHH, \uHHHH, \UHHHHHHHH); then each
// word cut at its first `=` not after a backslash, the key and value trimmed, and one pair of quotes
// around the value removed. Ported line by line, so that play reads the same variables from the same text.
import { UsageError } from '../core/errors.js';

/** The result: pairs (a later key wins) and the words without `=` (ansible's `_raw_params`). */
export interface KeyValues {
  readonly vars: Record<string, string>;
  readonly bare: readonly string[];
}

/** split_args' _get_quote_state: the quote still open after `token`, given the one open before. */
function quoteState(token: string, open: string | null): string | null {
  let quote = open;
  for (let i = 0; i < token.length; i++) {
    const c = token[i]!;
    if ((c === '"' || c === "'") && (i === 0 || token[i - 1] !== '\\')) {
      if (quote === null) quote = c;
      else if (c === quote) quote = null;
    }
  }
  return quote;
}

/** _count_jinja2_blocks: the depth after `token`'s opening and closing marks. */
function blockDepth(token: string, depth: number, open: string, close: string): number {
  const opened = token.split(open).length - 1;
  const closed = token.split(close).length - 1;
  return opened === closed ? depth : Math.max(0, depth + opened - closed);
}

/** split_args' state across words and lines: the words so far, the open quote, the Jinja2 block depths. */
class Splitter {
  readonly params: string[] = [];
  quote: string | null = null;
  insideQuotes = false;
  readonly depth = { print: 0, block: 0, comment: 0 };

  constructor(readonly unbalanced: () => Error) {}

  inBlock(): boolean {
    return this.depth.print > 0 || this.depth.block > 0 || this.depth.comment > 0;
  }

  appendToLast(text: string): void {
    if (this.params.length === 0) throw this.unbalanced();
    this.params[this.params.length - 1] += text;
  }

  /** One space-separated `token` (the idx-th of a line of `count`), in split_args' order of tests. */
  word(token: string, idx: number, count: number): void {
    const wasInsideQuotes = this.insideQuotes;
    this.quote = quoteState(token, this.quote);
    this.insideQuotes = this.quote !== null;
    let appended = false;
    if (this.insideQuotes && !wasInsideQuotes && !this.inBlock()) {
      this.params.push(token);
      appended = true;
    } else if (this.inBlock() || this.insideQuotes || wasInsideQuotes) {
      if (idx === 0 && wasInsideQuotes) this.appendToLast(token);
      else if (count > 1) this.appendToLast((idx > 0 ? ' ' : '') + token);
      else this.appendToLast(`\n${token}`);
      appended = true;
    }
    for (const [kind, open, close] of BLOCKS) {
      const before = this.depth[kind];
      this.depth[kind] = blockDepth(token, before, open, close);
      if (this.depth[kind] !== before && !appended) {
        this.params.push(token);
        appended = true;
      }
    }
    if (!this.inBlock() && !this.insideQuotes && !appended && token !== '') this.params.push(token);
  }
}

const BLOCKS = [
  ['print', '{{', '}}'],
  ['block', '{%', '%}'],
  ['comment', '{#', '#}'],
] as const;

/** ansible's split_args. `item` names the -e text in errors. */
export function splitArgs(args: string, item: string): string[] {
  const s = new Splitter(
    () => new UsageError(`-e ${item}: unbalanced quotes or {{ }} blocks: cannot split it into key=value`),
  );
  const lines = args.split('\n');
  for (const [lineIndex, line] of lines.entries()) {
    const tokens = line.split(' ');
    let continuation = false;
    for (const [idx, token] of tokens.entries()) {
      // An empty word is a second space in a row: kept, for a quoted value.
      if (token.length === 0 && idx !== 0) s.appendToLast(' ');
      else if (token === '\\' && !s.insideQuotes) continuation = true;
      else s.word(token, idx, tokens.length);
    }
    if (lines.length > 1 && lineIndex !== lines.length - 1 && !continuation) s.appendToLast('\n');
  }
  if (s.inBlock() || s.insideQuotes) throw s.unbalanced();
  return s.params;
}

const ESCAPE = /\\U[0-9a-fA-F]{8}|\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|\\N\{[^}]+\}|\\[\\'"abfnrtv]/g;
const SIMPLE: Readonly<Record<string, string>> = {
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
};

/** parse_kv's _decode_escapes (Python's unicode-escape on each escape sequence). */
function decodeEscapes(text: string, item: string): string {
  return text.replace(ESCAPE, (esc) => {
    const kind = esc[1]!;
    if (kind === 'N')
      throw new UsageError(`-e ${item}: ${esc}: escapes by character name are not supported: write the character`);
    if (kind !== 'U' && kind !== 'u' && kind !== 'x') return SIMPLE[kind]!;
    const code = Number.parseInt(esc.slice(2), 16);
    if (code > 0x10ffff) throw new UsageError(`-e ${item}: ${esc} is not a Unicode character`);
    return String.fromCodePoint(code);
  });
}

/** ansible's unquote: one pair of matching quotes around the whole value, unless the last is escaped. */
function unquote(value: string): string {
  const quoted =
    value.length > 1 && value[0] === value.at(-1) && (value[0] === '"' || value[0] === "'") && value.at(-2) !== '\\';
  return quoted ? value.slice(1, -1) : value;
}

/** ansible's parse_kv (check_raw off). */
export function parseKeyValues(args: string, item: string): KeyValues {
  const vars: Record<string, string> = {};
  const bare: string[] = [];
  for (const word of splitArgs(args, item)) {
    const x = decodeEscapes(word, item);
    if (!x.includes('=')) {
      bare.push(word);
      continue;
    }
    // The first `=` after the first character that is not escaped.
    let at = x.indexOf('=', 1);
    while (at > 0 && x[at - 1] === '\\') at = x.indexOf('=', at + 1);
    if (at < 0) {
      bare.push(x.replaceAll('\\=', '='));
      continue;
    }
    vars[x.slice(0, at).trim()] = unquote(x.slice(at + 1).trim());
  }
  return { vars, bare };
}
