// core/input-snapshot.ts against a real directory tree: each kind of change a user makes to an input
// (an edit, a chmod, a file added, an editor's save by rename, a file appearing where none was) makes
// the snapshot differ; nothing done, it is equal; and a file written just before the read is not
// vouched for. Baseline files get old times, so no change hides in one timestamp tick.
import { chmodSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type InputRoot, nowNs, SETTLED_NS, snapshotInputs, unchangedSince } from '../../runner/core/input-snapshot.js';

const OLD = new Date('2026-01-01T00:00:00Z');

function tree(): { dir: string; roots: InputRoot[] } {
  const dir = mkdtempSync(join(tmpdir(), 'play-input-snapshot-'));
  mkdirSync(join(dir, 'group_vars'));
  writeFileSync(join(dir, 'inventory.yaml'), 'all: {}\n');
  writeFileSync(join(dir, 'group_vars', 'all.yml'), 'a: 1\n');
  mkdirSync(join(dir, 'plain'));
  for (const p of ['inventory.yaml', 'group_vars/all.yml', 'group_vars', 'plain']) utimesSync(join(dir, p), OLD, OLD);
  return {
    dir,
    roots: [
      { path: join(dir, 'inventory.yaml'), walk: false },
      { path: join(dir, 'group_vars'), walk: true },
      { path: join(dir, 'plain'), walk: false },
      { path: join(dir, 'absent.yml'), walk: false },
    ],
  };
}

test('every kind of change to an input makes the snapshot differ; none, and it is equal', (t) => {
  const changes: [string, (dir: string) => void, boolean][] = [
    ['nothing', () => {}, false],
    ['an edit of the same size', (d) => writeFileSync(join(d, 'group_vars', 'all.yml'), 'a: 2\n'), true],
    ['a chmod', (d) => chmodSync(join(d, 'inventory.yaml'), 0o600), true],
    ['a file added in a walked directory', (d) => writeFileSync(join(d, 'group_vars', 'linux.yml'), 'b: 1\n'), true],
    ['a file added in a directory watched alone', (d) => writeFileSync(join(d, 'plain', 'x'), ''), true],
    [
      "an editor's save (a new file renamed over)",
      (d) => {
        writeFileSync(join(d, 'new'), 'all: {}\n');
        utimesSync(join(d, 'new'), OLD, OLD);
        renameSync(join(d, 'new'), join(d, 'inventory.yaml'));
      },
      true,
    ],
    ['a file made where none was', (d) => writeFileSync(join(d, 'absent.yml'), ''), true],
    ['a file removed', (d) => rmSync(join(d, 'group_vars', 'all.yml')), true],
  ];
  const got = changes.map(([what, change]) => {
    const { dir, roots } = tree();
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const before = snapshotInputs(roots);
    change(dir);
    return [what, snapshotInputs(roots).text !== before.text];
  });
  t.deepEqual(
    got,
    changes.map(([what, , differs]) => [what, differs]),
  );
});

test('a snapshot vouches only for inputs settled before the read, and only when complete', (t) => {
  const { dir, roots } = tree();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The files' ctimes are now (a test cannot set them back): a read that began a while later.
  const later = nowNs() + SETTLED_NS + 1_000_000_000n;
  const before = snapshotInputs(roots);
  t.true(unchangedSince(before, snapshotInputs(roots), later));
  t.false(unchangedSince(before, snapshotInputs(roots), nowNs()), 'written just before the read: not vouched for');
  writeFileSync(join(dir, 'group_vars', 'all.yml'), 'a: 2\n');
  t.false(unchangedSince(before, snapshotInputs(roots), later), 'changed');
  const cut = snapshotInputs(roots, 2);
  t.false(cut.complete);
  t.false(unchangedSince(cut, cut, later), 'past the entry limit: never');
});

test('a link back up the tree is walked once', (t) => {
  const { dir } = tree();
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  symlinkSync(dir, join(dir, 'group_vars', 'loop'));
  const s = snapshotInputs([{ path: dir, walk: true }]);
  t.true(s.complete);
  t.is(s.text.split('\n').filter((l) => l.includes('loop/group_vars/loop/')).length, 0);
});
