// The alias index: each alias's node as yaml resolves it (found in one walk), and how many entries
// it stands for with nested aliases expanded, so a bomb is refused before it is followed.
import test from 'ava';
import { type Alias, isAlias, parseDocument, visit } from 'yaml';
import { AliasIndex } from '../../runner/inventory/yaml-aliases.js';

function aliasesOf(text: string) {
  const doc = parseDocument(text);
  const aliases: Alias[] = [];
  visit(doc, { Alias: (_, a) => void aliases.push(a) });
  return { doc, aliases, index: new AliasIndex(doc) };
}

test('targets are the ones yaml resolves, anchors redefined included', (t) => {
  const { doc, aliases, index } = aliasesOf('a: &x [1]\nb: *x\nc: &x {k: v}\nd: *x\ne: [&x 3, *x]\nf: *x\n');
  t.deepEqual(
    aliases.map((a) => index.target(a)),
    aliases.map((a) => a.resolve(doc)),
  );
  t.is(aliases.length, 4);
});

test('entries: pairs and items, nested aliases expanded', (t) => {
  const { aliases, index } = aliasesOf(
    'a: &a [1, 2]\nb: &b [*a, *a, 3]\nc: *b\nm: &m {x: 1, y: [*a]}\nn: *m\ns: &s hello\nt: *s\n',
  );
  // *a: 2 items; *b in b: 2 each; c: 3 items + 2 + 2; *a in m: 2; n: 2 pairs + 1 item + 2; t: a scalar counts 1.
  t.deepEqual(
    aliases.map((a) => [a.source, index.entries(a)]),
    [
      ['a', 2],
      ['a', 2],
      ['b', 7],
      ['a', 2],
      ['m', 5],
      ['s', 1],
    ],
  );
});

test('a bomb is counted, not expanded; an alias inside its own anchor is a cycle counted as 1', (t) => {
  const levels = ['l0: &l0 [x, x]'];
  for (let i = 1; i <= 40; i++) levels.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
  const bomb = aliasesOf(`${levels.join('\n')}\ntop: *l40\n`);
  t.true(bomb.index.entries(bomb.aliases.at(-1)!) > 2 ** 40);
  const cycle = aliasesOf('a: &a [*a]\n');
  t.true(isAlias(cycle.aliases[0]));
  t.is(cycle.index.entries(cycle.aliases[0]!), 1);
});
