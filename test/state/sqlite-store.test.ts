// The state store's SQLite backend (runner/state/sqlite-store.ts) on a temp file: runs saved and read
// back whole, the previous judgement of each host, retention, and files it must refuse.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { countItems, type DriftItem, type DriftRun, driftExit, type HostProblem } from '../../runner/drift/model.js';
import { openSqliteStore } from '../../runner/state/sqlite-store.js';

function tempFile(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-state-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'sub', 'state.db');
}

const item = (host: string, task: string, status: DriftItem['status'], playbook = 'tor-gateway'): DriftItem => ({
  host,
  playbook,
  task,
  kind: 'linux.file',
  title: `file of ${task}`,
  action: 'update',
  fields: ['content'],
  before: { content: 'a' },
  after: { content: '********' },
  status,
  firstSeen: '2026-11-23T10:00:00.000Z',
});

function run(
  at: string,
  hosts: string[],
  items: DriftItem[],
  problems: HostProblem[] = [],
  playbooks = ['tor-gateway'],
): Omit<DriftRun, 'id'> {
  const counts = countItems(items, problems);
  return {
    startedAt: at,
    durationMs: 1200,
    playbooks,
    inventory: 'lab',
    hosts,
    items,
    problems,
    counts,
    exitCode: driftExit(counts),
    warnings: [],
  };
}

test('a run is saved with an increasing id and read back whole; list is newest first, without items', (t) => {
  const file = tempFile(t);
  const store = openSqliteStore(file);
  t.teardown(() => store.close());
  const a = store.drift.save(run('2026-11-23T10:00:00.000Z', ['tor1', 'tor2'], [item('tor2', 'conf', 'new')]));
  const b = store.drift.save(run('2026-11-23T11:00:00.000Z', ['tor1', 'tor2'], []));
  t.deepEqual([a.id, b.id], [1, 2]);
  t.deepEqual(store.drift.get(1), a);
  t.deepEqual(store.drift.latest(), b);
  t.deepEqual(
    store.drift.list(10).map((r) => r.id),
    [2, 1],
  );
  t.false('items' in store.drift.list(1)[0]!);
  t.is(store.drift.get(99), null);
  store.close();
  // It is a file: another process (a later `play drift`) sees the same runs.
  const again = openSqliteStore(file);
  t.teardown(() => again.close());
  t.deepEqual(again.drift.get(1), a);
});

test("previous items: each host's newest judgement that checked the playbook; unreachable runs and resolved items do not count", (t) => {
  const store = openSqliteStore(tempFile(t));
  t.teardown(() => store.close());
  store.drift.save(
    run('2026-11-23T10:00:00.000Z', ['tor1', 'tor2'], [item('tor1', 'a', 'new'), item('tor2', 'b', 'new')]),
  );
  // tor2 unreachable in the next run: its judgement stays the first run's.
  store.drift.save(
    run(
      '2026-11-23T11:00:00.000Z',
      ['tor1', 'tor2'],
      [item('tor1', 'a', 'persisting')],
      [{ host: 'tor2', kind: 'unreachable', message: 'x' }],
    ),
  );
  // Another playbook's run does not hide the tor-gateway judgement.
  store.drift.save(run('2026-11-23T12:00:00.000Z', ['tor1'], [item('tor1', 'w', 'new', 'other')], [], ['other']));
  store.drift.save(run('2026-11-23T13:00:00.000Z', ['tor1'], [item('tor1', 'c', 'resolved')]));
  t.deepEqual(
    store.drift.previousItems(['tor1', 'tor2', 'tor3'], ['tor-gateway']).map((i) => `${i.host}/${i.task}/${i.status}`),
    ['tor2/b/new'],
    'tor1: its newest tor-gateway run had only a resolved item; tor2: run 1; tor3: never judged',
  );
  t.deepEqual(
    store.drift.previousItems(['tor1'], ['other']).map((i) => i.task),
    ['w'],
  );
});

test('retention: by age and by count, runs and their items go together', (t) => {
  const store = openSqliteStore(tempFile(t));
  t.teardown(() => store.close());
  for (let d = 1; d <= 5; d++)
    store.drift.save(run(`2026-11-0${d}T00:00:00.000Z`, ['tor1'], [item('tor1', 'a', 'new')]));
  t.is(store.drift.prune({ olderThan: new Date('2026-11-03T00:00:00.000Z') }), 2);
  t.deepEqual(
    store.drift.list(10).map((r) => r.id),
    [5, 4, 3],
  );
  t.is(store.drift.prune({ keepCount: 1 }), 2);
  t.deepEqual(
    store.drift.list(10).map((r) => r.id),
    [5],
  );
  t.is(store.drift.get(3), null);
  t.is(store.drift.prune({ keepCount: 1 }), 0);
});

test('a file that is not a state store, or one from a newer play, is refused with its path (exit 65)', (t) => {
  const file = tempFile(t);
  openSqliteStore(file).close();
  const junk = join(file, '..', 'junk.db');
  writeFileSync(junk, 'not sqlite at all, just text that is long enough to be read as a header........');
  const e = t.throws(() => openSqliteStore(junk));
  t.regex(e!.message, /^state store .*junk\.db: not a play state store \(.+\); move it away or pass --state$/);
  t.is((e as { exitCode?: number }).exitCode, 65);
});
