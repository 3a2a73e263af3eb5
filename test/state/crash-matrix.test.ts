// The crash matrix: a writer of the state store killed at each of its writes in turn. A store that
// already holds committed records gets one more (a drift run of 50 items; a rolling journal event under
// its lease) from a writer in a process of its own (fixtures/store-writer.ts). strace first counts the
// calls that change the store's files (the database, its WAL, its shared-memory index), then reruns the
// writer once per call, SIGKILLing it as it enters that call (the call itself never happens). After
// each kill: play opens the store, SQLite's integrity check passes (Debian's sqlite3 is the oracle too,
// on a copy of the files as the kill left them), every earlier record is there whole, and the new one is
// there whole or not at all; if the writer had said `committed`, it is there.
// A SIGKILL keeps what the kernel already has: this covers a crashed or killed controller, not a power
// cut that loses the page cache.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';
import type { StateStore } from '../../runner/state/store.js';
import { claim, encodeLease, labelledEvent, labelledRun, labelOf, rollout } from './fixtures/store-records.js';
import {
  killedAt,
  STRACE_OPTIONS,
  type StoreSyscall,
  sampleSyscalls,
  storeSyscalls,
} from './fixtures/syscall-trace.js';
import { committed, runWriter, writerArgv } from './fixtures/writer-process.js';
import { sqlite3 } from '../helpers/sqlite3.js';

/** Kill points per operation: each is a writer process of ~0.6 s; two run at a time. */
const BUDGET = 32;
const PARALLEL = 2;
const ITEMS = 50;

type Presence = 'present' | 'absent' | 'partial';

/** What was found after a crash, by play or by the sqlite3 oracle. */
interface Found {
  readonly integrity: string;
  /** Every record committed before the operation is there, whole. */
  readonly earlier: boolean;
  readonly record: Presence;
}

interface Scenario {
  readonly name: string;
  readonly op: string;
  /** Fills a new store at `file` with the committed records; returns the writer's options. */
  prepare(file: string): Promise<Record<string, string | number>>;
  /** What play's store holds. */
  inspect(store: StateStore): Promise<Omit<Found, 'integrity'>>;
  /** What Debian's sqlite3 finds in the file. */
  oracle(file: string): Omit<Found, 'integrity'>;
}

const presence = (rows: number, whole: boolean): Presence => (rows === 0 ? 'absent' : whole ? 'present' : 'partial');

const EARLIER_RUNS = ['pre-0', 'pre-1', 'pre-2'];

const driftSave: Scenario = {
  name: 'drift save',
  op: 'drift',
  async prepare(file) {
    const store = openSqliteStore(file);
    for (const label of EARLIER_RUNS) await store.drift.save(labelledRun(label, ITEMS));
    await store.close();
    return { label: 'op', items: ITEMS };
  },
  async inspect(store) {
    const runs = await store.drift.list(100);
    const presenceOf = async (label: string): Promise<Presence> => {
      const found = runs.filter((r) => labelOf(r) === label);
      if (found.length === 0) return 'absent';
      const run = found.length === 1 ? await store.drift.get(found[0]!.id) : null;
      return isDeepStrictEqual(run, { id: found[0]!.id, ...labelledRun(label, ITEMS) }) ? 'present' : 'partial';
    };
    const earlier = await Promise.all(EARLIER_RUNS.map(presenceOf));
    return { earlier: earlier.every((p) => p === 'present'), record: await presenceOf('op') };
  },
  oracle(file) {
    const perRun = sqlite3(
      file,
      `SELECT json_extract(r.record, '$.inventory') || ':' || (SELECT count(*) FROM drift_items i WHERE i.run_id = r.id)
       FROM drift_runs r ORDER BY r.id`,
    ).split('\n');
    const orphans = Number(
      sqlite3(file, 'SELECT count(*) FROM drift_items WHERE run_id NOT IN (SELECT id FROM drift_runs)'),
    );
    const op = perRun.filter((r) => r.startsWith('op:'));
    return {
      earlier: EARLIER_RUNS.every((l) => perRun.includes(`${l}:${ITEMS}`)),
      record: presence(op.length + orphans, op.length === 1 && op[0] === `op:${ITEMS}` && orphans === 0),
    };
  },
};

const EARLIER_EVENTS = ['pre-0', 'pre-1', 'pre-2', 'pre-3', 'pre-4'];

