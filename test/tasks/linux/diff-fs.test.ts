// Pure diff tables of the filesystem steps: directory, file, lineInFile.
import test from 'ava';
import type { Action } from '../../../runner/core/change.js';
import { MASK, Secret } from '../../../runner/core/secret.js';
import { directory, file, lineInFile } from '../../../tasks/linux/index.js';
import { sha256Hex, type FsEntry, type FsStat } from '../../../tasks/linux/fs-probe.js';
import type { EditableFile } from '../../../tasks/linux/text-file.js';

const st = (over: Partial<FsStat> = {}): FsStat => ({
  mode: '0755',
  uid: '0',
  gid: '0',
  owner: 'root',
  group: 'root',
  size: 4096,
  ...over,
});
const dirEntry = (over: Partial<FsStat> = {}): FsEntry => ({
  type: 'directory',
  stat: st(over),
  sha256: null,
  content: null,
});
const fileEntry = (content: string, over: Partial<FsStat> = {}): FsEntry => ({
  type: 'file',
  stat: st({ mode: '0644', size: Buffer.byteLength(content), ...over }),
  sha256: sha256Hex(content),
  content: Buffer.from(content),
});

const dirTable: {
  name: string;
  opts: object;
  actual: FsEntry | null;
  action: Action;
  fields: string[];
  before?: object | null;
  after?: object | null;
}[] = [
  {
    name: 'absent: create with every managed field',
    opts: { path: '/d', mode: '0750', owner: 'www' },
    actual: null,
    action: 'create',
    fields: ['exists', 'mode', 'owner'],
    before: null,
    after: { exists: true, mode: '0750', owner: 'www' },
  },
  {
    name: 'absent, nothing but existence managed',
    opts: { path: '/d' },
    actual: null,
    action: 'create',
    fields: ['exists'],
    before: null,
    after: { exists: true },
  },
  {
    name: 'equal',
    opts: { path: '/d', mode: '0755', owner: 'root', group: 'root' },
    actual: dirEntry(),
    action: 'noop',
    fields: [],
  },
  {
    name: 'unmanaged attributes never differ',
    opts: { path: '/d' },
    actual: dirEntry({ mode: '0700', owner: 'x' }),
    action: 'noop',
    fields: [],
  },
  {
    name: 'mode differs',
    opts: { path: '/d', mode: '0750' },
    actual: dirEntry(),
    action: 'update',
    fields: ['mode'],
    before: { mode: '0755' },
    after: { mode: '0750' },
  },
  {
    name: 'a setgid bit is a difference',
    opts: { path: '/d', mode: '0755' },
    actual: dirEntry({ mode: '2755' }),
    action: 'update',
    fields: ['mode'],
    before: { mode: '2755' },
    after: { mode: '0755' },
  },
  {
    name: 'owner differs',
    opts: { path: '/d', owner: 'www' },
    actual: dirEntry(),
    action: 'update',
    fields: ['owner'],
    before: { owner: 'root' },
    after: { owner: 'www' },
  },
  {
    name: 'group differs',
    opts: { path: '/d', group: 'adm' },
    actual: dirEntry(),
    action: 'update',
    fields: ['group'],
    before: { group: 'root' },
    after: { group: 'adm' },
  },
  {
    name: 'numeric owner compares with the uid',
    opts: { path: '/d', owner: '0', group: '4' },
    actual: dirEntry({ gid: '4', group: 'adm' }),
    action: 'noop',
    fields: [],
  },
  {
    name: 'numeric owner differs: shown as ids',
    opts: { path: '/d', owner: '1000' },
    actual: dirEntry(),
    action: 'update',
    fields: ['owner'],
    before: { owner: '0' },
    after: { owner: '1000' },
  },
  {
    name: 'all three differ, in field order',
    opts: { path: '/d', group: 'g', owner: 'o', mode: '0700' },
    actual: dirEntry(),
    action: 'update',
    fields: ['mode', 'owner', 'group'],
  },
];

for (const row of dirTable) {
  test(`directory diff: ${row.name}`, (t) => {
    const s = directory(row.opts as any);
    const c = s.diff(s.desired, row.actual);
    t.is(c.action, row.action);
    t.deepEqual([...c.fields], row.fields);
    if (row.before !== undefined) t.deepEqual(c.before, row.before);
    if (row.after !== undefined) t.deepEqual(c.after, row.after);
    t.is(c.warnings, undefined);
  });
}

test('directory diff: a file in the way is a warned update that apply refuses', async (t) => {
  const s = directory({ path: '/d', mode: '0755' });
  const actual: FsEntry = { type: 'file', stat: st(), sha256: null, content: null };
  const c = s.diff(s.desired, actual);
  t.is(c.action, 'update');
  t.deepEqual([...c.fields], ['exists']);
  t.deepEqual(c.before, { exists: '<a regular file>' });
  t.deepEqual(c.warnings, ['/d is a regular file, not a directory: apply will refuse to replace it (remove it first)']);
  const remote = {
    name: 'x',
    run: () => {
      throw new Error('must not run anything');
    },
  };
  await t.throwsAsync(() => s.apply(remote, c, actual, s.desired), {
    message: '/d is a regular file, not a directory: refusing to replace it (remove it first)',
  });
});

test('file diff: absent is create with the content summary and a diff from /dev/null', (t) => {
  const s = file({ path: '/f', content: 'a\nb\n', mode: '0600' });
  const c = s.diff(s.desired, null);
  t.is(c.action, 'create');
  t.deepEqual([...c.fields], ['content', 'mode']);
  t.deepEqual(c.after, { content: `4 bytes, sha256 ${sha256Hex('a\nb\n').slice(0, 12)}`, mode: '0600' });
  t.is(c.textDiff, '--- /dev/null\n+++ /f\n@@ -0,0 +1,2 @@\n+a\n+b\n');
});

