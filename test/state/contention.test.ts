// Writers racing on one state store: four processes saving ten drift runs each and one rolling run
// recording twenty journal events under its lease, started together (each opens the store, says
// `ready`, and waits for a line on stdin), with the default busy wait. Everything that said committed
// is there afterwards, whole: 40 runs with unique ids (the ids their writers were told), 20 events in
// the order recorded, and a sound file by play's check and by Debian's sqlite3.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import test from 'ava';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';
import { labelledEvent, labelledRun, labelOf } from './fixtures/store-records.js';
import { committed, startWriter, writerArgv } from './fixtures/writer-process.js';
import { sqlite3 } from '../helpers/sqlite3.js';
import { bounded } from '../helpers/wait.js';

const DRIFT_WRITERS = 4;
const SAVES = 10;
const ITEMS = 10;
const EVENTS = 20;
/** Between two writes of one writer: the others get the lock in between, so the writes interleave. */
const PAUSE_MS = 5;
/** Bounds the wait for the writers (a deadlock must fail the test, not hang it). */
const BOUND_MS = 90_000;

test('4 processes x 10 drift saves and a rolling run of 20 events race on one store: all of it is there, whole', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-contention-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'state.db');
  const drift = Array.from({ length: DRIFT_WRITERS }, (_, w) =>
    startWriter(writerArgv('drift', file, { label: `w${w}`, items: ITEMS, count: SAVES, go: 1, pause: PAUSE_MS })),
  );
  const journal = startWriter(writerArgv('journal', file, { count: EVENTS, go: 1, pause: PAUSE_MS }));
  const writers = [...drift, journal];
  t.teardown(() => {
    for (const w of writers) w.child.kill('SIGKILL');
  });
  await bounded('every writer to open the store', Promise.all(writers.map((w) => w.line('ready'))), BOUND_MS);
  for (const w of writers) w.child.stdin.write('go\n');
  const exits = await bounded('every writer to finish', Promise.all(writers.map((w) => w.exit)), BOUND_MS);
  for (const e of exits) t.is(e.code, 0, e.stderr);

  const saved = new Map(drift.flatMap((w) => [...committed(w.lines)]));
  t.is(saved.size, DRIFT_WRITERS * SAVES, 'every save said committed');
  t.is(new Set(saved.values()).size, saved.size, 'each was given its own id');
  t.log(
    'ids by writer (interleaved when they raced):',
    drift.map((w, i) => `w${i}: ${[...committed(w.lines).values()].join(',')}`).join('; '),
  );
  const runId = Number(journal.lines.find((l) => l.startsWith('run '))?.split(' ')[1]);
  t.deepEqual(
    [...committed(journal.lines).keys()],
    Array.from({ length: EVENTS }, (_, i) => `event-${i}`),
  );

  const store = openSqliteStore(file);
  t.teardown(() => store.close());
  const runs = await store.drift.list(1000);
  t.is(runs.length, DRIFT_WRITERS * SAVES);
  t.deepEqual(new Map(runs.map((r) => [labelOf(r), r.id])), new Map([...saved].sort((a, b) => b[1] - a[1])));
  const broken: string[] = [];
  for (const r of runs)
    if (!isDeepStrictEqual(await store.drift.get(r.id), { id: r.id, ...labelledRun(labelOf(r), ITEMS) }))
      broken.push(labelOf(r));
  t.deepEqual(broken, [], 'every run is whole: its record and all its items');
  t.deepEqual(
    await store.rollouts.events(runId),
    Array.from({ length: EVENTS }, (_, i) => labelledEvent(runId, `event-${i}`)),
  );
  t.like(await store.check(), { problems: [], driftRuns: DRIFT_WRITERS * SAVES, rollouts: 1 });
  t.is(sqlite3(file, 'PRAGMA integrity_check'), 'ok');
  t.is(sqlite3(file, 'SELECT count(*) FROM drift_items'), String(DRIFT_WRITERS * SAVES * ITEMS));
  t.is(sqlite3(file, "SELECT count(DISTINCT id) || ' of ' || count(*) FROM drift_runs"), '40 of 40');
  t.is(
    sqlite3(
      file,
      `SELECT group_concat(detail, ',') FROM (SELECT detail FROM rollout_events WHERE run_id = ${runId} ORDER BY seq)`,
    ),
    Array.from({ length: EVENTS }, (_, i) => `event-${i}`).join(','),
  );
});
