// The batch's one shared stat (runner/core/shared-stat.ts): every kind of entry a file-like probe can
// meet, probed alone (its own stat) and in one batch (the shared one), gives the same output byte for
// byte; a path no shell variable could be named after is safe; and the stat paths travel with the
// scripts that embed or join a probe.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
    t.is(batch.text.includes('%U %G'), c.namesInPrelude, c.name);
    const together = splitBatch(runSh(batch.text), 'n0nce', probes.length).map((r) => r.stdout);
    t.deepEqual(together, alone, c.name);
    t.deepEqual(
      together.map((out, i) => parsed(out, c.probes[i]![1])),
      alone.map((out, i) => parsed(out, c.probes[i]![1])),
      c.name,
    );
    for (const [i, out] of alone.entries())
      t.is(statLine(out).split(' ').length, c.probes[i]![1].names ? 7 : 5, `${c.name}: ${i}`);
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