const journalRecord: Scenario = {
  name: 'journal record',
  op: 'record',
  async prepare(file) {
    const store = openSqliteStore(file);
    const { run, lease } = await store.rollouts.begin(rollout(), claim('crash-matrix'));
    for (const label of EARLIER_EVENTS) await store.rollouts.record(lease, labelledEvent(run.id, label));
    await store.close();
    return { label: 'op', lease: encodeLease(lease) };
  },
  async inspect(store) {
    const events = await store.rollouts.events(1);
    const expected = (labels: string[]) => labels.map((l) => labelledEvent(1, l));
    const earlier = isDeepStrictEqual(events.slice(0, EARLIER_EVENTS.length), expected(EARLIER_EVENTS));
    const extra = events.length - EARLIER_EVENTS.length;
    const whole = extra === 1 && isDeepStrictEqual(events, expected([...EARLIER_EVENTS, 'op']));
    return { earlier, record: presence(extra, whole) };
  },
  oracle(file) {
    const rows = sqlite3(
      file,
      "SELECT detail || ':' || length(data) || ':' || fence FROM rollout_events WHERE run_id = 1 ORDER BY seq",
    )
      .split('\n')
      .filter(Boolean);
    // Each event as the oracle sees it: its label, the length of its data and its fencing number.
    const row = (label: string) => `${label}:${JSON.stringify(labelledEvent(1, label).data).length}:1`;
    const extra = rows.slice(EARLIER_EVENTS.length);
    return {
      earlier: EARLIER_EVENTS.every((l, i) => rows[i] === row(l)),
      record: presence(extra.length, extra.length === 1 && extra[0] === row('op')),
    };
  },
};

/** The store could not be opened or read at all. */
interface Failed {
  readonly error: string;
}

const failed = (e: unknown): Failed => ({ error: e instanceof Error ? e.message : String(e) });

interface CrashRow {
  readonly point: StoreSyscall;
  readonly killed: boolean;
  /** The call strace stopped it in, as `syscall file`. */
  readonly killedIn: string;
  readonly saidCommitted: boolean;
  readonly play: Found | Failed;
  readonly oracle: Found | Failed;
}

/** A copy of the store's files as they are now (the oracle recovers from its copy, not play's). */
function copyStore(file: string, to: string): string {
  mkdirSync(to);
  const copy = join(to, 'state.db');
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) copyFileSync(file + suffix, copy + suffix);
  return copy;
}

async function playFinds(s: Scenario, file: string): Promise<Found | Failed> {
  try {
    const store = openSqliteStore(file, { busyWaitMs: 1000 });
    try {
      const { problems } = await store.check();
      return { integrity: problems.length === 0 ? 'ok' : problems.join('; '), ...(await s.inspect(store)) };
    } finally {
      await store.close();
    }
  } catch (e) {
    return failed(e);
  }
}

function oracleFinds(s: Scenario, file: string): Found | Failed {
  try {
    return { integrity: sqlite3(file, 'PRAGMA integrity_check'), ...s.oracle(file) };
  } catch (e) {
    return failed(e);
  }
}

/** Runs the writer on a fresh copy of `base`, under strace, killed as it enters `point`. */
async function crashAt(s: Scenario, base: string, options: Record<string, string | number>, point: StoreSyscall) {
  const dir = mkdtempSync(join(dirname(base), `kill-${point.index}-`));
  const file = join(dir, 'state.db');
  copyFileSync(base, file);
  const trace = join(dir, 'trace');
  const inject = `inject=${point.syscall}:signal=SIGKILL:when=${point.ordinal}`;
  const exit = await runWriter([
    'strace',
    ...STRACE_OPTIONS,
    '-o',
    trace,
    '-e',
    inject,
    ...writerArgv(s.op, file, options),
  ]);
  const at = existsSync(trace) ? killedAt(readFileSync(trace, 'utf8'), file) : null;
  const oracleCopy = copyStore(file, join(dir, 'oracle'));
  const row: CrashRow = {
    point,
    killed: exit.signal === 'SIGKILL' || exit.code === 137,
    killedIn: at ? `${at.syscall} ${at.file}` : `not killed (${exit.signal ?? exit.code}) ${exit.stderr.trim()}`,
    saidCommitted: committed(exit.lines).has('op'),
    oracle: oracleFinds(s, oracleCopy),
    play: await playFinds(s, file),
  };
  rmSync(dir, { recursive: true, force: true });
  return row;
}

async function inParallel<T, R>(items: readonly T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i]!);
  };
  await Promise.all(Array.from({ length: n }, worker));
  return out;
}

