// A YAML text checked by a zod schema: the line of a path (a value, a key, a path that stops short),
// and the one error listing problems in file order, ten at most. Tables compared whole.
import test from 'ava';
import { z } from 'zod';
import { InputError } from '../../runner/core/errors.js';
import { parseWithSchema, readYamlText } from '../../runner/core/yaml-schema.js';

const TEXT = `# a comment
top:
  list:
    - a
    -
      name: b
      port: 22
  flow: {x: 1}
other:
`;

test('the line of a path', (t) => {
  const yaml = readYamlText('f.yml', TEXT);
  const table: [path: (string | number)[], key: string | undefined, line: number][] = [
    [[], undefined, 2],
    [['top'], undefined, 3],
    [['top', 'list'], undefined, 4],
    [['top', 'list', 0], undefined, 4],
    [['top', 'list', 1], undefined, 6],
    [['top', 'list', 1, 'port'], undefined, 7],
    [['top', 'list', 1], 'port', 7],
    // absent: the last node on the way
    [['top', 'list', 1, 'user'], undefined, 6],
    [['top', 'list', 5], undefined, 4],
    [['top', 'flow', 'x'], undefined, 8],
    // a key with no value: the key's line
    [['other'], undefined, 9],
  ];
  t.deepEqual(
    table.map(([path, key]) => [path, key, yaml.lineOf(path, key)]),
    table,
  );
});

test('problems in file order, ten listed and the rest counted, unknown keys at their own line', (t) => {
  const entries = Array.from({ length: 12 }, (_, i) => `- n: ${12 - i}\n`).join('');
  const text = `${entries}- n: 1\n  extra: 2\n`;
  const schema = z.array(z.strictObject({ n: z.string({ error: 'must be text' }) }));
  const e = t.throws(
    () =>
      parseWithSchema('f.yml', readYamlText('f.yml', text), schema, (p) =>
        p.key ? `unknown ${p.key}` : `${p.path.join('.')}: ${p.issue.message}`,
      ),
    { instanceOf: InputError },
  );
  t.is(
    e.message,
    [
      'f.yml:1: 0.n: must be text',
      ...Array.from({ length: 9 }, (_, i) => `  also: f.yml:${i + 2}: ${i + 1}.n: must be text`),
      '  ... and 4 more',
    ].join('\n'),
  );
  const tail = '- n: x\n  extra: 2\n  n2: 3\n';
  t.throws(() => parseWithSchema('f.yml', readYamlText('f.yml', tail), schema, (p) => `unknown ${p.key}`), {
    message: 'f.yml:2: unknown extra\n  also: f.yml:3: unknown n2',
  });
  t.throws(() => readYamlText('f.yml', 'a: [1\n'), {
    instanceOf: InputError,
    message: /^f\.yml:2: YAML syntax error: /,
  });
});
