// A journal write failing in the middle of a batch (a full disk, here injected on one write of a real
// SQLite store): the batch loop (runner/rolling/rollout.ts) with the run's journal (run-journal.ts) over
// the real node cycle, KubectlCluster and kubectl against the Kubernetes API double (lab/cluster/api/, a TEST DOUBLE). The
// node whose write failed does nothing more, the other nodes in flight reach a safe point, nothing new
// starts, and the loop returns only when every cycle has settled: no node is left mid-phase with the
// store closed under it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { KubectlCluster } from '../../runner/rolling/cluster.js';
import { foldEvent, hostProgress } from '../../runner/rolling/progress.js';
import { runRollout } from '../../runner/rolling/rollout.js';
import { RunJournal } from '../../runner/rolling/run-journal.js';
import { currentIdentity } from '../../runner/state/process-identity.js';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';
import { StoreWriteError } from '../../runner/state/store-errors.js';
import type { RolloutJournal } from '../../runner/state/store.js';
import { cluster } from '../lab/cluster/fixture.js';
import { InProcessKubectl } from './in-process-kubectl.js';
import { TEST_POLICY } from './test-policy.js';

/** The store's journal, whose writes fail from the event `from` on (`once`: only that write). */
function failing(journal: RolloutJournal, from: string, once: boolean): RolloutJournal {
  let failed = false;
  return new Proxy(journal, {
    get(target, key) {
      if (key !== 'record') return Reflect.get(target, key).bind(target);
      return async (...[lease, e]: Parameters<RolloutJournal['record']>) => {
        if ((failed && !once) || `${e.host} ${e.phase} ${e.state}` === from) {
          if (!failed || !once) {
            failed = true;
            throw new StoreWriteError('/var/lib/play/state.db', 'the disk is full (SQLITE_FULL)', 'free space');
          }
        }
        return target.record(lease, e);
      };
    },
  });
}

async function roll(t: ExecutionContext, failAt: string, once: boolean) {
  const c = cluster(t);
  const dir = mkdtempSync(join(tmpdir(), 'play-journal-failure-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = openSqliteStore(join(dir, 'state.db'));
  t.teardown(() => store.close());
  const batches = [['node001', 'node002'], ['node003']];
  const claim = { token: 'run-token', identity: currentIdentity(), ttlMs: 30_000 };
  const { lease } = await store.rollouts.begin(
    { playbook: 'hotfix-windows', inventoryKey: 'inv', args: {}, startedAt: new Date().toISOString() },
    claim,
  );
  const stop = new AbortController();
  const journal = new RunJournal(failing(store.rollouts, failAt, once), lease, stop);
  for (const [i, b] of batches.entries())
    for (const h of b) await journal.record(h, 'planned', 'end', `batch ${i + 1}`, { batch: i + 1 });
  const progress = hostProgress(await store.rollouts.events(1));
  let applying = 0;
  let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
  const end = await runRollout({
    cluster: new KubectlCluster(new InProcessKubectl(c.file), 'kubectl'),
    policy: TEST_POLICY,
    nodeName: (h) => h,
    record: async (...a) => void foldEvent(progress, await journal.record(...a)),
    check: async () => ({ work: true }),
    apply: async () => {
      applying++;
      await new Promise((r) => setTimeout(r, 50));
      applying--;
      return { ok: true, detail: 'changed: hotfix' };
    },
    reachable: async () => true,
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    stop: stop.signal,
    batches,
    progress,
    allowedFailures: 0,
    window: null,
    readyAtStart: new Set(['control1', 'node001', 'node002', 'node003']),
  });
  const recorded = await store.rollouts.events(1);
  const last = (h: string) => {
    const e = recorded.filter((x) => x.host === h).at(-1);
    return e ? `${e.phase} ${e.state}` : null;
  };
  const cordoned = Object.values(c.read().nodes)
    .filter((n) => n.unschedulable)
    .map((n) => n.name)
    .sort();
  return { end, journal, last, cordoned, applying, stopped: stop.signal.aborted };
}

test('one write that fails mid-batch: that node stops where its journal says, the other reaches a safe point, no new batch', async (t) => {
  const r = await roll(t, 'node002 drain end', true);
  t.deepEqual(r.end, { status: 'interrupted', reason: 'the journal could not be written: nothing more was started' });
  t.true(r.stopped, 'the failure stopped the run as Ctrl-C does');
  t.regex(r.journal.failure?.message ?? '', /^recording node002's drain end: state store .*the disk is full/);
  // node002 was drained (kubectl ran) but its end was not recorded: it stops, and the journal's last word
  // on it, drain begun, is what a resume repeats (a drain again evicts nothing left).
  t.is(r.last('node002'), 'drain begin');
  t.deepEqual(r.cordoned, ['node002'], 'only the node whose write failed is left cordoned, as its journal says');
  // node001 finished its phase and went to a safe point, recorded: done, or back in service before its tasks.
  t.true(['done end', 'uncordon end'].includes(r.last('node001') ?? ''), `node001: ${r.last('node001')}`);
  t.is(r.last('node003'), 'planned end', 'nothing new started');
  t.is(r.applying, 0, 'no task was still running when the loop returned');
});

test('a store that stays broken: every node stops at its next write, and the loop still returns only after all settled', async (t) => {
  const r = await roll(t, 'node002 drain end', false);
  t.is(r.end.status, 'interrupted');
  t.is(r.applying, 0);
  t.is(r.last('node003'), 'planned end');
  t.is(r.last('node002'), 'drain begin');
  t.regex(r.journal.failure?.message ?? '', /node002's drain end/);
});
