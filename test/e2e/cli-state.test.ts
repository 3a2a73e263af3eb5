// The state store from the command line: the mistakes a user can make with it (a --state path under a
// file, a file that is not play's, a damaged or newer store, a bad PLAY_LEASE_TTL) as CLI-table rows,
// each its documented exit code and one line that says to keep the file; then `play state check`,
// `backup` and `migrate` end to end, and reading commands that never create a store.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { type CliRow, cliTable, OK_PLAYBOOK, ONE_HOST_INVENTORY } from '../helpers/cli-table.js';
import { play } from '../helpers/play.js';
import { sqlite3 } from '../helpers/sqlite3.js';

const FIXTURE = new URL('../state/fixtures/schema-2.db', import.meta.url);

const rows: Record<string, CliRow> = {
  'drift with --state under a regular file': {
    argv: ['drift', 'ok.ts', '-i', 'inv.yaml', '--state', 'afile/state.db'],
    files: { 'inv.yaml': ONE_HOST_INVENTORY, 'ok.ts': OK_PLAYBOOK, afile: '' },
    code: 64,
    message: /state store afile\/state\.db: a part of its directory is a file, not a directory; pass --state/,
  },
  'rollouts list on a database of another program': {
    argv: ['rollouts', 'list', '--state', 'app.db'],
    setup: (d) => sqlite3(join(d, 'app.db'), 'CREATE TABLE rollout_runs (x TEXT)'),
    code: 65,
    message: /state store app\.db: an SQLite database of another program/,
  },
  'rollouts show on a file that is not a database': {
    argv: ['rollouts', 'show', '1', '--state', 'junk.db'],
    files: { 'junk.db': 'this is not a database, though long enough to look like a header of one.......' },
    code: 65,
    message: /state store junk\.db: not an SQLite database .*keep the file .*play state check/,
  },
  'drift history on a store from a newer play': {
    argv: ['drift', 'history', '--state', 'newer.db'],
    setup: (d) => {
      copyFileSync(FIXTURE, join(d, 'newer.db'));
      sqlite3(join(d, 'newer.db'), "UPDATE meta SET value = '99' WHERE key = 'schema_version'");
    },
    code: 65,
    message: /newer\.db: written by a newer play \(schema 99, this one reads \d+\); upgrade play/,
  },
  'state backup without a file': { argv: ['state', 'backup'], code: 64, message: /state backup: name the file/ },
  'state backup over an existing file': {
    argv: ['state', 'backup', 'copy.db', '--state', 'state.db'],
    files: { 'copy.db': 'precious' },
    code: 64,
    message: /state backup copy\.db: the file exists; name a new file/,
  },
  'state check where there is no store': {
    argv: ['state', 'check', '--state', 'none/state.db'],
    code: 64,
    message: /state check: no state store at none\/state\.db/,
  },
  'a rolling run with a PLAY_LEASE_TTL that is not a number of seconds': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '1', '--state', 'state.db'],
    files: { 'inv.yaml': ONE_HOST_INVENTORY, 'ok.ts': OK_PLAYBOOK },
    env: { PLAY_LEASE_TTL: 'forever' },
    code: 64,
    message: /PLAY_LEASE_TTL 'forever': expected a number of seconds from 1 to 3600/,
  },
};

cliTable(rows);

function tempDir(t: import('ava').ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-cli-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('reading commands never create a store: drift history, drift show, rollouts list and show, resume', async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'new', 'state.db');
  const history = await play(['drift', 'history', '--state', state]);
  t.is(history.code, 0, history.stderr);
  t.is(history.stdout, `no drift runs recorded in ${state}\n`);
  t.is((await play(['rollouts', 'list', '--state', state])).code, 0);
  for (const argv of [['drift', 'show', 'latest'], ['rollouts', 'show', '1'], ['resume']]) {
    const r = await play([...argv, '--state', state]);
    t.is(r.code, 64, `${argv.join(' ')}: ${r.stderr}`);
  }
  t.false(existsSync(join(dir, 'new')));
});

test('play state migrate upgrades a schema-2 store; check reports it sound; backup copies it; the copy checks sound', async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'state.db');
  copyFileSync(FIXTURE, state);
  const migrate = await play(['state', 'migrate', '--state', state]);
  t.is(migrate.code, 0, migrate.stderr);
  t.regex(migrate.stdout, /schema \d+, current/);
  t.is(sqlite3(state, 'PRAGMA journal_mode'), 'wal');
  const check = await play(['state', 'check', '--state', state, '--json']);
  t.is(check.code, 0, check.stderr);
  t.like(JSON.parse(check.stdout), { problems: [], driftRuns: 1, rollouts: 1 });
  const backup = await play(['state', 'backup', join(dir, 'copy.db'), '--state', state]);
  t.is(backup.code, 0, backup.stderr);
  const copy = await play(['state', 'check', '--state', join(dir, 'copy.db')]);
  t.is(copy.code, 0, copy.stderr);
  t.regex(copy.stdout, /1 drift runs, 1 rolling runs; integrity ok/);
  t.is((await play(['rollouts', 'show', '1', '--state', join(dir, 'copy.db')])).code, 0);
});

test('play state check on a damaged store names the problem (exit 1) and leaves the file', async (t) => {
  const dir = tempDir(t);
  const state = join(dir, 'state.db');
  copyFileSync(FIXTURE, state);
  // A journal event whose run does not exist: the foreign key check finds it.
  sqlite3(
    state,
    "PRAGMA foreign_keys=OFF; INSERT INTO rollout_events (run_id, seq, host, phase, state, at) VALUES (77, 1, 'x', 'drain', 'begin', 'now')",
  );
  const check = await play(['state', 'check', '--state', state]);
  t.is(check.code, 1, check.stderr);
  t.regex(check.stdout, /1 problems:\n {2}rollout_events row \d+: no rollout_runs row it refers to/);
  t.is(sqlite3(state, 'SELECT count(*) FROM rollout_events WHERE run_id = 77'), '1');
});
