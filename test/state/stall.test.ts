// A writer of the state store frozen inside its transaction: fixtures/store-writer.ts `stall` saves a
// drift run whose first item, as the store serialises it inside the IMMEDIATE transaction, stops its
// own process (SIGSTOP), the way a controller paused by a debugger, a frozen VM or a stuck disk holds
// SQLite's write lock. Other writers with a short busy wait (1 s here, 15 s by default) say the store
// is busy (exit 75) and lose nothing committed; one with the default wait waits. No lock is broken by
// age: resumed (SIGCONT), the frozen writer's transaction commits whole; killed, it rolls back whole.
// The stall lasts as long as the impatient writers take to give up (their start and their 1 s wait),
// never a fixed sleep.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import type { Lease } from '../../runner/state/lease.js';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';
import { StoreBusyError } from '../../runner/state/store-errors.js';
import { bounded, waitFor } from '../helpers/wait.js';
import { claim, encodeLease, labelledEvent, labelledRun, labelOf, rollout } from './fixtures/store-records.js';
import { committed, startWriter, type Writer, writerArgv } from './fixtures/writer-process.js';
import { sqlite3 } from '../helpers/sqlite3.js';

const ITEMS = 20;
/** The runs of the writers started during the stall are smaller. */
const FEW = 5;
const itemsOf = (label: string) => (label.startsWith('pre-') || label === 'stalled' ? ITEMS : FEW);
const SHORT_WAIT_MS = 1000;
/** Bounds every wait for a process (a broken store must fail the test, not hang it). */
const BOUND_MS = 30_000;

/** A store with two committed drift runs and a rolling run with two events; the run's lease. */
async function committedStore(t: ExecutionContext): Promise<{ file: string; lease: Lease }> {
  const dir = mkdtempSync(join(tmpdir(), 'play-stall-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'state.db');
  const store = openSqliteStore(file);
  for (const label of ['pre-0', 'pre-1']) await store.drift.save(labelledRun(label, ITEMS));
  const { run, lease } = await store.rollouts.begin(rollout(), claim('stall'));
  for (const label of ['pre-0', 'pre-1']) await store.rollouts.record(lease, labelledEvent(run.id, label));
  await store.close();
  return { file, lease };
}

/** The process state letter in /proc (T: stopped). */
const procState = (pid: number) => /\) (\w)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];

/** A writer stopped inside its drift save's transaction, holding the write lock. */
async function stalledWriter(t: ExecutionContext, file: string): Promise<Writer> {
  const w = startWriter(writerArgv('stall', file, { label: 'stalled', items: ITEMS }));
  t.teardown(() => {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  });
  await w.line('in-transaction');
  await waitFor('the writer to stop itself', () => procState(w.child.pid!) === 'T', BOUND_MS, 20);
  return w;
}

/** The drift runs in the store by label, and the journal's event labels, as play reads them. */
async function history(file: string) {
  const store = openSqliteStore(file);
  try {
    const runs = await store.drift.list(100);
    const whole = new Map<string, boolean>();
    for (const r of runs)
      whole.set(
        labelOf(r),
        isDeepStrictEqual(await store.drift.get(r.id), { id: r.id, ...labelledRun(labelOf(r), itemsOf(labelOf(r))) }),
      );
    const events = (await store.rollouts.events(1)).map((e) => e.detail);
    return { ids: runs.map((r) => r.id), labels: runs.map(labelOf).reverse(), whole, events };
  } finally {
    await store.close();
  }
}

