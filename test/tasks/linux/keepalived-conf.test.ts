// keepalivedConf's probe output and pure diff: the plan shows changed VIP lines, never a password.
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { MASK, Secret } from '../../../runner/core/secret.js';
import type { FsEntry } from '../../../tasks/linux/fs-probe.js';
import { keepalivedConf, type KeepalivedConfActual } from '../../../tasks/linux/keepalived-conf.js';
import { renderKeepalivedConfMasked, validateKeepalivedConfig } from '../../../tasks/linux/keepalived-model.js';
import { fieldNoteConfig, labConfig } from './keepalived-fixtures.js';

const out = (stdout: string) => ({ stdout, stderr: '', code: 0 });
const b64 = (s: string) => Buffer.from(s).toString('base64');
const PATH = '/etc/keepalived/keepalived.conf';
const step = (vips = ['198.18.6.1'], pass = 'lab-pass') => keepalivedConf({ config: labConfig(vips, pass) });
const parse = (s: string) => step().probe().parse(out(s)) as KeepalivedConfActual;
const masked = (vips: string[]) => renderKeepalivedConfMasked(validateKeepalivedConfig(labConfig(vips)).config);
const stat = (mode = '640', owner = 'root') => `stat ${mode} 0 0 400 ${owner}:root`;
const fileEntry = (sha256: string, mode = '0640'): FsEntry => ({
  type: 'file',
  stat: { mode, uid: '0', gid: '0', owner: 'root', group: 'root', size: 400 },
  sha256,
  content: null,
});
const actual = (sha256: string, maskedText: string | null, mode = '0640', keepalived = true): KeepalivedConfActual => ({
  file: fileEntry(sha256, mode),
  maskedText,
  keepalived,
});

test('probe: absent, a file with its masked text, a large one, a symlink; keepalived present or not', (t) => {
  t.deepEqual(parse('type absent\nkeepalived present\n'), { file: null, maskedText: null, keepalived: true });
  const sum = 'b'.repeat(64);
  const a = parse(
    `type file\n${stat()}\nsha256 ${sum}\nmasked\n${b64('auth_pass ********\n')}\nend\nkeepalived absent\n`,
  );
  t.deepEqual(a, actual(sum, 'auth_pass ********\n', '0640', false));
  t.is(parse(`type file\n${stat()}\nsha256 ${sum}\nmasked none\nkeepalived present\n`).maskedText, null);
  t.is(
    parse(`type file\n${stat()}\nsha256 ${sum}\nmasked\n${b64('\0bin')}\nend\nkeepalived present\n`).maskedText,
    null,
    'not text',
  );
  t.deepEqual(parse('type symlink\nkeepalived present\n').file!.type, 'symlink');
});

test('probe: junk is an error, not a guess', (t) => {
  t.throws(() => parse('type absent\n'), { message: /output ended where 'keepalived' was expected/ });
  t.throws(() => parse(`type file\n${stat()}\nkeepalived present\n`), { message: /expected 'sha256'/ });
  t.throws(() => parse(`type file\n${stat()}\nsha256 xyz\nmasked none\nkeepalived present\n`), {
    message: /malformed 'sha256'/,
  });
  t.throws(() => parse(`type file\n${stat()}\nsha256 ${'a'.repeat(64)}\nmasked\n!!\nend\nkeepalived present\n`), {
    message: /not base64/,
  });
  t.throws(() => parse('type absent\nkeepalived maybe\n'), { message: /unknown keepalived state/ });
});

test("create: every field, the masked new text as the diff, the validator's warnings", (t) => {
  const s = keepalivedConf({ config: fieldNoteConfig() });
  const c = s.diff(s.desired, { file: null, maskedText: null, keepalived: true });
  t.is(c.action, 'create');
  t.deepEqual([...c.fields], ['content', 'mode', 'owner', 'group']);
  t.deepEqual(c.after, { content: MASK, mode: '0640', owner: 'root', group: 'root' });
  t.true(
    c.textDiff!.startsWith(`--- /dev/null\n+++ ${PATH}\n@@ -0,0 +1,31 @@\n+! Configuration File for keepalived\n`),
  );
  t.true(c.textDiff!.includes(`+        auth_pass ${MASK}\n`));
  t.is(c.warnings!.length, 4);
  t.false(JSON.stringify(c).includes('lvs#'), 'the password is in the plan');
});

