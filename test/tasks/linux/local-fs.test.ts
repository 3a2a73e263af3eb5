// The filesystem steps' real scripts, run with the local /bin/sh in a temp directory (see
// local-remote.ts): hostile names and contents must land as literal text, nothing else may be
// created or executed, and what the plan said is exactly what apply did.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Secret } from '../../../runner/core/secret.js';
import { INLINE_CONTENT_LIMIT } from '../../../tasks/linux/fs-write.js';
import type { AnyStep } from '../../../runner/core/step.js';
import { directory, file, lineInFile } from '../../../tasks/linux/index.js';
import { converge, HOSTILE, localHost, plan, removeHosts, probeAll, tree } from './local-remote.js';

const [H1, H2, H3] = HOSTILE;
const pwnedBefore = existsSync('/tmp/pwned');
const uid = String(process.getuid!()),
  gid = String(process.getgid!());
const modeOf = (p: string) => (statSync(p).mode & 0o7777).toString(8).padStart(4, '0');

test.after.always('remove the temp directories', removeHosts);

test.afterEach.always('no injected command ran', (t) => {
  if (!pwnedBefore) t.false(existsSync('/tmp/pwned'), '/tmp/pwned was created');
});

test('hostile paths, names, contents and lines land literally; a second run is all noop', async (t) => {
  const h = localHost();
  const d = join(h.root, H1, H2 + H3); // nested: "x'; touch " / "tmp" / "pwned; echo '" / "$(reboot)`id`"
  const f = `${d}/${H2} ${H3}`,
    ini = `${d}/${H1.replace(/\//g, '_')}.ini`;
  const content = `${H1}\n${H2}\n${H3}\n"$HOME" \\ * ${'\u2018'}\n`;
  const steps: AnyStep[] = [
    directory({ path: d, mode: '0750', owner: uid, group: gid }),
    file({ path: f, content, mode: '0640', owner: uid, group: gid }),
    lineInFile({ path: ini, line: H1, regexp: '^x', create: true }),
    lineInFile({ path: ini, line: H2 }),
  ];
  for (const s of steps) {
    const { change, rest } = await converge(h, s);
    t.not(change.action, 'noop', s.title);
    t.is(rest.action, 'noop', s.title);
  }
  const again = await probeAll(h, steps); // batched, as the runner does
  for (const [i, s] of steps.entries()) t.is(s.diff(s.desired, again[i]).action, 'noop', s.title);

  t.is(readFileSync(f, 'utf8'), content);
  t.is(readFileSync(ini, 'utf8'), `${H1}\n${H2}\n`);
  t.is(modeOf(d), '0750');
  t.is(modeOf(f), '0640');
  const rel = relative(h.root, d);
  t.deepEqual(
    tree(h.root),
    [
      "x'; touch /",
      "x'; touch /tmp/",
      "x'; touch /tmp/pwned; echo '/",
      `${rel}/`,
      relative(h.root, ini),
      relative(h.root, f),
    ].sort(),
  );
  t.deepEqual(h.executed(), []);
});

test("file update: the plan's text diff is exactly what apply writes; unmanaged mode is kept", async (t) => {
  const h = localHost();
  const path = join(h.root, `${H1.replace(/\//g, '_')} ${H2}`);
  writeFileSync(path, 'one\ntwo\nthree\n');
  chmodSync(path, 0o604);
  const s = file({ path, content: `one\n${H3}\nthree\nfour` });
  const { change } = await plan(h, s);
  const { rest } = await converge(h, s);
  t.is(rest.action, 'noop');
  t.is(readFileSync(path, 'utf8'), `one\n${H3}\nthree\nfour`);
  t.is(modeOf(path), '0604');
  // patch(1) applies the plan's diff to the old content and gets what apply wrote.
  const copy = join(h.root, 'copy');
  writeFileSync(copy, 'one\ntwo\nthree\n');
  execFileSync('patch', ['-s', copy], { input: change.textDiff });
  t.is(readFileSync(copy, 'utf8'), readFileSync(path, 'utf8'));
  t.deepEqual(h.executed(), []);
});

