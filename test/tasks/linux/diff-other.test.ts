// Pure diff tables of command and sysctl.
import test from 'ava';
import { command, sysctl } from '../../../tasks/linux/index.js';
import { sha256Hex } from '../../../tasks/linux/fs-probe.js';
import type { SysctlActual } from '../../../tasks/linux/sysctl.js';
import type { EditableFile } from '../../../tasks/linux/text-file.js';

test('command with creates: noop when it exists, run when not', (t) => {
  const s = command({ command: ['touch', '/srv/it is done'], creates: '/srv/it is done' });
  t.is(s.diff(s.desired, { createsExists: true }).action, 'noop');
  t.deepEqual(s.diff(s.desired, { createsExists: false }), {
    action: 'run',
    fields: ['command'],
    before: null,
    after: { command: "touch '/srv/it is done'" },
  });
});

test('command without creates: always run; a shell string is shown as written', (t) => {
  const s = command({ command: 'echo hi | tr a-z A-Z' });
  t.deepEqual(s.diff(s.desired, null), {
    action: 'run',
    fields: ['command'],
    before: null,
    after: { command: 'echo hi | tr a-z A-Z' },
  });
  t.is(s.title, 'command echo hi | tr a-z A-Z');
  t.deepEqual(s.outputs!(s.desired, null), { stdout: '', stderr: '', code: null });
});

const KEY = 'net.ipv4.ip_forward',
  FILE = '/etc/sysctl.d/99-play.conf';
const confFile = (text: string): EditableFile => ({
  type: 'file',
  text,
  entry: {
    type: 'file',
    stat: { mode: '0644', uid: '0', gid: '0', owner: 'root', group: 'root', size: text.length },
    sha256: sha256Hex(text),
    content: Buffer.from(text),
  },
});
const actual = (live: string | null, text: string | null): SysctlActual => ({
  live,
  persisted: text === null ? null : (/ip_forward\s*=\s*(\S+)/.exec(text)?.[1] ?? null),
  file: text === null ? null : confFile(text),
});

const sysctlTable: {
  name: string;
  value: string | number;
  actual: SysctlActual;
  fields: string[];
  before?: object;
  after?: object;
  textDiff?: string;
  warnings?: string[];
}[] = [
  { name: 'both equal', value: 1, actual: actual('1', `${KEY} = 1\n`), fields: [] },
  { name: '0 is a value: equal to a live 0 persisted as 0', value: 0, actual: actual('0', `${KEY}=0\n`), fields: [] },
  {
    name: 'live differs',
    value: 1,
    actual: actual('0', `${KEY} = 1\n`),
    fields: ['live'],
    before: { live: '0' },
    after: { live: '1' },
  },
  {
    name: 'desired 0, live 1',
    value: '0',
    actual: actual('1', `${KEY} = 0\n`),
    fields: ['live'],
    before: { live: '1' },
    after: { live: '0' },
  },
  {
    name: 'file absent: persisted null, created',
    value: 1,
    actual: actual('1', null),
    fields: ['persisted'],
    before: { persisted: null },
    after: { persisted: '1' },
    textDiff: `--- /dev/null\n+++ ${FILE}\n@@ -0,0 +1 @@\n+${KEY} = 1\n`,
  },
  {
    name: 'persisted differs: the line is rewritten',
    value: 1,
    actual: actual('1', `# x\n${KEY}=0\n`),
    fields: ['persisted'],
    before: { persisted: '0' },
    after: { persisted: '1' },
    textDiff: `--- ${FILE}\n+++ ${FILE}\n@@ -1,2 +1,2 @@\n # x\n-${KEY}=0\n+${KEY} = 1\n`,
  },
  {
    name: 'both differ, live first',
    value: 1,
    actual: actual('0', `${KEY} = 0\n`),
    fields: ['live', 'persisted'],
    before: { live: '0', persisted: '0' },
    after: { live: '1', persisted: '1' },
  },
  {
    name: 'unknown key: warned',
    value: 1,
    actual: { live: null, persisted: '1', file: confFile(`${KEY} = 1\n`) },
    fields: ['live'],
    warnings: [
      '/proc/sys/net/ipv4/ip_forward is not a kernel parameter on this host (unknown key, or its module is not loaded): apply will fail',
    ],
  },
  {
    name: 'multi-value compared normalized',
    value: '32768   60999',
    actual: { live: '32768 60999', persisted: '32768 60999', file: null },
    fields: [],
  },
];

for (const row of sysctlTable) {
  test(`sysctl diff: ${row.name}`, (t) => {
    const s = sysctl({ key: row.name.startsWith('multi') ? 'net.ipv4.ip_local_port_range' : KEY, value: row.value });
    const c = s.diff(s.desired, row.actual);
    t.is(c.action, row.fields.length ? 'update' : 'noop');
    t.deepEqual([...c.fields], row.fields);
    if (row.before) t.deepEqual(c.before, row.before);
    if (row.after) t.deepEqual(c.after, row.after);
    if (row.textDiff !== undefined) t.is(c.textDiff, row.textDiff);
    if (!row.fields.includes('persisted')) t.is(c.textDiff, undefined);
    t.deepEqual(c.warnings, row.warnings);
  });
}

test('sysctl diff: a directory where the file should be is refused', async (t) => {
  const s = sysctl({ key: KEY, value: 1 });
  const a: SysctlActual = {
    live: '0',
    persisted: null,
    file: { type: 'directory', text: null, entry: { type: 'directory', stat: null, sha256: null, content: null } },
  };
  const c = s.diff(s.desired, a);
  t.deepEqual([...c.fields], ['live', 'persisted']);
  t.deepEqual(c.before, { live: '0', persisted: '<a directory>' });
  t.regex(c.warnings![0]!, /99-play\.conf is a directory, not a regular file: apply will refuse/);
  // Nothing runs, not even the live setter: the refusal comes first.
  const remote = {
    name: 'x',
    run: () => {
      throw new Error('must not run anything');
    },
  };
  await t.throwsAsync(() => s.apply(remote, c, a, s.desired), {
    message: /is a directory, not a regular file: refusing/,
  });
});