test('file diff: equal content and attributes is noop', (t) => {
  const s = file({ path: '/f', content: 'a\n', mode: '0644', owner: 'root', group: '0' });
  t.is(s.diff(s.desired, fileEntry('a\n')).action, 'noop');
});

test('file diff: content differs, compared by digest, with a text diff', (t) => {
  const s = file({ path: '/f', content: 'a\nB\n' });
  const c = s.diff(s.desired, fileEntry('a\nb\n'));
  t.is(c.action, 'update');
  t.deepEqual([...c.fields], ['content']);
  t.is(c.textDiff, '--- /f\n+++ /f\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n');
  // A large file comes as a digest only: the same digest is equal, another is a change without text diff.
  const large = { ...fileEntry('x'), sha256: s.desired.sha256, content: null };
  t.is(s.diff(s.desired, large).action, 'noop');
  const other = s.diff(s.desired, { ...large, sha256: 'f'.repeat(64) });
  t.deepEqual([...other.fields], ['content']);
  t.is(other.textDiff, undefined);
});

test('file diff: a binary file gets no text diff', (t) => {
  const s = file({ path: '/f', content: 'text\n' });
  const bin: FsEntry = { ...fileEntry(''), content: Buffer.from([0, 1, 2]), sha256: sha256Hex(Buffer.from([0, 1, 2])) };
  const c = s.diff(s.desired, bin);
  t.deepEqual([...c.fields], ['content']);
  t.is(c.textDiff, undefined);
});

test('file diff: each attribute alone', (t) => {
  const base = { path: '/f', content: 'a\n' };
  const cases: [object, string, unknown, unknown][] = [
    [{ mode: '0600' }, 'mode', '0644', '0600'],
    [{ owner: 'www' }, 'owner', 'root', 'www'],
    [{ group: 'adm' }, 'group', 'root', 'adm'],
  ];
  for (const [opts, field, before, after] of cases) {
    const s = file({ ...base, ...opts });
    const c = s.diff(s.desired, fileEntry('a\n'));
    t.deepEqual([...c.fields], [field]);
    t.deepEqual(c.before, { [field]: before });
    t.deepEqual(c.after, { [field]: after });
    t.is(c.textDiff, undefined);
  }
});

test('file diff: secret content is masked in before and after, and has no text diff', (t) => {
  const secret = new Secret('s3cret-token\n', 'env:TOKEN');
  const s = file({ path: '/f', content: secret, mode: '0600' });
  for (const actual of [null, fileEntry('old-token\n'), fileEntry('old-token\n', { mode: '0644' })]) {
    const c = s.diff(s.desired, actual);
    t.deepEqual(c.after!.content, MASK);
    if (actual) t.deepEqual(c.before!.content, MASK);
    t.is(c.textDiff, undefined);
    const shown = JSON.stringify(c);
    t.false(shown.includes('s3cret'));
    t.false(shown.includes('old-token'));
    t.false(shown.includes(sha256Hex('s3cret-token\n').slice(0, 12)));
  }
  t.is(s.diff(s.desired, fileEntry('s3cret-token\n', { mode: '0600' })).action, 'noop');
});

test('file diff: a directory, a link or a special file in the way is refused', (t) => {
  const s = file({ path: '/f', content: 'a' });
  for (const type of ['directory', 'symlink', 'other'] as const) {
    const c = s.diff(s.desired, { type, stat: null, sha256: null, content: null });
    t.is(c.action, 'update');
    t.regex(c.warnings![0]!, /^\/f is a .*, not a regular file: apply will refuse/);
  }
});

const editable = (text: string): EditableFile => ({ type: 'file', text, entry: fileEntry(text) });

test('lineInFile diff: absent with create, absent without (warned)', (t) => {
  const yes = lineInFile({ path: '/f', line: 'a=1', create: true });
  const c = yes.diff(yes.desired, null);
  t.deepEqual(c, {
    action: 'create',
    fields: ['line'],
    before: null,
    after: { line: 'a=1' },
    textDiff: '--- /dev/null\n+++ /f\n@@ -0,0 +1 @@\n+a=1\n',
  });
  const no = lineInFile({ path: '/f', line: 'a=1' });
  const d = no.diff(no.desired, null);
  t.is(d.action, 'create');
  t.deepEqual(d.warnings, ['/f does not exist and create is false: apply will fail']);
});

test('lineInFile diff: replace, append, noop', (t) => {
  const s = lineInFile({ path: '/f', line: 'port=8080', regexp: '^port=' });
  const replaced = s.diff(s.desired, editable('a\nport=80\n'));
  t.deepEqual(replaced.before, { line: 'port=80' });
  t.deepEqual(replaced.after, { line: 'port=8080' });
  t.is(replaced.textDiff, '--- /f\n+++ /f\n@@ -1,2 +1,2 @@\n a\n-port=80\n+port=8080\n');
  const appended = s.diff(s.desired, editable('a'));
  t.deepEqual(appended.before, { line: null });
  t.is(appended.textDiff, '--- /f\n+++ /f\n@@ -1 +1,2 @@\n-a\n\\ No newline at end of file\n+a\n+port=8080\n');
  t.is(s.diff(s.desired, editable('port=8080\n')).action, 'noop');
});

test('lineInFile diff: a directory in the way is refused', (t) => {
  const s = lineInFile({ path: '/f', line: 'x' });
  const c = s.diff(s.desired, { type: 'directory', text: null, entry: dirEntry() });
  t.regex(c.warnings![0]!, /is a directory, not a regular file/);
});
