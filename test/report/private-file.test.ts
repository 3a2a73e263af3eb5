// --events and --log files (openPrivateFile): a file play writes is 0600 even when it existed with
// another mode; what is not a regular file (/dev/null, a pipe a user reads the events from) keeps its
// mode, which belongs to the system or the user. Tested on a FIFO of the test's own, never /dev/null.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { openPrivateFile } from '../../runner/report/run-output.js';

const modeOf = (p: string) => (statSync(p).mode & 0o777).toString(8);

test('a regular file is made 0600, one that existed with another mode too', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-private-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fresh = join(dir, 'events.jsonl');
  const existing = join(dir, 'run.log');
  writeFileSync(existing, 'old\n', { mode: 0o644 });
  for (const file of [fresh, existing]) closeSync(openPrivateFile('--log', file));
  t.deepEqual([modeOf(fresh), modeOf(existing)], ['600', '600']);
});

test('a FIFO keeps its mode: it is not play to lock others out of it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-private-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const fifo = join(dir, 'events');
  execFileSync('mkfifo', ['-m', '644', fifo]);
  // A reader first, as a user's `tail -f` would be: opening for writing then does not block.
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  t.teardown(() => closeSync(reader));
  closeSync(openPrivateFile('--events', fifo));
  t.is(modeOf(fifo), '644');
});

test('a path that cannot be written: a usage error naming the flag and why', (t) => {
  const e = t.throws(() => openPrivateFile('--events', '/nonexistent-play-dir/events.jsonl'));
  t.is(
    e?.message,
    '--events /nonexistent-play-dir/events.jsonl: cannot write it (its directory does not exist): give a writable path',
  );
});
