// The host-pattern grammar, as a table over fixtures/patterns.yaml. The expected lists are what
// `ansible PATTERN --list-hosts` prints for that file (pattern-oracle.test.ts checks that live).
import test from 'ava';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';
import {
  applySubscript,
  orderPatterns,
  selectHosts,
  splitHostPattern,
  splitSubscript,
} from '../../runner/inventory/pattern.js';

const inv = loadInventory(new URL('fixtures/patterns.yaml', import.meta.url).pathname);
const names = (pattern: string, cwd?: string) => selectHosts(inv, pattern, { cwd }).map((h) => h.name);

const ALL = [
  'gw',
  'bastion.example.com',
  'ntp',
  'master1',
  'tor2',
  'mona',
  'monb',
  'monc',
  'edge1',
  'edge2',
  'edge4',
  'edge6',
  'node012',
  'ntp1.example.com',
  'ntp2.example.com',
  'db01',
  'db02',
  'tor1',
  'tor3',
  'node009',
  'node010',
  'node011',
];

const table: [pattern: string, expected: string[]][] = [
  ['all', ALL],
  ['*', ALL],
  ['windows', ['node009', 'node010', 'node011']],
  ['cluster', ['tor1', 'tor2', 'tor3', 'master1', 'node009', 'node010', 'node011']],
  // unions keep the order of the terms
  ['tor:windows', ['tor1', 'tor2', 'tor3', 'node009', 'node010', 'node011']],
  ['windows,tor', ['node009', 'node010', 'node011', 'tor1', 'tor2', 'tor3']],
  ['tor1, node009 ,master1', ['tor1', 'node009', 'master1']],
  ['tor2:tor1:tor2', ['tor2', 'tor1']],
  // & and ! apply after every plain term, wherever they are written
  ['cluster:&monitoring', ['tor2', 'master1']],
  ['&monitoring:cluster', ['tor2', 'master1']],
  ['cluster:!windows', ['tor1', 'tor2', 'tor3', 'master1']],
  ['!windows:cluster', ['tor1', 'tor2', 'tor3', 'master1']],
  ['windows:!win_canary:&win*', ['node009', 'node011']],
  ['!windows', ALL.filter((n) => !['node009', 'node010', 'node011'].includes(n))],
  // globs match group names (all their hosts) and, having a glob character, host names too
  ['node00*', ['node009']],
  ['win*', ['node009', 'node010', 'node011', 'node012']],
  ['mon?', ['mona', 'monb', 'monc']],
  // host names match in order of first mention in the file, not in `all` order
  ['tor?', ['tor1', 'tor2', 'tor3']],
  ['*1', ['tor1', 'master1', 'node011', 'edge1', 'db01']],
  ['mon[!a]', ['monb', 'monc']],
  ['*.example.com', ['bastion.example.com', 'ntp1.example.com', 'ntp2.example.com']],
  ['ntp', ['ntp']], // a host of that name wins over the group
  ['ntp*', ['ntp1.example.com', 'ntp2.example.com', 'ntp']],
  // ~regex: Python's re.match, anchored at the start only
  ['~node0(09|10)', ['node009', 'node010']],
  ['~tor[12]', ['tor1', 'tor2']],
  ['~win', ['node009', 'node010', 'node011', 'node012']],
  ['edge*:&~edge[24]', ['edge2', 'edge4']],
  // subscripts: [i], [-i], [a:b] inclusive, [a:], and ansible's [a:0] (an end of 0 means "just a")
  ['windows[0:2]', ['node009', 'node010', 'node011']],
  ['windows[0:1]', ['node009', 'node010']],
  ['windows[-1]', ['node011']],
  ['windows[1:]', ['node010', 'node011']],
  ['all[2:0]', ['ntp']],
  ['all[0-1]', ['gw', 'bastion.example.com']],
  ['node0*[1]', ['node010']],
  ['tor[1:2]', ['tor2', 'tor3']], // a subscript on group tor, not the host range tor1..tor2
  ['ungrouped', ['bastion.example.com', 'ntp1.example.com', 'ntp2.example.com']],
  ['db', ['db01', 'db02', 'gw']],
  // empty but valid: every term matched something
  ['tor:&windows', []],
];

for (const [pattern, expected] of table) {
  test(`pattern ${pattern}`, (t) => {
    t.deepEqual(names(pattern), expected);
  });
}

test("inventory order is ansible's `all` order: own hosts, then child groups level by level", (t) => {
  t.deepEqual(
    inv.hosts.map((h) => h.name),
    ALL,
  );
  // not the order of first mention: tor1 is the first host under `cluster`, but `monitoring`'s
  // own hosts come before the hosts of `cluster`'s children
  t.deepEqual(inv.fileOrder!.slice(0, 7), ['gw', 'bastion.example.com', 'ntp', 'tor1', 'tor2', 'tor3', 'master1']);
  t.deepEqual(inv.groups.get('cluster')!.hosts, ['tor1', 'tor2', 'tor3', 'master1', 'node009', 'node010', 'node011']);
  t.deepEqual(inv.groups.get('ungrouped')!.children, ['ntp']); // ansible's namesake quirk, see graph.ts
  t.deepEqual(inv.warnings, [
    `${inv.file}:47: at all.children.ntp: 'ntp' is both a group and a host: a pattern 'ntp' selects the host only (as in ansible)`,
  ]);
});