test('file: attributes alone are set by their own setters, content untouched', async (t) => {
  const h = localHost();
  const path = join(h.root, H2);
  writeFileSync(path, 'keep\n');
  chmodSync(path, 0o600);
  // As root the owner and group setters run too (the file is given away first).
  const root = uid === '0';
  if (root) execFileSync('chown', ['1:1', path]);
  const s = file({ path, content: 'keep\n', mode: '0644', owner: uid, group: gid });
  const { change, rest } = await converge(h, s);
  t.deepEqual([...change.fields], root ? ['mode', 'owner', 'group'] : ['mode']);
  t.is(rest.action, 'noop');
  t.is(modeOf(path), '0644');
  t.is(readFileSync(path, 'utf8'), 'keep\n');
  t.deepEqual(tree(h.root), [H2]);
});

test('file: secret content travels on stdin only and is masked in the plan', async (t) => {
  const h = localHost();
  const path = join(h.root, 'token');
  const value = `tok-${H1}-${Date.now()}\n`;
  const s = file({ path, content: new Secret(value, 'env:TOKEN'), mode: '0600' });
  const { change, rest } = await converge(h, s);
  t.is(rest.action, 'noop');
  t.is(readFileSync(path, 'utf8'), value);
  t.is(modeOf(path), '0600');
  t.false(JSON.stringify(change).includes('tok-'));
  t.false(
    h.scripts.some((text) => text.includes('tok-')),
    'the secret reached a command line',
  );
  // Rotating it: the probe brings back the old file's digest, not its content.
  const next = file({ path, content: new Secret(`rotated-${Date.now()}\n`, 'env:TOKEN'), mode: '0600' });
  const p = await plan(h, next);
  t.is(p.actual!.content, null);
  t.deepEqual([...p.change.fields], ['content']);
  t.is((await converge(h, next)).rest.action, 'noop');
});

test('a new file is 0666 & ~umask when its mode is not managed', async (t) => {
  const h = localHost();
  const path = join(h.root, 'new');
  await converge(h, file({ path, content: '' }));
  const umask = process.umask();
  t.is(modeOf(path), (0o666 & ~umask).toString(8).padStart(4, '0'));
});

test('lineInFile: a file changed after the probe is not overwritten', async (t) => {
  const h = localHost();
  const path = join(h.root, H3);
  writeFileSync(path, 'port=80\n');
  const s = lineInFile({ path, line: 'port=8080', regexp: '^port=' });
  const { actual, change } = await plan(h, s);
  writeFileSync(path, 'port=81\nedited=by someone else\n');
  await t.throwsAsync(() => s.apply(h, change, actual, s.desired), {
    message: /changed since it was probed; not overwriting it/,
  });
  t.is(readFileSync(path, 'utf8'), 'port=81\nedited=by someone else\n');
  t.deepEqual(tree(h.root), [H3]); // the temp file was removed
  // Re-planning from the new content converges.
  t.is((await converge(h, s)).rest.action, 'noop');
  t.is(readFileSync(path, 'utf8'), 'port=8080\nedited=by someone else\n');
});

test('lineInFile: a file created after the probe is not overwritten either', async (t) => {
  const h = localHost();
  const path = join(h.root, 'late');
  const s = lineInFile({ path, line: 'a', create: true });
  const { actual, change } = await plan(h, s);
  writeFileSync(path, 'b\n');
  await t.throwsAsync(() => s.apply(h, change, actual, s.desired), { message: /changed since it was probed/ });
  t.is(readFileSync(path, 'utf8'), 'b\n');
});

test('lineInFile: create false and a missing file fails in apply, creating nothing', async (t) => {
  const h = localHost();
  const s = lineInFile({ path: join(h.root, 'missing'), line: 'a' });
  const { actual, change } = await plan(h, s);
  t.deepEqual(change.warnings, [`${join(h.root, 'missing')} does not exist and create is false: apply will fail`]);
  await t.throwsAsync(() => s.apply(h, change, actual, s.desired), {
    message: /does not exist and create is false: set create: true/,
  });
  t.deepEqual(tree(h.root), []);
});

test('lineInFile: mode and ownership of the edited file are kept', async (t) => {
  const h = localHost();
  const path = join(h.root, 'conf');
  writeFileSync(path, 'a\n');
  chmodSync(path, 0o640);
  await converge(h, lineInFile({ path, line: 'b' }));
  t.is(readFileSync(path, 'utf8'), 'a\nb\n');
  t.is(modeOf(path), '0640');
});

