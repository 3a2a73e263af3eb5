// The batch's one shared stat (runner/core/shared-stat.ts): every kind of entry a file-like probe can
// meet, probed alone (its own stat) and in one batch (the shared one), gives the same output byte for
// byte; a path no shell variable could be named after is safe; and the stat paths travel with the
// scripts that embed or join a probe.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { joinScripts, sh } from '../../runner/core/quote.js';
import { namedStatVariable, sharedStatScript, statVariable } from '../../runner/core/shared-stat.js';
import { batchScript, splitBatch } from '../../runner/run/probe-batch.js';
import { fsProbeScript, type FsProbeOptions, parseFsProbe, principalMatches } from '../../tasks/linux/fs-probe.js';
import { ProbeLines } from '../../tasks/linux/probe-lines.js';

function runSh(text: string): { stdout: string; stderr: string; code: number | null } {
  const r = spawnSync('/bin/sh', ['-c', text], { encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

test('each entry probed alone and in one batch with the shared stat: the same output', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-shared-stat-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'a dir'));
  writeFileSync(join(dir, "it's a file"), 'content\n', { mode: 0o640 });
  writeFileSync(join(dir, 'new\nline'), '', { mode: 0o600 });
  symlinkSync(join(dir, "it's a file"), join(dir, 'link-to-file'));
  symlinkSync(join(dir, 'a dir'), join(dir, 'link-to-dir'));
  symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  const names = ['a dir', "it's a file", 'new\nline', 'link-to-file', 'link-to-dir', 'dangling', 'fifo', 'absent'];
  const kinds: FsProbeOptions[] = [{}, { follow: true }, { contentLimit: 100 }, { contentLimit: 2 }, { names: true }];
  const probes = names.flatMap((n) => kinds.map((o) => fsProbeScript(join(dir, n), o)));
  const alone = probes.map((p) => runSh(p.text).stdout);
  const batch = batchScript(probes, 'n0nce');
  // One probe asks for names: the shared stat has them, and the others take them out.
  t.true(batch.text.includes(namedStatVariable(join(dir, 'new\nline'))), 'the batch shares its stat, with names');
  const together = splitBatch(runSh(batch.text), 'n0nce', probes.length).map((r) => r.stdout);
  t.deepEqual(together, alone);
  // and the outputs are the ones each kind should give (a few, by name)
  t.regex(alone[names.indexOf('link-to-dir') * kinds.length + 1]!, /^type directory\nstat \d+ /);
  t.is(alone[names.indexOf('dangling') * kinds.length + 1], 'type symlink\n');
  t.is(alone[names.indexOf('fifo') * kinds.length], 'type other\n');
});

test('a failed shared stat leaves every probe to its own', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-shared-stat-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'f'), 'x');
  mkdirSync(join(dir, 'd'));
  const paths = [join(dir, 'f'), join(dir, 'd')];
  // a `stat` that fails, first on PATH for the prelude only
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'stat'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
  const prelude = sharedStatScript(paths)!;
  const vars = runSh(`PATH=${bin}:$PATH\n${prelude.text}\necho "[\${${statVariable(paths[0]!)}-unset}]"`);
  t.is(vars.stdout, '[unset]\n');
  t.is(sharedStatScript([paths[0]!]), null, 'one path: nothing to share');
});

test('the stat paths travel with the scripts that embed or join a probe, each once', (t) => {
  const a = fsProbeScript('/srv/a');
  const b = fsProbeScript('/srv/b', { follow: true });
  t.deepEqual(a.statPaths, ['/srv/a']);
  t.deepEqual(sh`if true; then ${a}; fi; ${[b, a]}`.statPaths, ['/srv/a', '/srv/b']);
  t.deepEqual(joinScripts('sh', [sh`echo live`, b, a]).statPaths, ['/srv/b', '/srv/a']);
  t.deepEqual(sh`echo ${'/srv/a'}`.statPaths, [], 'a quoted string is not a probe');
});

