// Which rolling runs a standby takes over (runner/rolling/orphans.ts), on a real SQLite store with a
// moved clock: running runs whose lease expired; not one still renewed, released, finished or held by
// another run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { orphanedRuns } from '../../runner/rolling/orphans.js';
import type { LeaseClaim } from '../../runner/state/lease.js';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';

const claim = (pid: number): LeaseClaim => ({
  token: `t-${pid}`,
  identity: { host: 'ctl', bootId: 'b', pidNamespace: 'p', pid, startTicks: '1' },
  ttlMs: 30_000,
});
const run = (inventoryKey: string) => ({
  playbook: 'hotfix-windows',
  inventoryKey,
  args: {},
  startedAt: '2026-11-23T00:00:00.000Z',
});

test('only running runs whose own lease expired are orphans', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-orphans-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let ms = Date.parse('2026-11-23T01:00:00.000Z');
  const store = openSqliteStore(join(dir, 'state.db'), { now: () => new Date(ms), isGone: () => false });
  t.teardown(() => store.close());
  const dead = await store.rollouts.begin(run('inv:a'), claim(1));
  const alive = await store.rollouts.begin(run('inv:b'), claim(2));
  const done = await store.rollouts.begin(run('inv:c'), claim(3));
  const paused = await store.rollouts.begin(run('inv:d'), claim(4));
  await store.rollouts.setStatus(done.lease, 'done');
  await store.rollouts.setStatus(paused.lease, 'paused', 'outside the window');
  t.deepEqual(await orphanedRuns(store.rollouts, new Date(ms)), [], 'nothing has expired yet');
  ms += 20_000;
  await store.rollouts.renew(alive.lease);
  ms += 15_000;
  const orphans = await orphanedRuns(store.rollouts, new Date(ms));
  t.deepEqual(
    orphans.map((o) => [o.run.id, o.expiredAt]),
    [[dead.run.id, '2026-11-23T01:00:30.000Z']],
  );
  // Taken over by a standby: no longer an orphan.
  await store.rollouts.takeOver(dead.run.id, claim(9));
  t.deepEqual(await orphanedRuns(store.rollouts, new Date(ms)), []);
});
