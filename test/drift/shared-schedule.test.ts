// A drift schedule shared by two controllers on one state store (runner/drift/run/schedule-loop.ts with the
// SQLite store's tick claims): two loops on the real clock, `--every 1s`, each run lasting 300 ms. Each
// tick is run once, by one of them; runs never overlap; when one controller stops, the other keeps the
// schedule. Then the claims themselves: taken, busy while an earlier run goes on, free once it finished
// or its claim expired.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runOnSchedule, tickClaimer } from '../../runner/drift/run/schedule-loop.js';
import { parseSchedule } from '../../runner/drift/schedule.js';
import type { LeaseClaim } from '../../runner/state/lease.js';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';

const controller = (pid: number, ttlMs = 30_000): LeaseClaim => ({
  token: `controller-${pid}`,
  identity: { host: `ctl-${pid}`, bootId: 'b', pidNamespace: 'p', pid, startTicks: '1' },
  ttlMs,
});

function storeFile(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-shared-schedule-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'state.db');
}

test('two controllers, one schedule: each tick run once, never two runs at once; the survivor keeps the schedule', async (t) => {
  const file = storeFile(t);
  const runs: { by: string; start: number; end: number }[] = [];
  const loops = ['a', 'b'].map((name, i) => {
    // Each controller its own connection, as two processes have.
    const store = openSqliteStore(file);
    t.teardown(() => store.close());
    const stop = new AbortController();
    const done = runOnSchedule(parseSchedule('1s'), 0, {
      runOnce: async () => {
        const start = Date.now();
        await new Promise((r) => setTimeout(r, 300));
        runs.push({ by: name, start, end: Date.now() });
        return 0;
      },
      log: () => {},
      stop: stop.signal,
      claims: tickClaimer(store, 'drift:test', controller(100 + i)),
    });
    return { stop, done };
  });
  await new Promise((r) => setTimeout(r, 3500));
  const stoppedAt = Date.now();
  loops[0]!.stop.abort();
  await loops[0]!.done;
  await new Promise((r) => setTimeout(r, 3000));
  loops[1]!.stop.abort();
  await loops[1]!.done;

  const ticks = runs.map((r) => Math.floor(r.start / 1000));
  t.deepEqual(ticks, [...new Set(ticks)], `each tick run once: ${JSON.stringify(runs)}`);
  const byStart = [...runs].sort((x, y) => x.start - y.start);
  for (let i = 1; i < byStart.length; i++)
    t.true(byStart[i]!.start >= byStart[i - 1]!.end, `run ${i} started after run ${i - 1} ended`);
  const after = runs.filter((r) => r.start > stoppedAt + 1000);
  t.true(after.length >= 1, 'the schedule went on after a stopped');
  t.true(
    after.every((r) => r.by === 'b'),
    'only b ran after a stopped',
  );
  t.true(runs.length >= 5, `${runs.length} runs in about 6.5 s of 1 s ticks`);
});

test('claims: a tick is taken once; busy while an earlier run is unfinished and renewed; free when it finished or expired', async (t) => {
  let ms = Date.parse('2026-11-23T10:00:00.000Z');
  const store = openSqliteStore(storeFile(t), { now: () => new Date(ms) });
  t.teardown(() => store.close());
  const s = store.schedules;
  const a = controller(1);
  const b = controller(2);
  t.is(await s.claim('k', '2026-11-23T10:00:00.000Z', a), null);
  t.like(await s.claim('k', '2026-11-23T10:00:00.000Z', b), { kind: 'taken', by: { pid: 1 } });
  t.like(await s.claim('k', '2026-11-23T10:01:00.000Z', b), {
    kind: 'busy',
    by: { pid: 1 },
    dueAt: '2026-11-23T10:00:00.000Z',
  });
  t.is(await s.claim('other', '2026-11-23T10:01:00.000Z', b), null, 'another schedule is not blocked');
  ms += 20_000;
  await s.renew('k', '2026-11-23T10:00:00.000Z', a.token);
  ms += 20_000;
  t.like(await s.claim('k', '2026-11-23T10:01:00.000Z', b), { kind: 'busy' }, 'renewed: still running');
  await s.finish('k', '2026-11-23T10:00:00.000Z', a.token);
  t.is(await s.claim('k', '2026-11-23T10:01:00.000Z', b), null, 'finished: the next tick is free');
  // b dies without finishing: once its claim expires, the next tick is free again.
  ms += 31_000;
  t.is(await s.claim('k', '2026-11-23T10:02:00.000Z', a), null);
});