test('names are looked up only when a probe asks: a batch without, one with, and a mixed one print what each probe alone does', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-shared-stat-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'f'), 'x');
  mkdirSync(join(dir, 'd'));
  const [f, d] = [join(dir, 'f'), join(dir, 'd')];
  const plain: FsProbeOptions = { contentLimit: 10 };
  const named: FsProbeOptions = { follow: true, names: true };
  const parsed = (stdout: string, o: FsProbeOptions) =>
    parseFsProbe(new ProbeLines('probe', { stdout, stderr: '', code: 0 }), o);
  const statLine = (stdout: string) => stdout.split('\n')[1]!;
  const cases: { name: string; probes: [string, FsProbeOptions][]; namesInPrelude: boolean }[] = [
    {
      name: 'none asks',
      probes: [
        [f, plain],
        [d, { follow: true }],
      ],
      namesInPrelude: false,
    },
    {
      name: 'both ask',
      probes: [
        [f, { ...plain, names: true }],
        [d, named],
      ],
      namesInPrelude: true,
    },
    {
      name: 'one asks',
      probes: [
        [f, plain],
        [d, named],
      ],
      namesInPrelude: true,
    },
  ];
  for (const c of cases) {
    const probes = c.probes.map(([p, o]) => fsProbeScript(p, o));
    const alone = probes.map((p) => runSh(p.text).stdout);
    const batch = batchScript(probes, 'n0nce');
    t.is(batch.text.includes('%U:%G'), c.namesInPrelude, c.name);
    const together = splitBatch(runSh(batch.text), 'n0nce', probes.length).map((r) => r.stdout);
    t.deepEqual(together, alone, c.name);
    t.deepEqual(
      together.map((out, i) => parsed(out, c.probes[i]![1])),
      alone.map((out, i) => parsed(out, c.probes[i]![1])),
      c.name,
    );
    for (const [i, out] of alone.entries())
      t.is(statLine(out).split(' ').length, c.probes[i]![1].names ? 6 : 5, `${c.name}: ${i}`);
  }
  t.deepEqual(fsProbeScript(f, named).namedStatPaths, [f]);
  t.deepEqual(fsProbeScript(f, plain).namedStatPaths, []);
  t.deepEqual(sh`${fsProbeScript(f, plain)}; ${fsProbeScript(d, named)}`.namedStatPaths, [d], 'they travel too');
});

test('an owner given by name cannot be compared with a stat that has no names: a bug, said as one', (t) => {
  t.true(principalMatches('0', null, '0'));
  t.false(principalMatches('1000', null, '0'));
  t.throws(() => principalMatches('root', null, '0'), { message: /the probe did not ask for names/ });
  t.true(principalMatches('root', 'root', '0'));
});

test('owner and group names with spaces (a directory service group): GNU stat prints them, and they parse whole, alone and in a batch', (t) => {
  // The names come from copies of /etc/passwd and /etc/group with two more entries, bound over the
  // real ones in a mount namespace of this command alone (root, as the tests are): the machine's
  // files are not touched.
  const dir = mkdtempSync(join(tmpdir(), 'play-shared-stat-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const passwd = join(dir, 'passwd');
  const group = join(dir, 'group');
  writeFileSync(passwd, `${readFileSync('/etc/passwd', 'utf8')}ad user:x:4242:4243::/nonexistent:/usr/sbin/nologin\n`);
  writeFileSync(group, `${readFileSync('/etc/group', 'utf8')}domain users:x:4243:\n`);
  const [f, d] = [join(dir, 'f'), join(dir, 'd')];
  writeFileSync(f, 'twelve bytes');
  mkdirSync(d);
  chownSync(f, 4242, 4243);
  chownSync(d, 4242, 4243);
  const inNamespace = (script: string) => {
    const r = spawnSync(
      'unshare',
      [
        '-m',
        'sh',
        '-c',
        `mount --bind "$1" /etc/passwd && mount --bind "$2" /etc/group && exec sh -c "$3"`,
        'sh',
        passwd,
        group,
        script,
      ],
      { encoding: 'utf8' },
    );
    t.is(r.status, 0, r.stderr);
    return { stdout: r.stdout, stderr: r.stderr, code: r.status };
  };
  const named: FsProbeOptions = { names: true, contentLimit: 100 };
  const probes: [string, FsProbeOptions][] = [
    [f, named],
    [d, { names: true }],
    [f, { contentLimit: 100 }],
  ];
  const scripts = probes.map(([p, o]) => fsProbeScript(p, o));
  const alone = scripts.map((s) => inNamespace(s.text).stdout);
  t.is(alone[0]!.split('\n')[1], 'stat 644 4242 4243 12 ad user:domain users');
  const together = splitBatch(inNamespace(batchScript(scripts, 'n0nce').text), 'n0nce', scripts.length).map(
    (r) => r.stdout,
  );
  t.deepEqual(together, alone, 'the shared stat, with names, gives each probe what it prints alone');
  const parsed = alone.map((out, i) =>
    parseFsProbe(new ProbeLines('probe', { stdout: out, stderr: '', code: 0 }), probes[i]![1]),
  );
  t.deepEqual(
    parsed.map((e) => e?.stat),
    [
      { mode: '0644', uid: '4242', gid: '4243', owner: 'ad user', group: 'domain users', size: 12 },
      { mode: '0755', uid: '4242', gid: '4243', owner: 'ad user', group: 'domain users', size: 4096 },
      { mode: '0644', uid: '4242', gid: '4243', owner: null, group: null, size: 12 },
    ],
  );
  t.is(parsed[0]!.content?.toString(), 'twelve bytes', 'the size, read from a line with names, let the content come');
  t.true(principalMatches('domain users', parsed[0]!.stat!.group, parsed[0]!.stat!.gid));
});
