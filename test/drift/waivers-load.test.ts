// Reading a waivers file: a valid one, the default file's absence, and every error message whole.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../../runner/core/errors.js';
import { defaultWaiversFile, loadWaivers, loadWaiversIfPresent, parseWaivers } from '../../runner/drift/waivers.js';

const GOOD = `# accepted drift
- hosts: node01*
  playbook: onboard-windows
  task: kubelet
  fields: [binPath]
  reason: "vendor hotfix, ticket OPS-123"
  expires: 2026-12-31

- hosts: tor2
  playbook: tor-gateway
  task: keepalived-conf
  reason: being replaced
  expires: "2027-01-15"
`;

const dir = mkdtempSync(join(tmpdir(), 'play-waivers-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('loading a valid file', (t) => {
  const file = write('good.yml', GOOD);
  t.deepEqual(loadWaivers(file), [
    {
      source: `${file}:2`,
      hosts: 'node01*',
      playbook: 'onboard-windows',
      task: 'kubelet',
      fields: ['binPath'],
      reason: 'vendor hotfix, ticket OPS-123',
      expires: '2026-12-31',
    },
    {
      source: `${file}:9`,
      hosts: 'tor2',
      playbook: 'tor-gateway',
      task: 'keepalived-conf',
      reason: 'being replaced',
      expires: '2027-01-15',
    },
  ]);
  t.deepEqual(parseWaivers('', 'w.yml'), []);
  t.deepEqual(parseWaivers('# nothing waived yet\n', 'w.yml'), []);
});

test('the default file may be absent; a file given explicitly may not', (t) => {
  t.is(defaultWaiversFile('inventory/lab.yaml'), 'inventory/waivers.yml');
  const missing = join(dir, 'nope.yml');
  t.deepEqual(loadWaiversIfPresent(missing), []);
  const e = t.throws(() => loadWaivers(missing), { instanceOf: InputError });
  t.is(e.message, `${missing}: cannot read the waivers file (no such file)`);
  t.is(e.exitCode, 65);
  mkdirSync(join(dir, 'adir'));
  t.throws(() => loadWaiversIfPresent(join(dir, 'adir')), {
    instanceOf: InputError,
    message: `${join(dir, 'adir')}: is a directory: expected a YAML file of waivers`,
  });
  t.is(loadWaiversIfPresent(write('present.yml', GOOD)).length, 2);
});

const ENTRY = (extra: string) =>
  `- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 2026-12-31\n${extra}`;

