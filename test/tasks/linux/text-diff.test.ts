import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiff } from '../../../tasks/common/text-diff.js';

test('equal texts have no diff; null to null neither', (t) => {
  t.is(unifiedDiff('a\nb\n', 'a\nb\n'), '');
  t.is(unifiedDiff(null, null), '');
  t.is(unifiedDiff('', ''), '');
});

test('a new file is a diff from /dev/null', (t) => {
  t.is(unifiedDiff(null, 'a\nb\n', { path: '/etc/x' }), '--- /dev/null\n+++ /etc/x\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  t.is(unifiedDiff(null, 'one\n', { path: '/x' }), '--- /dev/null\n+++ /x\n@@ -0,0 +1 @@\n+one\n');
});

test('a removed file is a diff to /dev/null', (t) => {
  t.is(unifiedDiff('a\n', null, { path: '/x' }), '--- /x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n');
});

test('one changed line in the middle, with three lines of context', (t) => {
  const before = '1\n2\n3\n4\n5\n6\n7\n8\n9\n';
  const after = '1\n2\n3\n4\nfive\n6\n7\n8\n9\n';
  t.is(
    unifiedDiff(before, after, { path: '/f' }),
    '--- /f\n+++ /f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n',
  );
});

test('far apart changes are separate hunks, near ones share one', (t) => {
  const lines = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
  const far = [...lines];
  far[1] = 'X';
  far[25] = 'Y';
  const d = unifiedDiff(`${lines.join('\n')}\n`, `${far.join('\n')}\n`);
  t.deepEqual(
    d.split('\n').filter((l) => l.startsWith('@@')),
    ['@@ -1,5 +1,5 @@', '@@ -23,7 +23,7 @@'],
  );
  const near = [...lines];
  near[10] = 'X';
  near[16] = 'Y';
  const n = unifiedDiff(`${lines.join('\n')}\n`, `${near.join('\n')}\n`);
  t.deepEqual(
    n.split('\n').filter((l) => l.startsWith('@@')),
    ['@@ -8,13 +8,13 @@'],
  );
});

test('a missing final newline is marked as diff -u marks it', (t) => {
  t.is(
    unifiedDiff('a\nb', 'a\nb\n', { path: '/f' }),
    '--- /f\n+++ /f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
  );
  t.is(
    unifiedDiff('a\n', 'a\nc', { path: '/f' }),
    '--- /f\n+++ /f\n@@ -1 +1,2 @@\n a\n+c\n\\ No newline at end of file\n',
  );
});

test('a long diff is cut with a note', (t) => {
  const after = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n') + '\n';
  const d = unifiedDiff(null, after, { maxLines: 10 });
  const lines = d.trimEnd().split('\n');
  t.is(lines.length, 11);
  t.is(lines[10], '… 493 more diff lines not shown');
});

function randomText(seed: number, n: number): string {
  let s = seed;
  const rnd = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  const lines = Array.from({ length: n }, () => ['alpha', 'beta', 'gamma', 'delta', ''][Math.floor(rnd() * 5)]!);
  return lines.join('\n') + (rnd() < 0.8 ? '\n' : '');
}

function changedCount(diff: string): number {
  return diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;
}

// GNU patch is the oracle for correctness, GNU diff --minimal for minimality.
test('random texts: patch(1) turns before into after with our diff, which is as small as diff --minimal', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-textdiff-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (let seed = 1; seed <= 60; seed++) {
    const before = randomText(seed, 1 + (seed % 17)),
      after = randomText(seed * 7919, 1 + (seed % 13));
    const a = join(dir, 'a'),
      b = join(dir, 'b');
    writeFileSync(a, before);
    writeFileSync(b, after);
    const ours = unifiedDiff(before, after, { path: a });
    const gnu = spawnSync('diff', ['--minimal', '-u', a, b], { encoding: 'utf8' }).stdout;
    t.is(changedCount(ours), changedCount(gnu), `seed ${seed}`);
    if (ours === '') {
      t.is(before, after);
      continue;
    }
    execFileSync('patch', ['-s', a], { input: ours });
    t.is(readFileSync(a, 'utf8'), after, `seed ${seed}`);
  }
});

test('a rewrite beyond the edit budget is still a correct diff (one big hunk)', (t) => {
  const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n') + '\n';
  const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n') + '\n';
  const d = unifiedDiff(before, after, { maxLines: 1e9 });
  t.is(d.split('\n').filter((l) => l.startsWith('@@')).length, 1);
  t.is(changedCount(d), 6000);
});