test('refusals on a real filesystem: a file where a directory should be, a link where a file should be', async (t) => {
  const h = localHost();
  const notDir = join(h.root, 'plain');
  writeFileSync(notDir, 'x');
  const d = directory({ path: notDir });
  const pd = await plan(h, d);
  t.regex(pd.change.warnings![0]!, /is a regular file, not a directory/);
  await t.throwsAsync(() => d.apply(h, pd.change, pd.actual, d.desired), { message: /refusing to replace it/ });

  const target = join(h.root, 'target');
  writeFileSync(target, 'original\n');
  const link = join(h.root, 'link');
  symlinkSync(target, link);
  const linked: AnyStep[] = [file({ path: link, content: 'new\n' }), lineInFile({ path: link, line: 'new' })];
  for (const s of linked) {
    const p = await plan(h, s);
    t.regex(p.change.warnings![0]!, /is a symbolic link, not a regular file/);
    await t.throwsAsync(() => s.apply(h, p.change, p.actual, s.desired), { message: /refusing/ });
  }
  t.is(readFileSync(target, 'utf8'), 'original\n');
  t.deepEqual(tree(h.root), ['link', 'plain', 'target']);
});

test('directory: made with its mode at once, a chmod only for a special bit it has or should have', async (t) => {
  const h = localHost();
  const shared = join(h.root, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o2775); // a setgid parent passes its bit on to new directories
  const rows: [string, string][] = [
    [join(h.root, 'plain'), '0750'],
    [join(h.root, 'deep/er/still'), '0700'],
    [join(shared, 'child'), '0755'],
    [join(h.root, 'sticky'), '1777'],
  ];
  const got = [];
  for (const [path, mode] of rows) {
    const before = h.scripts.length;
    const { rest } = await converge(h, directory({ path, mode }));
    t.is(rest.action, 'noop', path);
    const chmodAlways = h.scripts.slice(before).some((s) => /\bchmod\b/.test(s) && !/then chmod/.test(s));
    got.push([modeOf(path), chmodAlways]);
  }
  // Only the sticky mode is set by a chmod of its own. The setgid parent's child comes out of mkdir as
  // 2755; the chmod that runs only then clears it.
  t.deepEqual(got, [
    ['0750', false],
    ['0700', false],
    ['0755', false],
    ['1777', true],
  ]);
  t.is(modeOf(join(shared, 'child')), '0755', 'the inherited setgid bit is cleared');
});

test('directory: a symlink to a directory is that directory; a setgid bit is really cleared', async (t) => {
  const h = localHost();
  const real = join(h.root, 'real');
  mkdirSync(real);
  chmodSync(real, 0o2775);
  symlinkSync(real, join(h.root, 'alias'));
  const { change, rest } = await converge(h, directory({ path: join(h.root, 'alias'), mode: '0755' }));
  t.deepEqual(change.before, { mode: '2775' });
  t.is(rest.action, 'noop');
  t.is(modeOf(real), '0755');
});

test('file: a rewrite sets the attributes on the new file once, with no setter after it', async (t) => {
  const h = localHost();
  const f = join(h.root, 'new.conf');
  const { change, rest } = await converge(h, file({ path: f, content: 'x\n', mode: '0640', owner: uid, group: gid }));
  t.deepEqual(change.fields, ['content', 'mode', 'owner', 'group']);
  t.is(rest.action, 'noop');
  const apply = h.scripts.find((s) => s.includes('> "$play_tmp"'))!;
  const count = (re: RegExp) => (apply.match(re) ?? []).length;
  // One chown for owner and group in each of the write's branches (the kept shell's, mktemp's); the
  // kept shell's makes the file with its mode, so only mktemp's has a chmod.
  t.deepEqual([count(/\bchmod\b/g), count(/\bchown\b/g), count(/\bchgrp\b/g)], [1, 2, 0]);
  t.is(modeOf(f), '0640');
});