test('@file reads one pattern per line, relative to cwd, and mixes with other terms', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-limit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'limits'));
  writeFileSync(join(dir, 'limits', 'canary.txt'), 'windows\n\n  !node010  \ntor1\n');
  t.deepEqual(names('@limits/canary.txt', dir), ['node009', 'node011', 'tor1']);
  t.deepEqual(names('master1:@limits/canary.txt', dir), ['master1', 'node009', 'node011', 'tor1']);
  const missing = t.throws(() => names('@limits/nope.txt', dir), { instanceOf: UsageError });
  t.regex(missing.message, /cannot read limit file .*limits\/nope\.txt \(ENOENT\)/);
  t.throws(() => names('@limits', dir), { instanceOf: UsageError, message: /must be a file, not a directory/ });
});

test('a term that matches nothing is refused, naming the term and close names', (t) => {
  const typo = t.throws(() => names('tor:!winodws'), { instanceOf: UsageError });
  t.regex(typo.message, /host pattern 'tor:!winodws': 'winodws' matches no host or group in .*patterns\.yaml/);
  t.regex(typo.message, /did you mean 'windows'/);
  const host = t.throws(() => names('node09'), { instanceOf: UsageError });
  t.regex(host.message, /'node09' matches no host or group.*did you mean .*'node009'/);
  const sub = t.throws(() => names('zz0[12]'), { instanceOf: UsageError });
  t.regex(sub.message, /'zz0' matches no host or group.*\[12\] of 'zz0\[12\]' picks hosts by position/);
  t.throws(() => names('~^nothing'), { instanceOf: UsageError, message: /'~\^nothing' matches no host or group/ });
});

test('where ansible has nothing to subscript, [..] is the glob character class it looks like', (t) => {
  // ansible: 'node0' matches nothing, so node0[09] is an error there; the issue's --limit 'node00[89]' means a glob.
  t.deepEqual(names('node01[01]'), ['node010', 'node011']);
  t.deepEqual(names('node00[9]'), ['node009']);
  // Where the base matches, the subscript keeps ansible's meaning (a position).
  t.deepEqual(names('windows[0]').length, 1);
});

test('a subscript out of range and a bad regex are usage errors', (t) => {
  t.throws(() => names('windows[3]'), {
    instanceOf: UsageError,
    message: /'windows' matches 3 hosts, so an index runs from 0 to 2 \(or -3 to -1\)/,
  });
  t.throws(() => names('windows[-4]'), { instanceOf: UsageError });
  t.throws(() => names('~node(0'), { instanceOf: UsageError, message: /invalid regular expression in '~node\(0'/ });
  t.throws(() => names(' , '), { instanceOf: UsageError, message: /has no terms: write 'all'/ });
});

test('splitting: commas first, else one address, else colons outside brackets', (t) => {
  t.deepEqual(splitHostPattern('a,b[1], c[2:3] , d'), ['a', 'b[1]', 'c[2:3]', 'd']);
  t.deepEqual(splitHostPattern('a:b:&c:!d'), ['a', 'b', '&c', '!d']);
  t.deepEqual(splitHostPattern('web[1:3]'), ['web[1:3]']);
  t.deepEqual(splitHostPattern('fe80::1'), ['fe80::1']);
  t.deepEqual(splitHostPattern('host:2222'), ['host:2222']);
  t.deepEqual(orderPatterns(['!a', 'b', '&c', 'd']), ['b', 'd', '&c', '!a']);
  t.deepEqual(orderPatterns(['!a']), ['all', '!a']);
});

test('subscripts follow ansible-core 2.14 _split_subscript/_apply_subscript', (t) => {
  t.deepEqual(splitSubscript('web[3]'), { expr: 'web', subscript: [3, null] });
  t.deepEqual(splitSubscript('web[1:]'), { expr: 'web', subscript: [1, -1] });
  t.deepEqual(splitSubscript('web[1-2]'), { expr: 'web', subscript: [1, 2] });
  t.deepEqual(splitSubscript('~web[1]'), { expr: '~web[1]', subscript: null });
  const xs = ['a', 'b', 'c', 'd'];
  t.deepEqual(applySubscript(xs, [1, 2]), ['b', 'c']);
  t.deepEqual(applySubscript(xs, [2, 0]), ['c']);
  t.deepEqual(applySubscript(xs, [3, 9]), ['d']);
  t.deepEqual(applySubscript(xs, [-2, null]), ['c']);
  t.is(applySubscript(xs, [4, null]), null);
  t.deepEqual(applySubscript([], [4, null]), []);
});