test('a writer stopped inside its transaction: others wait or say busy (75) and lose nothing; resumed, it commits whole', async (t) => {
  const { file, lease } = await committedStore(t);
  const openBefore = openSqliteStore(file);
  t.teardown(() => openBefore.close());
  const stalled = await stalledWriter(t, file);
  const stoppedAt = Date.now();
  // Started while it is stopped: two that give up after 1 s, one that waits the default 15 s.
  const impatientDrift = startWriter(
    writerArgv('drift', file, { label: 'impatient', items: FEW, busy: SHORT_WAIT_MS }),
  );
  const impatientEvent = startWriter(
    writerArgv('record', file, { label: 'impatient', lease: encodeLease(lease), busy: SHORT_WAIT_MS }),
  );
  const patient = startWriter(writerArgv('drift', file, { label: 'patient', items: FEW }));
  t.teardown(() => patient.child.kill('SIGKILL'));
  // A connection opened before the stall reads what was committed, without waiting (WAL).
  t.deepEqual((await openBefore.drift.list(10)).map(labelOf), ['pre-1', 'pre-0']);
  for (const w of [impatientDrift, impatientEvent]) {
    const exit = await bounded('an impatient writer to give up', w.exit, BOUND_MS);
    t.is(exit.code, 75, exit.stderr);
    t.regex(exit.stderr, /stayed locked by another process for 1 s .*nothing was lost/);
    t.false(exit.lines.some((l) => l.startsWith('committed')));
  }
  t.is(procState(stalled.child.pid!), 'T', 'still stopped when the others gave up');
  t.is(patient.child.exitCode, null, 'the patient writer is still waiting');
  // What was committed before the stall is all there, whole, while it lasts.
  t.is(sqlite3(file, 'SELECT group_concat(id) FROM drift_runs'), '1,2');
  t.is(sqlite3(file, 'PRAGMA integrity_check'), 'ok');
  t.log(`stalled ${Date.now() - stoppedAt} ms (the others' busy wait: ${SHORT_WAIT_MS} ms)`);
  stalled.child.kill('SIGCONT');
  const resumed = await bounded('the stalled writer to finish', stalled.exit, BOUND_MS);
  t.is(resumed.code, 0, resumed.stderr);
  const waited = await bounded('the patient writer to finish', patient.exit, BOUND_MS);
  t.is(waited.code, 0, waited.stderr);
  const saved = new Map([...committed(resumed.lines), ...committed(waited.lines)]);
  t.deepEqual([...saved.keys()].sort(), ['patient', 'stalled']);
  const after = await history(file);
  t.deepEqual(after.labels.slice(0, 2), ['pre-0', 'pre-1']);
  t.deepEqual(
    [...after.labels].sort(),
    ['patient', 'pre-0', 'pre-1', 'stalled'],
    'every run that said committed, no other',
  );
  t.deepEqual(
    [...after.whole].filter(([, whole]) => !whole),
    [],
    'each run is whole: its record and all its items',
  );
  for (const [label, id] of saved) t.true(after.ids.includes(id), `${label} is run ${id}`);
  t.deepEqual(after.events, ['pre-0', 'pre-1'], 'the busy event was not recorded');
  t.is(sqlite3(file, 'PRAGMA integrity_check'), 'ok');
  t.is(sqlite3(file, `SELECT count(*) FROM drift_items WHERE run_id = ${saved.get('stalled')}`), String(ITEMS));
});

test('a writer stopped inside its transaction and then killed: its transaction rolls back whole and the store is free', async (t) => {
  const { file } = await committedStore(t);
  const stalled = await stalledWriter(t, file);
  stalled.child.kill('SIGKILL');
  t.is((await bounded('the killed writer to end', stalled.exit, BOUND_MS)).signal, 'SIGKILL');
  const next = await bounded(
    'the next writer',
    startWriter(writerArgv('drift', file, { label: 'next', items: FEW, busy: SHORT_WAIT_MS })).exit,
    BOUND_MS,
  );
  t.is(next.code, 0, next.stderr);
  const after = await history(file);
  t.deepEqual(after.labels, ['pre-0', 'pre-1', 'next']);
  t.is(sqlite3(file, 'SELECT count(*) FROM drift_items WHERE run_id NOT IN (SELECT id FROM drift_runs)'), '0');
  t.is(sqlite3(file, 'PRAGMA integrity_check'), 'ok');
});

// Opening a current store takes no write lock (the schema is checked with a read), so a read-only
// command reads at once while a writer is stalled, as sqlite3 does.
test('a read-only open while a writer is stopped inside its transaction reads without waiting', async (t) => {
  const { file } = await committedStore(t);
  await stalledWriter(t, file);
  t.is(sqlite3(file, 'SELECT count(*) FROM drift_runs'), '2', 'sqlite3 reads it');
  let reader: ReturnType<typeof openSqliteStore> = null;
  try {
    reader = openSqliteStore(file, { mode: 'read', busyWaitMs: SHORT_WAIT_MS });
  } catch (e) {
    t.false(e instanceof StoreBusyError, `opening to read waited for the writer: ${(e as Error).message}`);
    return;
  }
  t.deepEqual((await reader?.drift.list(10))?.map(labelOf), ['pre-1', 'pre-0']);
  await reader?.close();
});
