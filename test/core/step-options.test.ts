// readOptions and the shared field schemas, pure: each row's result compared whole, either the
// normalized options or the one StepOptionError (its kind, field and message) a user would see.
import test from 'ava';
import { z } from 'zod';
import { StepOptionError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import {
  absolutePath,
  filePath,
  fileMode,
  integer,
  nonEmpty,
  oneOf,
  principal,
  readOptions,
  secret,
  stringOrSecret,
} from '../../runner/core/step-options.js';

const KIND = 'test.step';

const Options = z
  .strictObject({
    name: nonEmpty(),
    path: absolutePath().optional(),
    file: filePath().optional(),
    mode: fileMode().optional(),
    owner: principal().optional(),
    count: integer({ min: 1, max: 10 }).optional(),
    state: oneOf('present', 'absent').default('present'),
    enabled: z.boolean().default(false),
    token: secret().optional(),
    text: stringOrSecret().optional(),
    items: z.array(z.string()).optional(),
    either: z.union([z.string(), z.array(z.number())], { error: 'must be a string or a list of numbers' }).optional(),
    nested: z
      .strictObject(
        { a: z.string() },
        { error: (iss) => (iss.code === 'unrecognized_keys' ? 'is not an option of nested (known: a)' : undefined) },
      )
      .optional(),
  })
  .superRefine((o, ctx) => {
    if (o.state === 'absent' && o.mode !== undefined)
      ctx.addIssue({ code: 'custom', path: ['state'], message: "is 'absent': mode does not apply" });
  })
  .transform((o) => ({ ...o, upper: o.name.toUpperCase() }));

type Outcome = { options: unknown } | { kind: string; field: string; message: string };

function outcome(input: unknown): Outcome {
  try {
    return { options: readOptions(KIND, Options, input) };
  } catch (e) {
    if (!(e instanceof StepOptionError)) throw e;
    return { kind: e.kind, field: e.field, message: e.message };
  }
}

const error = (field: string, detail: string): Outcome => ({
  kind: KIND,
  field,
  message: `${KIND}: option '${field}' ${detail}`,
});

const token = new Secret('hunter22', 'env:TOKEN');

const rows: [string, unknown, Outcome][] = [
  [
    'defaults filled, the transform applied',
    { name: 'app' },
    { options: { name: 'app', state: 'present', enabled: false, upper: 'APP' } },
  ],
  [
    'paths lose a trailing slash, modes get four digits',
    { name: 'a', path: '/srv/app/', file: '/etc/x', mode: '644', owner: 'www-data', count: 10 },
    {
      options: {
        name: 'a',
        path: '/srv/app',
        file: '/etc/x',
        mode: '0644',
        owner: 'www-data',
        count: 10,
        state: 'present',
        enabled: false,
        upper: 'A',
      },
    },
  ],
  [
    'a secret stays one',
    { name: 'a', token, text: token },
    { options: { name: 'a', token, text: token, state: 'present', enabled: false, upper: 'A' } },
  ],
  ['options not an object', 'app', error('(options)', 'must be an object, got the string "app"')],
  ['options an array', [], error('(options)', 'must be an object, got an array')],
  ['a required field missing', {}, error('name', 'must be a string, got nothing')],
  ['an empty string', { name: '' }, error('name', 'must not be empty')],
  [
    'a misspelt option is named before the field it leaves missing',
    { nmae: 'app' },
    error(
      'nmae',
      'is not an option of test.step (known: name, path, file, mode, owner, count, state, enabled, token, text, items, either, nested)',
    ),
  ],
  ['a relative path', { name: 'a', path: 'srv' }, error('path', 'must be an absolute path, got the string "srv"')],
  ['a newline in a path', { name: 'a', path: '/a\nb' }, error('path', 'must not contain a newline or NUL')],
  ['the root as a file', { name: 'a', file: '/' }, error('file', 'must name a file, not /')],
  [
    'a mode as a number',
    { name: 'a', mode: 644 },
    error('mode', "must be an octal mode written as a string such as '0644', got number 644"),
  ],
  [
    'a user name with a colon',
    { name: 'a', owner: 'a:b' },
    error(
      'owner',
      "must be a user or group name (no ':', '/' or control character, not starting with '-' or '+', no space at either end) or a numeric id, got the string \"a:b\"",
    ),
  ],
  ['a fraction', { name: 'a', count: 1.5 }, error('count', 'must be an integer, got number 1.5')],
  ['below the minimum', { name: 'a', count: 0 }, error('count', 'must be at least 1, got 0')],
  ['above the maximum', { name: 'a', count: 11 }, error('count', 'must be at most 10, got 11')],
  ['not one of', { name: 'a', state: 'gone' }, error('state', `must be 'present' or 'absent', got "gone"`)],
  ['not one of, not a string', { name: 'a', state: 1 }, error('state', `must be 'present' or 'absent', got number 1`)],
  [
    'a boolean as a string',
    { name: 'a', enabled: 'yes' },
    error('enabled', 'must be true or false, got the string "yes"'),
  ],
  ['a plain value for a secret', { name: 'a', token: 'x' }, error('token', 'must be a secret, got the string "x"')],
  ['a number for a string or secret', { name: 'a', text: 5 }, error('text', 'must be a string, got number 5')],
  ['an element of a list', { name: 'a', items: ['x', 3] }, error('items[1]', 'must be a string, got number 3')],
  [
    'a union speaks through the branch of the value type',
    { name: 'a', either: [1, 'x'] },
    error('either[1]', 'must be a number, got the string "x"'),
  ],
  [
    'a union with no branch of its type',
    { name: 'a', either: 5 },
    error('either', 'must be a string or a list of numbers'),
  ],
  [
    'a nested unknown key',
    { name: 'a', nested: { a: 'x', b: 1 } },
    error('nested.b', 'is not an option of nested (known: a)'),
  ],
  ['a nested field', { name: 'a', nested: { a: 1 } }, error('nested.a', 'must be a string, got number 1')],
  [
    'a check across fields',
    { name: 'a', state: 'absent', mode: '0644' },
    error('state', "is 'absent': mode does not apply"),
  ],
  [
    'a long string is cut in the message',
    { name: 'a', path: 'x'.repeat(50) },
    error('path', `must be an absolute path, got the string "${'x'.repeat(40)}…"`),
  ],
];

for (const [name, input, expected] of rows) {
  test(`readOptions: ${name}`, (t) => {
    t.deepEqual(outcome(input), expected);
  });
}

test('a user or group name: what name services print passes, what chown would misread does not', (t) => {
  const ok = (owner: string) => Options.safeParse({ name: 'a', owner }).success;
  const names = ['root', '1000', 'www-data', 'svc$', 'domain users', 'alice@corp.example', 'CORP\\alice', 'é'];
  t.deepEqual(names.filter(ok), names);
  const refused = ['', 'a:b', '-r', '+0', ' root', 'root ', 'a/b', 'a\nb', 'a\tb', 'a\u0000b'];
  t.deepEqual(refused.filter(ok), []);
});

test('the message never shows a secret', (t) => {
  const e = t.throws(() => readOptions(KIND, Options, { name: 'a', count: token }), { instanceOf: StepOptionError });
  t.is(e.message, `${KIND}: option 'count' must be an integer, got a secret`);
});
