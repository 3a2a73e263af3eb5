// The SQLite state store (runner/state/sqlite/) on temp files: the store contract (store-suite.ts), then
// what only a file has: a schema-2 file written by an older play upgraded in place, files it must refuse
// and leave as they were, read-only commands that never create one, a --state path under a file, a store
// on a read-only filesystem and on a full one (real tmpfs mounts: the suite runs as root), a writer of
// another program holding the lock, the integrity check and the online backup. Debian's sqlite3 is the
// oracle for what is in the file.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { APPLICATION_ID, SCHEMA_VERSION } from '../../runner/state/sqlite/schema.js';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';
import { driftRun, storeSuite } from './store-suite.js';
import { sqlite3 } from '../helpers/sqlite3.js';

function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

storeSuite('sqlite', async (t, o) => {
  const store = openSqliteStore(join(tempDir(t), 'sub', 'state.db'), o);
  t.teardown(() => store.close());
  return store;
});

const FIXTURE = new URL('./fixtures/schema-2.db', import.meta.url);

test('a schema-2 file from an older play is upgraded in place: its drift run, rolling run, events and lock are kept', async (t) => {
  const file = join(tempDir(t), 'state.db');
  copyFileSync(FIXTURE, file);
  const store = openSqliteStore(file);
  t.teardown(() => store.close());
  t.is((await store.drift.latest())?.items[0]?.host, 'tor2');
  t.like(await store.rollouts.get(1), {
    playbook: 'hotfix-windows',
    status: 'running',
    pid: 4242,
    controller: 'old-controller',
  });
  t.deepEqual(
    (await store.rollouts.events(1)).map((e) => `${e.host} ${e.phase} ${e.state}`),
    [' plan note', 'node009 planned end', 'node009 cordon begin'],
  );
  // The old lock is a lease now, with a fence: a new claim waits for it to expire.
  t.like(await store.rollouts.lease('/srv/inv.yaml'), { runId: 1, fence: 1, released: false, ttlMs: 30_000 });
  t.deepEqual(await store.check(), { location: file, schema: SCHEMA_VERSION, problems: [], driftRuns: 1, rollouts: 1 });
  t.is(sqlite3(file, 'PRAGMA integrity_check'), 'ok');
  t.is(sqlite3(file, 'PRAGMA journal_mode'), 'wal');
  t.is(sqlite3(file, 'PRAGMA application_id'), String(APPLICATION_ID));
  t.is(sqlite3(file, "SELECT value FROM meta WHERE key = 'schema_version'"), String(SCHEMA_VERSION));
});

/** The error opening `file` throws, and that the file is byte for byte what it was. */
function refused(t: ExecutionContext, file: string, mode: 'read' | 'write' = 'write') {
  const before = readFileSync(file);
  const e = t.throws(() => openSqliteStore(file, { mode })) as Error & { exitCode?: number };
  t.deepEqual(readFileSync(file), before, 'the file is left as it was');
  return e;
}

test('a file of another program, a newer play or no database at all is refused naming it (exit 65), left as it was', async (t) => {
  const dir = tempDir(t);
  const foreign = join(dir, 'app.db');
  sqlite3(foreign, 'CREATE TABLE drift_runs (x TEXT); INSERT INTO drift_runs VALUES (1)');
  const a = refused(t, foreign);
  t.is(a.exitCode, 65);
  t.regex(a.message, /app\.db: an SQLite database of another program/);
  const newer = join(dir, 'newer.db');
  await openSqliteStore(newer).close();
  sqlite3(newer, "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  t.regex(
    refused(t, newer).message,
    /newer\.db: written by a newer play \(schema 99, this one reads \d+\); upgrade play/,
  );
  const junk = join(dir, 'junk.db');
  writeFileSync(junk, 'not a database at all, but long enough to have a header of sorts..........................');
  const j = refused(t, junk);
  t.is(j.exitCode, 65);
  t.regex(j.message, /junk\.db: not an SQLite database .*keep the file/);
  t.notRegex(j.message, /move it away/);
});

test('read mode never creates a store: a missing file is null and nothing is made', (t) => {
  const dir = tempDir(t);
  t.is(openSqliteStore(join(dir, 'new', 'state.db'), { mode: 'read' }), null);
  t.deepEqual(execFileSync('find', [dir], { encoding: 'utf8' }).trim(), dir);
});

test('--state under a regular file, or naming a directory, is a usage error naming it (exit 64)', (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'file'), '');
  const under = t.throws(() => openSqliteStore(join(dir, 'file', 'state.db'))) as Error & { exitCode?: number };
  t.is(under.exitCode, 64);
  t.regex(under.message, /file\/state\.db: a part of its directory is a file/);
  const asDir = t.throws(() => openSqliteStore(dir)) as Error & { exitCode?: number };
  t.is(asDir.exitCode, 64);
  t.regex(asDir.message, /is a directory/);
});