function matrixTable(rows: readonly CrashRow[]): string {
  const head =
    'kill # | store call (when=) | phase | killed in | said committed | play: record, earlier, integrity | sqlite3: record, earlier, integrity';
  const found = (f: Found | Failed) =>
    'error' in f ? `failed: ${f.error}` : `${f.record}, ${f.earlier ? 'all' : 'MISSING'}, ${f.integrity}`;
  return [
    head,
    ...rows.map((r) =>
      [
        r.point.index,
        `${r.point.syscall} ${r.point.file} (${r.point.ordinal})`,
        r.point.phase,
        r.killedIn,
        r.saidCommitted ? 'yes' : 'no',
        found(r.play),
        found(r.oracle),
      ].join(' | '),
    ),
  ].join('\n');
}

/** The store's writes during one uninterrupted run of the operation, under the same strace filter. */
async function countWrites(t: ExecutionContext, s: Scenario, base: string, options: Record<string, string | number>) {
  const dir = mkdtempSync(join(dirname(base), 'count-'));
  const file = join(dir, 'state.db');
  copyFileSync(base, file);
  const trace = join(dir, 'trace');
  const exit = await runWriter(['strace', ...STRACE_OPTIONS, '-o', trace, ...writerArgv(s.op, file, options)]);
  t.is(exit.code, 0, `the writer under strace: ${exit.stderr}`);
  t.true(committed(exit.lines).has('op'));
  const calls = storeSyscalls(readFileSync(trace, 'utf8'), file);
  const tally = new Map<string, number>();
  for (const c of calls)
    tally.set(`${c.phase} ${c.syscall} ${c.file}`, (tally.get(`${c.phase} ${c.syscall} ${c.file}`) ?? 0) + 1);
  t.log(
    `${s.name}: ${calls.length} calls change the store's files: ${[...tally].map(([k, n]) => `${k} x${n}`).join(', ')}`,
  );
  return calls;
}

for (const scenario of [driftSave, journalRecord])
  test.serial(
    `crash matrix, ${scenario.name}: killed at each write, the store opens sound with every earlier record and the new one whole or absent`,
    async (t) => {
      execFileSync('strace', ['-V']);
      const dir = realpathSync(mkdtempSync(join(tmpdir(), 'play-crash-')));
      t.teardown(() => rmSync(dir, { recursive: true, force: true }));
      const base = join(dir, 'base.db');
      const options = await scenario.prepare(base);
      t.false(existsSync(`${base}-wal`), 'the committed records are in the database file itself');
      const calls = await countWrites(t, scenario, base, options);
      t.true(calls.some((c) => c.phase === 'operation' && c.file === 'wal' && c.syscall === 'pwrite64'));
      const points = sampleSyscalls(calls, BUDGET);
      const rows = await inParallel(points, PARALLEL, (p) => crashAt(scenario, base, options, p));
      t.log(`${scenario.name}: killed at ${points.length} of ${calls.length} calls\n${matrixTable(rows)}`);
      for (const r of rows) {
        const at = `killed at call ${r.point.index} (${r.point.syscall} ${r.point.file}, when=${r.point.ordinal})`;
        t.true(r.killed, `${at}: the writer was killed`);
        t.is(r.killedIn, `${r.point.syscall} ${r.point.file}`, `${at}: strace stopped it in that call`);
        t.false('error' in r.play, `${at}: play opens the store: ${'error' in r.play ? r.play.error : ''}`);
        t.false('error' in r.oracle, `${at}: sqlite3 reads it: ${'error' in r.oracle ? r.oracle.error : ''}`);
        if ('error' in r.play || 'error' in r.oracle) continue;
        t.is(r.play.integrity, 'ok', `${at}: play's check`);
        t.is(r.oracle.integrity, 'ok', `${at}: sqlite3's integrity_check`);
        t.true(r.play.earlier && r.oracle.earlier, `${at}: every earlier record is there whole`);
        t.not(r.play.record, 'partial', `${at}: the new record is whole or absent`);
        t.is(r.oracle.record, r.play.record, `${at}: sqlite3 finds what play finds`);
        if (r.saidCommitted) t.is(r.play.record, 'present', `${at}: it said committed, so it is there`);
      }
      // The matrix crosses the commit: some kills lose the record, later ones keep it.
      t.true(rows.some((r) => !('error' in r.play) && r.play.record === 'absent'));
      t.true(rows.some((r) => !('error' in r.play) && r.play.record === 'present'));
    },
  );
