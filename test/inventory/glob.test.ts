// Globs and ~regex terms must match exactly the names Python's fnmatch and re.match do, since
// that is what ansible runs; and host ranges must expand as ansible's own helpers expand them.
// The Python answers come from the interpreter ansible-core runs on.
import test from 'ava';
import { globRegExp, pythonRegExp } from '../../runner/inventory/glob.js';
import { expandHostKey } from '../../runner/inventory/host-range.js';
import { ansiblePython } from './ansible-oracle.js';

const NAMES = [
  'node009',
  'node010',
  'Node009',
  'web-1',
  'web_1',
  'a.b.c',
  'a-b',
  'x]y',
  'x[y',
  '[x]',
  'ab',
  'a\\b',
  '',
  'tor1:22',
  'z',
  'ß',
  'aXbXc',
];
const GLOBS = [
  'node00*',
  'node0?0',
  '*',
  '?',
  'web[-_]1',
  'web[_-]1',
  '[!n]*',
  '[]xy]*',
  'x[]]y',
  'x[[]y',
  'a[!]b',
  '[z-a]',
  '[a-c-e]b',
  'a*b*c',
  '*.*',
  '[a\\]b',
  '*[',
  'no[de]*',
  '[^n]ode*',
  '[!a-m]*',
  'a**b',
  'a[b-]',
  'a[&~|]',
  'tor1:22',
];
const REGEXES = [
  'node0(09|10)',
  'node',
  'ode',
  '.*9$',
  '(?i)NODE',
  'web[-_]1',
  '^a',
  'a\\.b',
  '(?P<n>o)d(?P=n)?',
  '\\Aab\\Z',
  'a|node',
  '[]x]',
  '(?#comment)node',
  'x\\]y',
  '(?s)a.b',
];

test('globs match as Python fnmatch.fnmatchcase', (t) => {
  const cases = GLOBS.flatMap((g) => NAMES.map((n) => [g, n] as const));
  const theirs = ansiblePython<boolean[]>(
    'import fnmatch\nresult = [fnmatch.fnmatchcase(n, g) for g, n in data]',
    cases,
  );
  const diffs = cases
    .filter(([g, n], i) => globRegExp(g).test(n) !== theirs[i])
    .map(([g, n]) => `${g} ~ ${JSON.stringify(n)}`);
  t.deepEqual(diffs, []);
  t.true(theirs.some((x) => x) && theirs.some((x) => !x)); // the table exercises both answers
});

test('~regex matches as Python re.match (anchored at the start only)', (t) => {
  const cases = REGEXES.flatMap((r) => NAMES.map((n) => [r, n] as const));
  const theirs = ansiblePython<boolean[]>('import re\nresult = [bool(re.match(r, n)) for r, n in data]', cases);
  const diffs = cases
    .filter(([r, n], i) => pythonRegExp(r).test(n) !== theirs[i])
    .map(([r, n]) => `~${r} ~ ${JSON.stringify(n)}`);
  t.deepEqual(diffs, []);
});

test('Python regex syntax without a JavaScript spelling is an error, not a silent mismatch', (t) => {
  t.throws(() => pythonRegExp('(?x) a b'), { message: /inline flag \(\?x\)/ });
  t.throws(() => pythonRegExp('node(0'));
});

const HOST_KEYS = [
  'node[001:010]',
  'web[a:c]',
  'h[1:10:2]',
  'db[01:02]-x',
  'r[1:2]c[a:b]',
  'h[:3]',
  'x[a:C]',
  'n[08:11]',
  'h1:2222',
  'edge[2:6:2]:2200',
  'ntp[1:2].example.com',
  '10.0.0.[1:3]',
  'plain',
  'fe80::1',
  '[fe80::1]:22',
  'z[9:10]',
  'n[1:3]:x',
];

test('host keys expand as ansible (_expand_hostpattern: parse_address + expand_hostname_range)', (t) => {
  const theirs = ansiblePython<[string[], number | null][]>(
    [
      'from ansible.plugins.inventory import expand_hostname_range, detect_range',
      'from ansible.parsing.utils.addresses import parse_address',
      'def expand(key):',
      '    try:',
      '        (pattern, port) = parse_address(key, allow_ranges=True)',
      '    except Exception:',
      '        (pattern, port) = (key, None)',
      '    return [expand_hostname_range(pattern) if detect_range(pattern) else [pattern], port]',
      'result = [expand(k) for k in data]',
    ].join('\n'),
    HOST_KEYS,
  );
  const mine = HOST_KEYS.map((k) => {
    const e = expandHostKey(k);
    return [e.names, e.port ?? null];
  });
  t.deepEqual(mine, theirs);
  t.deepEqual(theirs[0]![0].slice(0, 2), ['node001', 'node002']); // zero padding kept
});

test('bad host ranges are errors', (t) => {
  t.throws(() => expandHostKey('node[01:5]'), { message: /equal length/ });
  t.throws(() => expandHostKey('node[1:2:0]'), { message: /step must be a positive integer/ });
  t.throws(() => expandHostKey('node[a:5]'), { message: /numeric .* or single letters/ });
  t.throws(() => expandHostKey('node[c:a]'), { message: /begin <= end/ });
  t.throws(() => expandHostKey('node[1:2:3:4]'), { message: /begin:end or begin:end:step/ });
  t.deepEqual(expandHostKey('node[5:1]').names, []); // ansible too: range(5, 2) is empty; the loader refuses it
});