test('file: a new file gets exactly its mode, special bits included, and no temp file is left', async (t) => {
  const h = localHost();
  const modes = ['0644', '0640', '0600', '0400', '0666', '0000', '0755', '4644', '1600'];
  const got = [];
  for (const mode of modes) {
    const path = join(h.root, `mode-${mode}`);
    const { rest } = await converge(h, file({ path, content: `mode ${mode}\n`, mode }));
    t.is(rest.action, 'noop', mode);
    t.is(readFileSync(path, 'utf8'), `mode ${mode}\n`, mode);
    got.push(modeOf(path));
  }
  t.deepEqual(got, modes);
  t.deepEqual(
    tree(h.root).filter((p) => p.includes('.play-')),
    [],
    'no temp file is left',
  );
});

test('file: small text is written by the script itself, large or NUL-holding content from stdin, byte for byte', async (t) => {
  const h = localHost();
  const cases: [string, string, 'script' | 'stdin'][] = [
    ['printf specials', `100% \\n %s %b \\0 '"' $(id) \`id\` no newline at the end`, 'script'],
    ['UTF-8 and a leading dash', '-n \u2018quoted\u2019 caf\u00e9\n\n', 'script'],
    ['empty', '', 'script'],
    ['at the limit', 'a'.repeat(INLINE_CONTENT_LIMIT), 'script'],
    ['past the limit', 'b'.repeat(INLINE_CONTENT_LIMIT + 1), 'stdin'],
    ['a NUL byte', 'before\0after\n', 'stdin'],
  ];
  for (const [name, content, via] of cases) {
    const path = join(h.root, name.replace(/ /g, '-'));
    const before = h.scripts.length;
    const { rest } = await converge(h, file({ path, content, mode: '0644' }));
    t.is(rest.action, 'noop', name);
    t.deepEqual(readFileSync(path), Buffer.from(content), name);
    const apply = h.scripts.slice(before).find((s) => s.includes('> "$play_tmp"'))!;
    t.is(apply.includes('cat > "$play_tmp"') ? 'stdin' : 'script', via, name);
  }
});

test('lineInFile: the edited text is written by the script itself', async (t) => {
  const h = localHost();
  const path = join(h.root, 'settings.ini');
  writeFileSync(path, "name=100% \\ 'x'\nport=80\n");
  const s = lineInFile({ path, line: 'port=8080', regexp: '^port=' });
  const before = h.scripts.length;
  const { rest } = await converge(h, s);
  t.is(rest.action, 'noop');
  t.is(readFileSync(path, 'utf8'), "name=100% \\ 'x'\nport=8080\n");
  t.false(h.scripts.slice(before).some((text) => text.includes('cat > "$play_tmp"')));
});

test('owner and group named as a directory service names them (spaces, @): plan, apply, then nothing to do', async (t) => {
  // The names live in copies of /etc/passwd and /etc/group bound over the real ones in a mount
  // namespace of each script alone (root, as the tests are): the machine's files are not touched.
  const files = localHost();
  const passwd = join(files.root, 'passwd');
  const group = join(files.root, 'group');
  writeFileSync(
    passwd,
    `${readFileSync('/etc/passwd', 'utf8')}alice@corp.example:x:4242:4242::/nonexistent:/bin/false\n`,
  );
  writeFileSync(group, `${readFileSync('/etc/group', 'utf8')}alice@corp.example:x:4242:\ndomain users:x:4243:\n`);
  const bind = 'mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/group && shift 2 && exec "$@"';
  const h = localHost(['unshare', '-m', 'sh', '-c', bind, 'sh', passwd, group]);
  const path = join(h.root, 'shared');
  writeFileSync(path, 'x\n');
  const steps = [
    file({ path, content: 'x\n', owner: 'alice@corp.example', group: 'domain users' }),
    directory({ path: join(h.root, 'd'), owner: 'alice@corp.example', group: 'domain users' }),
  ];
  const runs = [];
  for (const step of steps) {
    const { change, rest } = await converge(h, step);
    runs.push([change.action, change.fields, rest.action]);
  }
  t.deepEqual(runs, [
    ['update', ['owner', 'group'], 'noop'],
    ['create', ['exists', 'owner', 'group'], 'noop'],
  ]);
  t.deepEqual([statSync(path).uid, statSync(path).gid], [4242, 4243]);
  t.deepEqual([statSync(join(h.root, 'd')).uid, statSync(join(h.root, 'd')).gid], [4242, 4243]);
});
