// The rolling runs' journal and its lock in the SQLite state store (runner/state/sqlite-rollouts.ts) on a
// temp file: runs and events read back whole, the lock refused to a live holder and taken from a dead
// one, released by any status but running, resumes (takeOver), the upgrade of a version-1 file, the
// file lock left by a killed process, and two real processes racing for the same inventory.
// Long because it walks the journal's whole life (runs, events, lock, resume, upgrade), one test each.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test, { type ExecutionContext } from 'ava';
import sqlite from 'node-sqlite3-wasm';
import { countItems, type DriftRun, driftExit } from '../../runner/drift/model.js';
import type { RolloutStatus } from '../../runner/rolling/model.js';
import { LockHeldError } from '../../runner/state/lock-held.js';
import { StoreBusyError } from '../../runner/state/sqlite-busy.js';
import { openSqliteStore } from '../../runner/state/sqlite-store.js';
import type { JournalEvent, RolloutRecord, StateStore } from '../../runner/state/store.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

function tempFile(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-rollouts-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'sub', 'state.db');
}

const T0 = Date.parse('2026-11-23T01:02:03.000Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

/** A store whose clock ticks one second per reading, and whose lock holders are all alive or all dead. */
function open(t: ExecutionContext, file: string, alive: boolean, calls: [number, string][] = []): StateStore {
  let tick = 0;
  const store = openSqliteStore(file, {
    isAlive: (pid, controller) => {
      calls.push([pid, controller]);
      return alive;
    },
    now: () => new Date(T0 + ++tick * 1000),
  });
  t.teardown(() => store.close());
  return store;
}

const start = (inventoryKey = 'inv:lab', pid = 4242, controller = 'ctl-1') => ({
  playbook: 'hotfix-windows',
  inventoryKey,
  args: { limit: 'win*', serial: [1, '25%'], extraVars: { kb: 'KB5031356' } },
  startedAt: at(0),
  pid,
  controller,
});

const holds = (runId: number, pid: number, controller: string, since: string) =>
  `another play run holds the rolling lock on this inventory: run ${runId} (hotfix-windows), pid ${pid} on ${controller}, ` +
  `since ${since}; wait for it, or if that process is gone on another machine, remove the lock with: play rollouts unlock ${runId}`;

test('a run is begun running and read back whole; list is newest first; latestUnfinished by inventory and playbook', (t) => {
  const file = tempFile(t);
  const store = open(t, file, true);
  const a = store.rollouts.begin(start());
  const expected: RolloutRecord = {
    id: 1,
    ...start(),
    status: 'running',
    reason: null,
    updatedAt: at(1),
  };
  t.deepEqual(a, expected);
  t.deepEqual(store.rollouts.get(1), expected);
  const b = store.rollouts.begin({ ...start('inv:other'), playbook: 'windows-node' });
  t.deepEqual(
    store.rollouts.list(10).map((r) => r.id),
    [2, 1],
  );
  t.deepEqual(store.rollouts.list(1), [b]);
  t.deepEqual(store.rollouts.latestUnfinished('inv:lab'), a);
  t.deepEqual(store.rollouts.latestUnfinished('inv:lab', 'hotfix-windows'), a);
  t.is(store.rollouts.latestUnfinished('inv:lab', 'windows-node'), null);
  t.is(store.rollouts.latestUnfinished('inv:none'), null);
  store.rollouts.setStatus(1, 'done');
  t.is(store.rollouts.latestUnfinished('inv:lab'), null);
  t.is(store.rollouts.get(99), null);
  store.close();
  // A later process (a resume) reads the same.
  const again = open(t, file, true);
  t.deepEqual(again.rollouts.get(1), { ...expected, status: 'done', updatedAt: at(3) });
});

test("events come back in the order recorded, per run, with their data; an unknown run's event is refused", (t) => {
  const store = open(t, tempFile(t), true);
  const a = store.rollouts.begin(start());
  const b = store.rollouts.begin(start('inv:other'));
  const events: JournalEvent[] = [
    { runId: a.id, host: '', phase: 'batch', state: 'begin', at: at(10), detail: null, data: { batch: 1 } },
    { runId: a.id, host: 'win1', phase: 'cordon', state: 'begin', at: at(11), detail: null, data: null },
    { runId: b.id, host: 'win9', phase: 'drain', state: 'fail', at: at(11), detail: 'timed out', data: null },
    {
      runId: a.id,
      host: 'win1',
      phase: 'cordon',
      state: 'end',
      at: at(12),
      detail: null,
      data: { ownCordon: true, pods: ['a', 'b'] },
    },
  ];
  for (const e of events) store.rollouts.record(e);
  t.deepEqual(
    store.rollouts.events(a.id),
    events.filter((e) => e.runId === a.id),
  );
  t.deepEqual(store.rollouts.events(b.id), [events[2]!]);
  t.deepEqual(store.rollouts.events(99), []);
  t.throws(() => store.rollouts.record({ ...events[0]!, runId: 99 }), { message: /FOREIGN KEY/ });
});

test('a second begin on the same inventory, while its holder lives, is refused with LockHeldError naming run, pid and controller', (t) => {
  const calls: [number, string][] = [];
  const store = open(t, tempFile(t), true, calls);
  const a = store.rollouts.begin(start());
  const e = t.throws(() => store.rollouts.begin(start('inv:lab', 5555, 'ctl-2')), { instanceOf: LockHeldError });
  t.is(e!.message, holds(1, 4242, 'ctl-1', a.updatedAt));
  t.is(e!.exitCode, 69);
  t.deepEqual(e!.holder, { runId: 1, pid: 4242, controller: 'ctl-1', since: a.updatedAt });
  t.deepEqual(calls, [[4242, 'ctl-1']]);
  t.deepEqual(store.rollouts.list(10), [a], 'no run without its lock');
});

test('a stale lock (its holder dead) is taken over and the new run says so; the stale run stays running', (t) => {
  const store = open(t, tempFile(t), false);
  const a = store.rollouts.begin(start());
  const b = store.rollouts.begin(start('inv:lab', 5555, 'ctl-2'));
  t.is(b.id, 2);
  t.is(store.rollouts.get(1)!.status, 'running');
  const holder = { runId: 1, pid: 4242, controller: 'ctl-1', since: a.updatedAt };
  t.deepEqual(store.rollouts.events(2), [
    {
      runId: 2,
      host: '',
      phase: 'lock',
      state: 'note',
      at: b.updatedAt,
      detail: `took over the stale rolling lock of run 1 (held by pid 4242 on ctl-1 since ${a.updatedAt}; that process is gone)`,
      data: { tookOverFrom: holder },
    },
  ]);
  // The lock is run 2's now: a live check names it.
  store.close();
  const live = open(t, store.location, true);
  t.is(t.throws(() => live.rollouts.begin(start('inv:lab', 6666)))!.message, holds(2, 5555, 'ctl-2', b.updatedAt));
});

test("the caller's own pid on its own controller does not hold it out (a dead process whose pid it got)", (t) => {
  const store = open(t, tempFile(t), true);
  store.rollouts.begin(start());
  const b = store.rollouts.begin(start());
  t.is(b.id, 2);
  t.is(store.rollouts.events(2)[0]!.phase, 'lock');
});

test('another inventory is not blocked', (t) => {
  const store = open(t, tempFile(t), true);
  store.rollouts.begin(start('inv:lab'));
  t.is(store.rollouts.begin(start('inv:prod', 5555)).id, 2);
});

for (const status of ['paused', 'interrupted', 'done', 'stopped', 'failed'] as RolloutStatus[]) {
  test(`setStatus ${status} releases the lock: a new begin succeeds`, (t) => {
    const store = open(t, tempFile(t), true);
    const a = store.rollouts.begin(start());
    store.rollouts.setStatus(a.id, status, `why ${status}`);
    t.deepEqual(store.rollouts.get(a.id), { ...a, status, reason: `why ${status}`, updatedAt: at(2) });
    t.is(store.rollouts.begin(start('inv:lab', 5555)).id, 2);
    t.deepEqual(store.rollouts.events(2), [], 'a released lock is no takeover');
  });
}

test("setStatus running keeps the lock; a run's status does not release another run's lock; unlock removes it", (t) => {
  const store = open(t, tempFile(t), true);
  store.rollouts.begin(start());
  store.rollouts.setStatus(1, 'running');
  t.throws(() => store.rollouts.begin(start('inv:lab', 5555)), { instanceOf: LockHeldError });
  store.rollouts.begin(start('inv:other'));
  store.rollouts.setStatus(2, 'done');
  t.throws(() => store.rollouts.begin(start('inv:lab', 5555)), { instanceOf: LockHeldError });
  t.true(store.rollouts.unlock(1));
  t.false(store.rollouts.unlock(1));
  t.is(store.rollouts.get(1)!.status, 'running', 'unlock leaves the status');
  t.is(store.rollouts.begin(start('inv:lab', 5555)).id, 3);
  t.throws(() => store.rollouts.setStatus(99, 'done'), { message: /rolling run 99 is not in the state store/ });
});

test('takeOver of a finished or unknown run is refused with a message naming it (exit 65)', (t) => {
  const store = open(t, tempFile(t), true);
  store.rollouts.begin(start());
  store.rollouts.setStatus(1, 'done');
  const e = t.throws(() => store.rollouts.takeOver(1, 5555, 'ctl-2'));
  t.is(e!.message, 'rolling run 1 (hotfix-windows) is done: only a running, paused or interrupted run can be resumed');
  t.is((e as { exitCode?: number }).exitCode, 65);
  t.is(
    t.throws(() => store.rollouts.takeOver(7, 5555, 'ctl-2'))!.message,
    `no rolling run 7 in the state store ${store.location}`,
  );
});

test('takeOver of a paused run: running again under the new process, holding the lock', (t) => {
  const store = open(t, tempFile(t), true);
  const a = store.rollouts.begin(start());
  store.rollouts.setStatus(1, 'paused', 'outside the maintenance window');
  const b = store.rollouts.takeOver(1, 5555, 'ctl-2');
  t.deepEqual(b, { ...a, status: 'running', reason: null, pid: 5555, controller: 'ctl-2', updatedAt: at(3) });
  t.deepEqual(store.rollouts.get(1), b);
  t.is(t.throws(() => store.rollouts.begin(start('inv:lab', 6666)))!.message, holds(1, 5555, 'ctl-2', at(3)));
  // The same process taking it over again changes nothing but the time; another live one is refused.
  t.is(store.rollouts.takeOver(1, 5555, 'ctl-2').updatedAt, at(4));
  t.throws(() => store.rollouts.takeOver(1, 6666, 'ctl-2'), { instanceOf: LockHeldError });
  t.deepEqual(store.rollouts.events(1), []);
});

test('takeOver of a running run whose process died takes its stale lock and notes it', (t) => {
  const store = open(t, tempFile(t), false);
  const a = store.rollouts.begin(start());
  const b = store.rollouts.takeOver(1, 5555, 'ctl-1');
  t.is(b.status, 'running');
  t.is(b.pid, 5555);
  t.deepEqual(store.rollouts.events(1)[0]!.data, {
    tookOverFrom: { runId: 1, pid: 4242, controller: 'ctl-1', since: a.updatedAt },
  });
});

// Version 1 of the schema, as play wrote it before the rolling journal.
const V1_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE drift_runs (id INTEGER PRIMARY KEY AUTOINCREMENT, started_at TEXT NOT NULL, record TEXT NOT NULL);
CREATE TABLE drift_run_playbooks (run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
  playbook TEXT NOT NULL, PRIMARY KEY (run_id, playbook));
CREATE TABLE drift_run_hosts (run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
  host TEXT NOT NULL, judged INTEGER NOT NULL, PRIMARY KEY (run_id, host));
CREATE TABLE drift_items (run_id INTEGER NOT NULL REFERENCES drift_runs(id) ON DELETE CASCADE,
  host TEXT NOT NULL, playbook TEXT NOT NULL, task TEXT NOT NULL, target TEXT NOT NULL, status TEXT NOT NULL,
  record TEXT NOT NULL, PRIMARY KEY (run_id, host, playbook, task, target));
CREATE INDEX drift_run_hosts_host ON drift_run_hosts (host, judged, run_id);
INSERT INTO meta (key, value) VALUES ('schema_version', '1');
`;

function writeV1(file: string, version = '1'): DriftRun {
  mkdirSync(join(file, '..'), { recursive: true });
  const counts = countItems([], []);
  const run: DriftRun = {
    id: 1,
    startedAt: '2026-11-20T10:00:00.000Z',
    durationMs: 900,
    playbooks: ['tor-gateway'],
    inventory: 'lab',
    hosts: ['tor1'],
    items: [],
    problems: [],
    counts,
    exitCode: driftExit(counts),
    warnings: [],
  };
  const { items: _, ...summary } = run;
  const db = new sqlite.Database(file);
  db.exec(V1_SCHEMA);
  db.run("UPDATE meta SET value = ? WHERE key = 'schema_version'", [version]);
  db.run('INSERT INTO drift_runs (id, started_at, record) VALUES (1, ?, ?)', [run.startedAt, JSON.stringify(summary)]);
  db.run("INSERT INTO drift_run_playbooks VALUES (1, 'tor-gateway')");
  db.run("INSERT INTO drift_run_hosts VALUES (1, 'tor1', 1)");
  db.close();
  return run;
}

function tables(file: string): { tables: string[]; version: string } {
  const db = new sqlite.Database(file);
  try {
    const names = db.all("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as { name: string }[];
    const v = db.get("SELECT value FROM meta WHERE key = 'schema_version'") as { value: string };
    return { tables: names.map((r) => r.name).filter((n) => n !== 'sqlite_sequence'), version: v.value };
  } finally {
    db.close();
  }
}

test('a version-1 file opens, keeps its drift runs and gains the journal, now version 2', (t) => {
  const file = tempFile(t);
  const run = writeV1(file);
  const store = open(t, file, true);
  t.deepEqual(store.drift.get(1), run);
  t.is(store.rollouts.begin(start()).id, 1);
  const { id: _, ...again } = run;
  t.is(store.drift.save({ ...again, startedAt: '2026-11-21T10:00:00.000Z' }).id, 2);
  store.close();
  t.deepEqual(tables(file), {
    tables: [
      'drift_items',
      'drift_run_hosts',
      'drift_run_playbooks',
      'drift_runs',
      'meta',
      'rollout_events',
      'rollout_locks',
      'rollout_runs',
    ],
    version: '2',
  });
});

test('a file from a newer play is refused (exit 65) and left as it was', (t) => {
  const file = tempFile(t);
  writeV1(file, '3');
  const e = t.throws(() => openSqliteStore(file));
  t.is(e!.message, `state store ${file}: written by a newer play (schema 3, this one reads 2); upgrade play`);
  t.is((e as { exitCode?: number }).exitCode, 65);
  t.deepEqual(tables(file), {
    tables: ['drift_items', 'drift_run_hosts', 'drift_run_playbooks', 'drift_runs', 'meta'],
    version: '3',
  });
});

test('a file lock left by a killed process (<db>.lock older than 10 s) is removed, not waited on', (t) => {
  const file = tempFile(t);
  openSqliteStore(file).close();
  mkdirSync(`${file}.lock`);
  const old = new Date(Date.now() - 60_000);
  utimesSync(`${file}.lock`, old, old);
  const store = open(t, file, true);
  t.is(store.rollouts.begin(start()).id, 1);
  t.false(existsSync(`${file}.lock`));
});

test('a fresh file lock (another process mid-transaction) is waited on, then reported (exit 75)', (t) => {
  const file = tempFile(t);
  const store = openSqliteStore(file, { busyWaitMs: 1000 });
  t.teardown(() => store.close());
  mkdirSync(`${file}.lock`);
  const e = t.throws(() => store.rollouts.begin(start()), { instanceOf: StoreBusyError });
  t.is(
    e!.message,
    `state store ${file} stayed locked (${file}.lock) by another play for 1 s; try again, or if no play is running, remove ${file}.lock`,
  );
  t.is(e!.exitCode, 75);
  rmSync(`${file}.lock`, { recursive: true });
  t.is(store.rollouts.begin(start()).id, 1);
});

// A child process: begins a run on the inventory with the real liveness check, writes what happened to
// <tag>.json, and if it won keeps the lock (stays alive) until the parent writes `release`.
const CHILD = `
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
const [storeModule, file, dir, tag] = process.argv.slice(2);
const { openSqliteStore } = await import(storeModule);
const store = openSqliteStore(file);
let out;
try {
  const run = store.rollouts.begin({ playbook: 'hotfix-windows', inventoryKey: 'inv:lab', args: {},
    startedAt: new Date().toISOString(), pid: process.pid, controller: hostname() });
  out = { won: run.id, pid: process.pid };
} catch (e) {
  out = { error: e.name, message: e.message, holder: e.holder, pid: process.pid };
}
writeFileSync(join(dir, tag + '.json'), JSON.stringify(out));
if (out.won) while (!existsSync(join(dir, 'release'))) await new Promise((r) => setTimeout(r, 50));
store.close();
`;

test('two processes begin on the same inventory at once: exactly one wins, the other gets LockHeldError', async (t) => {
  const file = tempFile(t);
  const dir = join(file, '..', '..');
  const child = join(dir, 'child.mts');
  writeFileSync(child, CHILD);
  const storeModule = pathToFileURL(join(root, 'runner/state/sqlite-store.ts')).href;
  const exits = ['a', 'b'].map((tag) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, storeModule, file, dir, tag], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    return new Promise<{ code: number | null; stderr: string }>((resolve) =>
      p.on('exit', (code) => resolve({ code, stderr })),
    );
  });
  const results = join(dir, 'a.json');
  for (let i = 0; i < 1200 && !(existsSync(results) && existsSync(join(dir, 'b.json'))); i++) await delay(50);
  writeFileSync(join(dir, 'release'), '');
  const ended = await Promise.all(exits);
  t.deepEqual(
    ended.map((e) => e.code),
    [0, 0],
    ended.map((e) => e.stderr).join('\n'),
  );
  const outs = ['a', 'b'].map((tag) => JSON.parse(readFileSync(join(dir, `${tag}.json`), 'utf8')));
  const winners = outs.filter((o) => o.won !== undefined);
  const losers = outs.filter((o) => o.error !== undefined);
  t.is(winners.length, 1);
  t.is(losers.length, 1);
  t.is(losers[0].error, 'LockHeldError');
  t.is(losers[0].holder.runId, winners[0].won);
  t.is(losers[0].holder.pid, winners[0].pid);
  t.regex(
    losers[0].message,
    new RegExp(
      `^another play run holds the rolling lock on this inventory: run ${winners[0].won} \\(hotfix-windows\\), pid ${winners[0].pid} on `,
    ),
  );
});
