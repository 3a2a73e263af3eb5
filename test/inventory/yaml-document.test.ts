// parseYamlDocument is yaml's parseDocument with limits: the same errors where yaml has them (its
// duplicate-key check, quadratic there, is done with a Set here), and nesting past the limit
// refused with the file and line instead of overflowing the stack.
import test from 'ava';
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import { InputError } from '../../runner/core/errors.js';
import { MAX_YAML_NESTING, parseYamlDocument } from '../../runner/inventory/yaml-document.js';

/** The errors of a parse as [code, line, first line of the message]. */
function errorsOf(doc: { errors: readonly YAMLError[] }): [string, number | undefined, string][] {
  return doc.errors.map((e) => [e.code, e.linePos?.[0].line, e.message.split('\n')[0]!.replace(/ at line.*$/, '')]);
}

const texts: [string, string][] = [
  ['no duplicate', 'a: 1\nb: {c: 2, d: [3, {e: 4}]}\n'],
  ['a duplicate key', 'a: 1\nb: 2\na: 3\n'],
  ['duplicates in nested and flow mappings', 'x:\n  y: 1\n  y: 2\nz: {p: 1, q: 2, p: 3}\n'],
  ['keys equal by value: 1 and 1.0', '1: a\n1.0: b\n'],
  ['keys that differ by type: 1 and "1"', '1: a\n"1": b\n'],
  ['two null keys', '? \n: a\n~: b\n'],
  ['NaN is never equal to itself', '.nan: a\n.nan: b\n'],
  ['single-pair mappings in a flow sequence are separate', 'x: [a: 1, a: 2]\n'],
  ['a duplicate and a syntax error, in document order', 'a: [1\nb: 1\nb: 2\n'],
  ['more than one document', 'a: 1\n---\nb: 2\n'],
];

for (const [title, text] of texts) {
  test(`the errors yaml reports: ${title}`, (t) => {
    const ours = parseYamlDocument('f.yaml', text, new LineCounter(), { version: '1.1' });
    const yamls = parseDocument(text, { version: '1.1', lineCounter: new LineCounter() });
    t.deepEqual(errorsOf(ours), errorsOf(yamls));
    t.deepEqual(ours.toJS(), yamls.toJS());
  });
}

/** `levels` collections nested: the top mapping, then flow sequences. */
const flowLevels = (levels: number) => `x: ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}\n`;
/** `levels` block mappings nested, one key a line. */
const blockLevels = (levels: number) =>
  Array.from({ length: levels - 1 }, (_, i) => `${'  '.repeat(i)}k:\n`).join('') + `${'  '.repeat(levels - 1)}v: 1\n`;

test(`nesting: ${MAX_YAML_NESTING} levels are read, deeper is refused naming the file and a line near it`, (t) => {
  for (const text of [flowLevels(MAX_YAML_NESTING), blockLevels(MAX_YAML_NESTING)])
    t.notThrows(() => parseYamlDocument('f.yaml', text, new LineCounter()));
  const refused = [flowLevels(3000), blockLevels(3000)].map((text) => {
    const e = t.throws(() => parseYamlDocument('f.yaml', text, new LineCounter()), { instanceOf: InputError });
    return e.message;
  });
  const detail =
    'YAML nested more than 100 levels deep: flatten the structure (an inventory needs a few levels, not hundreds)';
  t.deepEqual(refused, [`f.yaml:1: ${detail}`, `f.yaml:103: ${detail}`]);
});