test('update: a new VIP shows as its own line; the password stays masked on both sides', (t) => {
  const s = step(['198.18.6.1', '198.18.7.1']);
  const c = s.diff(s.desired, actual('a'.repeat(64), masked(['198.18.6.1'])));
  t.is(c.action, 'update');
  t.deepEqual([...c.fields], ['content']);
  t.deepEqual(c.before, { content: MASK });
  t.deepEqual(
    c.textDiff!.split('\n').filter((l) => /^[-+][^-+]/.test(l)),
    ['+        198.18.7.1/24 dev eth1 label eth1:2'],
  );
  t.false(JSON.stringify(c).includes('lab-pass'));
  t.is(c.warnings, undefined);
});

test('noop when the digest and attributes match; mode alone is its own field', (t) => {
  const s = step();
  t.deepEqual(s.diff(s.desired, actual(s.desired.sha256, masked(['198.18.6.1']))), {
    action: 'noop',
    fields: [],
    before: null,
    after: null,
  });
  const c = s.diff(s.desired, actual(s.desired.sha256, masked(['198.18.6.1']), '0644'));
  t.deepEqual([...c.fields], ['mode']);
  t.deepEqual(c.before, { mode: '0644' });
  t.is(c.textDiff, undefined);
});

test('a changed password alone: no text diff, a warning saying so', (t) => {
  const s = step(['198.18.6.1'], 'new-pass');
  const c = s.diff(s.desired, actual('c'.repeat(64), masked(['198.18.6.1'])));
  t.deepEqual([...c.fields], ['content']);
  t.is(c.textDiff, undefined);
  t.deepEqual(c.warnings, ['only the masked auth_pass line differs']);
});

test('plan warnings: keepalived missing; a directory at the path is never replaced', (t) => {
  const s = step();
  const missing = s.diff(s.desired, { file: null, maskedText: null, keepalived: false });
  t.regex(missing.warnings!.join('\n'), /\/usr\/sbin\/keepalived is not installed: apply cannot test/);
  const dir: FsEntry = { type: 'directory', stat: fileEntry('').stat, sha256: null, content: null };
  const blocked = s.diff(s.desired, { file: dir, maskedText: null, keepalived: true });
  t.regex(blocked.warnings![0]!, /is a directory, not a regular file: apply will refuse/);
});

test('options: path, binary and attributes; a wrong config names its field', (t) => {
  const s = keepalivedConf({
    path: '/srv/k.conf',
    config: labConfig(),
    keepalivedBin: '/opt/k/sbin/keepalived',
    mode: '600',
    owner: 'keepalived',
    group: '0',
  });
  t.like(s.desired, {
    path: '/srv/k.conf',
    keepalivedBin: '/opt/k/sbin/keepalived',
    mode: '0600',
    owner: 'keepalived',
    group: '0',
  });
  t.is(s.title, 'keepalived.conf /srv/k.conf');
  t.true(s.desired.content instanceof Secret);
  const bad = { ...labConfig(), vips: [] };
  t.throws(() => keepalivedConf({ config: bad }), {
    instanceOf: StepOptionError,
    message: /linux\.keepalivedConf: option 'config\.vips'/,
  });
  t.throws(() => keepalivedConf({ config: labConfig(), path: 'keepalived.conf' }), {
    message: /option 'path' must be an absolute path/,
  });
  t.throws(() => keepalivedConf({ config: labConfig(), restart: true } as any), {
    message: /option 'restart' is not an option/,
  });
  // The probe script carries no secret: it is sent on a command line.
  t.false(s.probe().script.text.includes('lab-pass'));
});