/** [what, file text, the whole message]. */
const errors: [string, string, string][] = [
  [
    'syntax',
    '- hosts: [node010\n',
    'w.yml:2: YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]',
  ],
  [
    'not a list',
    'hosts: node010\nplaybook: x\n',
    "w.yml:1: expected a list of waivers (entries starting with '- hosts:'), got a mapping",
  ],
  [
    'entry not a mapping',
    `${ENTRY('')}- node010\n`,
    'w.yml:6: entry 2: expected a mapping of hosts, playbook, task, reason and expires, got "node010"',
  ],
  [
    'unknown field, with a suggestion',
    ENTRY('  expiry: 2027-01-01\n'),
    "w.yml:6: entry 1: unknown field 'expiry': did you mean 'expires'? (fields: hosts, playbook, task, fields, reason, expires)",
  ],
  [
    'unknown field',
    ENTRY('  owner: ops\n'),
    "w.yml:6: entry 1: unknown field 'owner' (fields: hosts, playbook, task, fields, reason, expires)",
  ],
  [
    'reason missing',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  expires: 2026-12-31\n',
    "w.yml:1: entry 1: 'reason' is missing: say why this drift is accepted, such as `reason: vendor hotfix, ticket OPS-123`",
  ],
  [
    'expires missing',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n',
    "w.yml:1: entry 1: 'expires' is missing: give the last day it holds, such as `expires: 2026-12-31`",
  ],
  [
    'hosts, playbook and task missing',
    '- reason: hotfix\n  expires: 2026-12-31\n',
    "w.yml:1: entry 1: 'hosts' is missing: name the hosts it covers, such as `hosts: node010` or `hosts: node01*`" +
      "\n  also: w.yml:1: entry 1: 'playbook' is missing: name the playbook, such as `playbook: onboard-windows`" +
      "\n  also: w.yml:1: entry 1: 'task' is missing: name the task, such as `task: kubelet`",
  ],
  [
    'empty reason',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason: "  "\n  expires: 2026-12-31\n',
    `w.yml:4: entry 1: 'reason' must be a text saying why this drift is accepted, got "  "`,
  ],
  [
    'reason with no value',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason:\n  expires: 2026-12-31\n',
    "w.yml:4: entry 1: 'reason' must be a text saying why this drift is accepted, got nothing",
  ],
  [
    'expires not a date',
    `${ENTRY('')}- hosts: node011\n  playbook: p\n  task: t\n  reason: r\n  expires: next week\n`,
    `w.yml:10: entry 2: 'expires' must be a date like 2026-12-31, got "next week"`,
  ],
  [
    'expires a number',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 20261231\n',
    "w.yml:5: entry 1: 'expires' must be a date like 2026-12-31, got 20261231",
  ],
  [
    'expires not in the calendar',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 2027-02-29\n',
    "w.yml:5: entry 1: 'expires' 2027-02-29 is not a day of the calendar: February 2027 has 28 days",
  ],
  [
    'expires month 13',
    '- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 2027-13-01\n',
    "w.yml:5: entry 1: 'expires' 2027-13-01 is not a day of the calendar: there is no month 13",
  ],
  [
    'hosts a list',
    '- hosts: [node009, node010]\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 2026-12-31\n',
    "w.yml:1: entry 1: 'hosts' must be a host pattern such as node01* (several: node009,node010), got a list",
  ],
  [
    'hosts from a file',
    "- hosts: '@limit.txt'\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 2026-12-31\n",
    "w.yml:1: entry 1: 'hosts' cannot take hosts from a file ('@limit.txt'): write the pattern itself",
  ],
  [
    'hosts a bad regex',
    "- hosts: '~node(01'\n  playbook: onboard-windows\n  task: kubelet\n  reason: hotfix\n  expires: 2026-12-31\n",
    "w.yml:1: entry 1: 'hosts' is not a valid host pattern: invalid regular expression in '~node(01': " +
      'Invalid regular expression: /(?<![\\s\\S])(?:node(01)/: Unterminated group',
  ],
  [
    'task a number',
    '- hosts: node010\n  playbook: onboard-windows\n  task: 7\n  reason: hotfix\n  expires: 2026-12-31\n',
    "w.yml:3: entry 1: 'task' must be a task id, got 7",
  ],
  [
    'playbook a mapping',
    '- hosts: node010\n  playbook: {name: x}\n  task: kubelet\n  reason: hotfix\n  expires: 2026-12-31\n',
    "w.yml:2: entry 1: 'playbook' must be a playbook name, got a mapping",
  ],
  [
    'fields a scalar',
    ENTRY('  fields: binPath\n'),
    'w.yml:6: entry 1: \'fields\' must be a list of field names such as [binPath], got "binPath"',
  ],
  [
    'fields empty',
    ENTRY('  fields: []\n'),
    "w.yml:6: entry 1: 'fields' is empty: list the fields it covers, or leave it out to cover every field of the task",
  ],
  [
    'fields with a bad item',
    ENTRY('  fields:\n    - binPath\n    - 3\n'),
    "w.yml:8: entry 1: 'fields' item 2 must be a field name, got 3",
  ],
  [
    'duplicate key',
    '- hosts: node010\n  hosts: node011\n  playbook: p\n  task: t\n  reason: r\n  expires: 2026-12-31\n',
    'w.yml:2: YAML syntax error: Map keys must be unique',
  ],
  [
    'several problems, in file order',
    `- hosts: node010\n  playbook: p\n  task: t\n  reason: r\n  expires: soon\n  fields: x\n- 3\n`,
    `w.yml:5: entry 1: 'expires' must be a date like 2026-12-31, got "soon"` +
      `\n  also: w.yml:6: entry 1: 'fields' must be a list of field names such as [binPath], got "x"` +
      '\n  also: w.yml:7: entry 2: expected a mapping of hosts, playbook, task, reason and expires, got 3',
  ],
];

test('every load error, whole', (t) => {
  const got = errors.map(([what, text]) => {
    try {
      parseWaivers(text, 'w.yml');
      return [what, text, '(no error)'];
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      return [what, text, e.message];
    }
  });
  t.deepEqual(got, errors);
});

test('an error in a file names the file as given', (t) => {
  const file = write('bad.yml', ENTRY('  expiry: 2027-01-01\n'));
  t.throws(() => loadWaivers(file), {
    instanceOf: InputError,
    message: `${file}:6: entry 1: unknown field 'expiry': did you mean 'expires'? (fields: hosts, playbook, task, fields, reason, expires)`,
  });
});

test('the default waivers file: beside an inventory file, inside an inventory directory', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-waivers-default-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'hosts.yml'), 'all: {}\n');
  t.is(defaultWaiversFile(join(dir, 'hosts.yml')), join(dir, 'waivers.yml'));
  t.is(defaultWaiversFile(dir), join(dir, 'waivers.yml'));
});