/** A tmpfs of `size` mounted on a fresh directory for this test (unmounted at its end). */
function tmpfs(t: ExecutionContext, size: string): string {
  const dir = tempDir(t);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  t.teardown(() => execFileSync('umount', ['-l', dir]));
  return dir;
}

test('a store on a read-only filesystem says read-only (exit 74) and what to do, for reading and writing alike', async (t) => {
  const dir = tmpfs(t, '4m');
  const file = join(dir, 'state.db');
  const s = openSqliteStore(file);
  await s.drift.save(driftRun('2026-11-23T10:00:00.000Z', ['tor1'], []));
  await s.close();
  execFileSync('mount', ['-o', 'remount,ro', dir]);
  for (const mode of ['read', 'write'] as const) {
    const e = t.throws(() => openSqliteStore(file, { mode })) as Error & { exitCode?: number };
    t.is(e.exitCode, 74, mode);
    t.regex(e.message, /state\.db: is on a read-only filesystem .*copy it to a writable place/, mode);
  }
  t.is(sqlite3(`file:${file}?immutable=1`, 'SELECT count(*) FROM drift_runs'), '1');
});

test('a full disk during a drift save: exit 74 saying so, and the store keeps every earlier run, intact', async (t) => {
  const dir = tmpfs(t, '512k');
  const file = join(dir, 'state.db');
  const s = openSqliteStore(file);
  t.teardown(() => s.close());
  await s.drift.save(driftRun('2026-11-23T10:00:00.000Z', ['tor1'], []));
  const big = Array.from({ length: 400 }, (_, i) => bigItem(i));
  const e = (await t.throwsAsync(s.drift.save(driftRun('2026-11-23T11:00:00.000Z', ['tor1'], big)))) as Error & {
    exitCode?: number;
  };
  t.is(e.exitCode, 74);
  t.regex(e.message, /state\.db: the disk is full .* while saving the drift run; nothing of it was recorded/);
  t.deepEqual(
    (await s.drift.list(5)).map((r) => r.id),
    [1],
  );
  t.is(sqlite3(file, 'PRAGMA integrity_check'), 'ok');
});

/** An item of about 6 kB: 400 of them do not fit in what the small tmpfs has left. */
function bigItem(i: number) {
  return {
    host: 'tor1',
    playbook: 'tor-gateway',
    task: `t${i}`,
    kind: 'linux.file',
    title: 'x'.repeat(2000),
    action: 'update' as const,
    fields: ['content'],
    before: { content: 'b'.repeat(2000) },
    after: { content: 'a'.repeat(2000) },
    status: 'new' as const,
    firstSeen: '2026-11-23T10:00:00.000Z',
  };
}

test("another program's writer holding the lock (sqlite3 in a transaction) makes play wait, then say busy (exit 75); nothing is lost", async (t) => {
  const file = join(tempDir(t), 'state.db');
  const s = openSqliteStore(file, { busyWaitMs: 300 });
  t.teardown(() => s.close());
  const holder = spawn('sqlite3', [file], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.teardown(() => holder.kill('SIGKILL'));
  const ready = new Promise((r) => holder.stdout.once('data', r));
  holder.stdin.write("BEGIN IMMEDIATE;\nINSERT INTO meta VALUES ('held', '1');\n.print ready\n");
  await ready;
  const e = (await t.throwsAsync(s.drift.save(driftRun('2026-11-23T10:00:00.000Z', ['tor1'], [])))) as Error & {
    exitCode?: number;
  };
  t.is(e.exitCode, 75);
  t.regex(e.message, /stayed locked by another process for 0\.3 s .*nothing was lost/);
  holder.stdin.end('COMMIT;\n');
  await new Promise((r) => holder.on('close', r));
  t.is((await s.drift.save(driftRun('2026-11-23T11:00:00.000Z', ['tor1'], []))).id, 1);
  t.is(sqlite3(file, "SELECT value FROM meta WHERE key = 'held'"), '1');
});

test('the online backup is a consistent, openable copy; check reports a sound store', async (t) => {
  const dir = tempDir(t);
  const s = openSqliteStore(join(dir, 'state.db'));
  t.teardown(() => s.close());
  for (let i = 0; i < 5; i++) await s.drift.save(driftRun(`2026-11-2${i}T10:00:00.000Z`, ['tor1'], []));
  mkdirSync(join(dir, 'backups'));
  await s.backup(join(dir, 'backups', 'copy.db'));
  t.is(sqlite3(join(dir, 'backups', 'copy.db'), 'PRAGMA integrity_check'), 'ok');
  const copy = openSqliteStore(join(dir, 'backups', 'copy.db'), { mode: 'read' });
  t.is((await copy?.drift.list(10))?.length, 5);
  await copy?.close();
  t.like(await s.check(), { problems: [], driftRuns: 5, rollouts: 0 });
});
