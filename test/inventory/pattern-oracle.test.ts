// selectHosts against the real thing: for each pattern, the hosts and their order must equal
// `ansible PATTERN -i fixtures/patterns.yaml --list-hosts`. Where ansible warns that a term matched
// nothing and carries on, we must refuse with an error naming that term.
import test from 'ava';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { selectHosts, splitHostPattern } from '../../runner/inventory/pattern.js';
import { ansibleListHosts, ansiblePython, requireAnsible } from './ansible-oracle.js';

const FILE = new URL('fixtures/patterns.yaml', import.meta.url).pathname;
const inv = loadInventory(FILE);

const AGREE = [
  'all',
  '*',
  'cluster',
  'windows',
  'ungrouped',
  'db',
  'gw',
  'windows:tor',
  'windows,tor',
  'tor:windows',
  'tor1, node009 ,master1',
  'tor2:tor1:tor2',
  'cluster:&monitoring',
  '&monitoring:cluster',
  'cluster:!windows',
  'monitoring:!tor2',
  '!windows',
  '&tor',
  'windows:!win_canary:&win*',
  'all:!*[0:5]',
  'node00*',
  'node0*[1]',
  'tor?',
  '*1',
  'm*',
  'win*',
  'mon?',
  'mon[!a]',
  'mon[a-b]',
  '*.example.com',
  '*example*',
  'db0?',
  'ntp',
  'ntp*',
  '~node0(09|10)',
  '~win',
  '~tor[12]',
  '~(?i)TOR1',
  '~node0(?P<x>1)(?P=x)',
  'edge*:&~edge[24]',
  'windows[0:2]',
  'windows[-1]',
  'windows[1:]',
  'all[2:0]',
  'all[0-1]',
  'cluster[-2]',
  '*[1:0]',
  'win*[0]',
  'tor[1:2]',
  'cluster:&tor[0]',
  'edge[2:4:2]',
  'tor1 tor2',
  'tor:&windows',
];

for (const pattern of AGREE) {
  test(`oracle: ${pattern}`, async (t) => {
    requireAnsible();
    const ansible = await ansibleListHosts(FILE, pattern);
    t.deepEqual(
      selectHosts(inv, pattern).map((h) => h.name),
      ansible.hosts,
    );
  });
}

// Ansible warns "Could not match supplied host pattern, ignoring: TERM" and goes on; we refuse.
const REFUSE: [pattern: string, term: string][] = [
  ['nope', 'nope'],
  ['tor:!nope', 'nope'],
  ['TOR', 'TOR'],
  ['zz0[12]', 'zz0'],
  ['tor1:22', 'tor1:22'],
  ['mon[b-a]', 'mon[b-a]'],
];

for (const [pattern, term] of REFUSE) {
  test(`oracle: ${pattern} matches nothing in ansible, and is refused here`, async (t) => {
    requireAnsible();
    const ansible = await ansibleListHosts(FILE, pattern);
    t.true(ansible.warnings.includes(`Could not match supplied host pattern, ignoring: ${term}`), ansible.warnings);
    const e = t.throws(() => selectHosts(inv, pattern), { instanceOf: UsageError });
    t.true(e.message.includes(`'${term}' matches no host or group`), e.message);
  });
}

// The one place play answers where ansible gives nothing: a subscript on a base that matches nothing
// is read as the glob character class it looks like (a --limit such as 'node00[89]').
test('oracle: db0[12] matches nothing in ansible; play reads it as a glob', async (t) => {
  requireAnsible();
  const ansible = await ansibleListHosts(FILE, 'db0[12]');
  t.deepEqual(ansible.hosts, []);
  t.deepEqual(
    selectHosts(inv, 'db0[12]').map((h) => h.name),
    selectHosts(inv, 'db0?')
      .map((h) => h.name)
      .filter((n) => /^db0[12]$/.test(n)),
  );
  t.true(selectHosts(inv, 'db0[12]').length > 0);
});

test("oracle: @file as --limit gives ansible's hosts, and reads like the same terms inline", async (t) => {
  requireAnsible();
  const dir = mkdtempSync(join(tmpdir(), 'play-limit-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'canary.txt');
  writeFileSync(file, 'windows\n!node010\ntor1\n');
  const limited = await ansibleListHosts(FILE, 'all', ['--limit', `@${file}`]);
  const mine = new Set(selectHosts(inv, '@canary.txt', { cwd: dir }).map((h) => h.name));
  t.deepEqual(
    selectHosts(inv, 'all')
      .map((h) => h.name)
      .filter((n) => mine.has(n)),
    limited.hosts,
  );
  const inline = await ansibleListHosts(FILE, 'windows:!node010:tor1');
  t.deepEqual([...mine], inline.hosts);
});

test('oracle: split_host_pattern', (t) => {
  const patterns = [
    'a:b',
    'a,b:c',
    'web[1:3]',
    'web[1:3]:db',
    'fe80::1',
    '[fe80::1]:22',
    'host:2222',
    '10.0.0.1:22',
    'a:b]',
    ' a : b ',
    'a b',
    '1:2:3:4:5:6:7:8',
    'x[1:2]y:z',
    'node0[89]',
    '',
    ',',
    '~a.*:b',
  ];
  const theirs = ansiblePython<string[][]>(
    'from ansible.inventory.manager import split_host_pattern\nresult = [split_host_pattern(p) for p in data]',
    patterns,
  );
  t.deepEqual(
    patterns.map((p) => splitHostPattern(p)),
    theirs,
  );
});
