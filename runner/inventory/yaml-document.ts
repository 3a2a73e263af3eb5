// YAML text to a yaml Document, as yaml's parseDocument does, within limits that keep hostile or
// huge input an error naming the file rather than a crash or minutes of work:
// - nesting: yaml's parser and composer recurse once per level and overflow the stack near 1,000
//   levels (a stack trace, exit 70); the parser's open collections are counted as it goes and the
//   parse stops past MAX_YAML_NESTING;
// - duplicate keys: yaml's own check compares each key with every earlier key of its mapping,
//   minutes for a group of 100,000 hosts; one Set per mapping finds the same duplicates in linear time.
// Alias expansion is limited by yaml itself when a value is converted (toJS's maxAliasCount).
import {
  Composer,
  type Document,
  type DocumentOptions,
  isCollection,
  isMap,
  isPair,
  isScalar,
  Lexer,
  type LineCounter,
  Parser,
  type ParseOptions,
  type SchemaOptions,
  YAMLParseError,
} from 'yaml';
import { InputError } from '../core/errors.js';

/** Collections nested deeper than this are refused (documented in README.md, Limits). */
export const MAX_YAML_NESTING = 100;

// Besides the open collections, the parser's stack holds the document and the token being read.
const STACK_OVERHEAD = 3;

export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/**
 * The first document of `text` (of `file`), with yaml's errors (and duplicate keys) in
 * `doc.errors`, their `linePos` set from `lines`. Nesting past the limit throws an InputError.
 */
export function parseYamlDocument(file: string, text: string, lines: LineCounter, options: YamlOptions = {}): Document {
  const parser = new Parser(lines.addNewLine);
  const composer = new Composer({ ...options, uniqueKeys: false });
  let doc: Document | undefined;
  for (const next of composer.compose(tokens(file, text, parser, lines), true, text.length)) {
    if (!doc) doc = next;
    else {
      doc.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  // compose(…, forceDoc = true) always yields a document, an empty one for empty text.
  const parsed = doc!;
  if (options.uniqueKeys !== false) addDuplicateKeys(parsed);
  for (const e of [...parsed.errors, ...parsed.warnings])
    e.linePos = [lines.linePos(e.pos[0]), lines.linePos(e.pos[1])];
  return parsed;
}

/** yaml's Parser.parse, with the nesting checked after every lexeme. */
function* tokens(file: string, text: string, parser: Parser, lines: LineCounter) {
  lines.addNewLine(0);
  for (const lexeme of new Lexer().lex(text)) {
    yield* parser.next(lexeme);
    if (parser.stack.length > MAX_YAML_NESTING + STACK_OVERHEAD) {
      throw new InputError(
        `${file}:${lines.linePos(parser.offset).line}: YAML nested more than ${MAX_YAML_NESTING} levels deep: ` +
          'flatten the structure (an inventory needs a few levels, not hundreds)',
      );
    }
  }
  yield* parser.end();
}

/** yaml's DUPLICATE_KEY errors (two scalar keys of one mapping with the same value), in document order. */
function addDuplicateKeys(doc: Document): void {
  const found: YAMLParseError[] = [];
  const todo: unknown[] = [doc.contents];
  while (todo.length > 0) {
    const node = todo.pop();
    if (isPair(node)) todo.push(node.value, node.key);
    if (!isCollection(node)) continue;
    const keys = isMap(node) ? new Set<unknown>() : null;
    for (const item of node.items) {
      const key = isPair(item) ? item.key : null;
      // yaml compares with ===: NaN never equals itself, so it is never a duplicate there.
      if (keys && isScalar(key) && !Number.isNaN(key.value)) {
        if (keys.has(key.value)) found.push(duplicate(key.range?.[0] ?? 0));
        else keys.add(key.value);
      }
      todo.push(item);
    }
  }
  if (found.length === 0) return;
  for (const e of found) doc.errors.push(e);
  doc.errors.sort((a, b) => a.pos[0] - b.pos[0]);
}

const duplicate = (offset: number) =>
  new YAMLParseError([offset, offset + 1], 'DUPLICATE_KEY', 'Map keys must be unique');
