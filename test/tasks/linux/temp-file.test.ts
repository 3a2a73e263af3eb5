// A file's temp file (tasks/linux/fs-write.ts): in a kept shell the shell makes it under a name built
// from `$play_private` (on no command line), exclusively, with its mode from the umask; a script sent
// as an exec has no such value and uses mktemp and chmod. The same files either way, the programs
// each path runs counted with strace, and what is planted at a name is never written through.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import test from 'ava';
import { atomicWriteScript, umaskFor } from '../../../tasks/linux/fs-write.js';
import { file } from '../../../tasks/linux/index.js';
import { commandText } from '../../../runner/transport/kept-shell.js';
import { localHost, plan, removeHosts, tree } from './local-remote.js';

const logDir = mkdtempSync(join(tmpdir(), 'play-temp-file-'));
test.after.always('remove the temp directories', () => {
  removeHosts();
  rmSync(logDir, { recursive: true, force: true });
});

const modeOf = (path: string) => (statSync(path).mode & 0o7777).toString(8).padStart(4, '0');

test('umaskFor: the umask that creates a mode, none for an execute or a special bit', (t) => {
  const modes = ['0644', '0640', '0600', '0400', '0666', '0000', '0755', '0700', '0744', '4644', '2640', '1600'];
  t.deepEqual(modes.map(umaskFor), [
    '0133',
    '0137',
    '0177',
    '0377',
    '0111',
    '0777',
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
});

test('a new file gets exactly its mode either way; a kept shell runs no mktemp, and a chmod only for an execute or special bit', async (t) => {
  const strace = spawnSync('strace', ['-V']);
  t.is(strace.status, 0, 'strace is needed to count the programs a write runs');
  const modes = ['0644', '0640', '0600', '0400', '0666', '0000', '0755', '4644', '1600'];
  const rows = [];
  for (const kept of [false, true]) {
    const log = join(logDir, `execve-${kept}.log`);
    const h = localHost(['strace', '-f', '-A', '-qq', '-e', 'trace=execve', '-e', 'signal=none', '-o', log], kept);
    for (const mode of modes) {
      const path = join(h.root, `mode-${mode}`);
      const step = file({ path, content: `mode ${mode}\n`, mode });
      const { actual, change } = await plan(h, step);
      writeFileSync(log, '');
      await step.apply(h, change, actual, step.desired);
      const programs = [...readFileSync(log, 'utf8').matchAll(/execve\("([^"]+)"/g)]
        .map((m) => basename(m[1]!))
        .filter((p) => p !== 'sh' && p !== 'strace');
      t.is(readFileSync(path, 'utf8'), `mode ${mode}\n`, mode);
      t.is((await plan(h, step)).change.action, 'noop', mode);
      rows.push([kept ? 'kept shell' : 'exec', mode, modeOf(path), programs.join(' ')]);
    }
    t.deepEqual(
      tree(h.root).filter((p) => p.includes('.play-')),
      [],
      'no temp file is left',
    );
  }
  t.deepEqual(rows, [
    ...modes.map((m) => ['exec', m, m, 'mktemp chmod mv']),
    ...modes.map((m) => ['kept shell', m, m, umaskFor(m) === null ? 'chmod mv' : 'mv']),
  ]);
});

test('in a kept shell nothing planted at the temp name is written through', (t) => {
  const dir = mkdtempSync(join(logDir, 'planted-'));
  const regular = join(dir, 'elsewhere');
  writeFileSync(regular, 'untouched\n');
  const fifo = join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  // A symlink to a regular file, to a device, to a FIFO (a shell's noclobber opens the last two as
  // they are), and to nothing: one who knew `$play_private` could have put it there.
  const rows: [string, string][] = [
    ['a regular file', regular],
    ['a device', '/dev/null'],
    ['a FIFO', fifo],
    ['nothing', join(dir, 'nowhere')],
  ];
  for (const [what, target] of rows) {
    const path = join(dir, `guarded-${what.replace(/ /g, '-')}.conf`);
    const script = atomicWriteScript({ path, content: 'x\n', mode: '0644' }).text;
    const suffix = /"\$play_private"'?(-[0-9a-f]+)/.exec(script)![1]!;
    const tmp = join(dir, `.play-known${suffix}`);
    symlinkSync(target, tmp);
    const run = spawnSync('/bin/sh', ['-ec', `play_private=known\n${script}`], { encoding: 'utf8', timeout: 10_000 });
    t.is(run.status, 73, what);
    t.regex(run.stderr, /already there/, what);
    t.false(existsSync(path), what);
    t.true(lstatSync(tmp).isSymbolicLink(), `${what}: the planted link is left as it was`);
  }
  t.is(readFileSync(regular, 'utf8'), 'untouched\n');
  t.false(existsSync(join(dir, 'nowhere')));
});

test('a read-only mode is written by a user who is not root: as an exec, and in a kept shell in one open', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-nobody-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  chmodSync(dir, 0o777);
  const paths = {
    exec: (text: string) => text,
    'kept shell': (text: string) => commandText(text, 'n0nce'),
  };
  for (const [how, wrap] of Object.entries(paths)) {
    const path = join(dir, `read-only-${how.replace(' ', '-')}.conf`);
    const script = wrap(atomicWriteScript({ path, content: 'kept\n', mode: '0400' }).text);
    const run = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '/bin/sh', '-ec', script], {
      encoding: 'utf8',
    });
    t.is(run.status, 0, `${how}: ${run.stderr}`);
    t.is(readFileSync(path, 'utf8'), 'kept\n', how);
    t.is(modeOf(path), '0400', how);
    t.is(statSync(path).uid, 65534, how);
  }
});

test("a kept shell's $play_private: fresh per command, in its subshell only, in no program's environment", (t) => {
  const probe = 'echo "$play_private"; env | grep -c play_private || true';
  const outer = 'echo "after=${play_private-unset}"';
  const runs = [1, 2].map(() =>
    execFileSync('/bin/sh', ['-c', `${commandText(probe, 'n0nce')}${outer}\n`], { encoding: 'utf8' }).split('\n'),
  );
  for (const [value, inEnv, after] of runs) {
    t.regex(value!, /^[0-9a-f]{18}$/);
    t.is(inEnv, '0');
    t.is(after, 'after=unset');
  }
  t.not(runs[0]![0], runs[1]![0]);
});
