// The batch loop (runner/rolling/rollout.ts) over the real node cycle, KubectlCluster and the real kubectl
// against the Kubernetes API double (lab/cluster/api/, a TEST DOUBLE): the budget for the whole run, the window,
// the stop request and the health gate, read from the run's notes and the hosts' outcomes.
import test, { type ExecutionContext } from 'ava';
import { updateClusterState } from '../../lab/cluster/cluster-state.js';
import { KubectlCluster } from '../../runner/rolling/cluster.js';
import { foldEvent, hostProgress } from '../../runner/rolling/progress.js';
import { runRollout } from '../../runner/rolling/rollout.js';
import { parseWindow } from '../../runner/rolling/window.js';
import type { JournalEvent } from '../../runner/state/store.js';
import { cluster } from '../lab/cluster/fixture.js';
import { InProcessKubectl } from './in-process-kubectl.js';
import { TEST_POLICY } from './test-policy.js';

interface Options {
  batches: string[][];
  allowed?: number;
  failing?: string[];
  window?: string;
  /** ms since the epoch the run's clock starts at. */
  start?: number;
  stopAfter?: string;
  /** Called after each apply with the state file (a node going NotReady, say). */
  afterApply?: (host: string, file: string) => void;
  soakSec?: number;
}

async function roll(t: ExecutionContext, o: Options) {
  const c = cluster(t);
  const notes: string[] = [];
  const events: JournalEvent[] = o.batches.flat().map((h, i) => ({
    runId: 1,
    host: h,
    phase: 'planned',
    state: 'end' as const,
    at: new Date(i).toISOString(),
    detail: null,
    data: { batch: o.batches.findIndex((b) => b.includes(h)) + 1 },
  }));
  const progress = hostProgress(events);
  let clock = o.start ?? Date.UTC(2026, 10, 23, 12, 0, 0);
  const stop = new AbortController();
  const end = await runRollout({
    cluster: new KubectlCluster(new InProcessKubectl(c.file), 'kubectl'),
    policy: { ...TEST_POLICY, soakSec: o.soakSec ?? 0 },
    nodeName: (h) => h,
    async record(host, phase, state, detail) {
      if (host === '') notes.push(`${phase} ${state}${detail ? `: ${detail}` : ''}`);
      foldEvent(progress, {
        runId: 1,
        host,
        phase,
        state,
        at: new Date(clock).toISOString(),
        detail: detail ?? null,
        data: null,
      });
      if (`${host} ${phase} ${state}` === o.stopAfter) stop.abort();
    },
    check: async () => ({ work: true }),
    apply: async (h) => {
      o.afterApply?.(h, c.file);
      return o.failing?.includes(h)
        ? { ok: false, detail: 'task hotfix failed' }
        : { ok: true, detail: 'changed: hotfix' };
    },
    reachable: async () => true,
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    stop: stop.signal,
    batches: o.batches,
    progress,
    allowedFailures: o.allowed ?? 0,
    window: o.window ? parseWindow(o.window) : null,
    readyAtStart: new Set(['control1', 'node001', 'node002', 'node003']),
  });
  const outcomes = Object.fromEntries([...progress].map(([h, p]) => [h, p.outcome]));
  return { end, notes, outcomes, c };
}

test('every batch in turn, the gate between them', async (t) => {
  const r = await roll(t, { batches: [['node001'], ['node002', 'node003']] });
  t.deepEqual(r.end, { status: 'done', reason: null });
  t.deepEqual(r.outcomes, { node001: 'done', node002: 'done', node003: 'done' });
  t.deepEqual(r.notes, [
    'batch begin: batch 1 of 2: node001 (failures so far 0 of 0 allowed)',
    'batch end: 1 done (1 node)',
    'gate end: no node went NotReady',
    'batch begin: batch 2 of 2: node002, node003 (failures so far 0 of 0 allowed)',
    'batch end: 2 done (2 nodes)',
    'gate end: no node went NotReady',
  ]);
});

test('one budget for the whole run: the failure that spends it stops the run before the next batch', async (t) => {
  const spent = await roll(t, {
    batches: [['node001'], ['node002'], ['node003']],
    allowed: 1,
    failing: ['node001', 'node002'],
  });
  t.deepEqual(spent.end, { status: 'stopped', reason: 'failure budget spent: 2 failed, 1 allowed' });
  t.deepEqual(spent.outcomes, { node001: 'failed', node002: 'failed', node003: 'pending' });

  const last = await roll(t, { batches: [['node001'], ['node002']], allowed: 0, failing: ['node002'] });
  t.deepEqual(
    last.end,
    { status: 'done', reason: '1 node failed' },
    'a failure in the last batch leaves nothing to stop',
  );
});

test('outside the maintenance window: no batch starts, the run pauses and says when it opens', async (t) => {
  // Monday 2026-11-23 12:00 UTC is 20:00 in Shanghai: outside Sat,Sun 01:00-05:00.
  const r = await roll(t, { batches: [['node001']], window: 'Sat,Sun 01:00-05:00 Asia/Shanghai' });
  t.deepEqual(r.end, {
    status: 'paused',
    reason:
      'outside the maintenance window Sat,Sun 01:00-05:00 Asia/Shanghai; it opens next at 2026-11-27T17:00:00.000Z',
  });
  t.deepEqual(r.outcomes, { node001: 'pending' });
  t.deepEqual(r.c.events(), [], 'nothing cordoned');
});

test('a stop request: the running batch finishes its nodes, no new batch starts', async (t) => {
  const r = await roll(t, { batches: [['node001'], ['node002']], stopAfter: 'node001 apply end' });
  t.deepEqual(r.end, { status: 'interrupted', reason: 'stopped by a signal (Ctrl-C or SIGTERM)' });
  t.deepEqual(r.outcomes, { node001: 'done', node002: 'pending' });
});

test('the gate: a node Ready at the start going NotReady during the soak stops the run', async (t) => {
  const r = await roll(t, {
    batches: [['node001'], ['node002']],
    soakSec: 60,
    afterApply: (h, file) =>
      h === 'node001' &&
      updateClusterState(file, (s) => {
        s.nodes.node003!.ready = false;
      }),
  });
  t.deepEqual(r.end, {
    status: 'stopped',
    reason: 'health gate after batch 1: node003 NotReady (Ready when the run began)',
  });
  t.deepEqual(r.outcomes, { node001: 'done', node002: 'pending' });
});
