// One node's cycle (runner/rolling/node-cycle.ts) through the real KubectlCluster and the real kubectl
// against the Kubernetes API double (lab/cluster/api/, a TEST DOUBLE): the journal it writes compared
// whole, and what the cluster says afterwards. The node's own tasks (check, apply) are scripted here; the e2e test
// (test/e2e/hotfix-windows.test.ts) runs them for real.
import test, { type ExecutionContext } from 'ava';
import { updateClusterState } from '../../lab/cluster/cluster-state.js';
import { addPdb, addReplicaSet } from '../../lab/cluster/workloads.js';
import { KubectlCluster } from '../../runner/rolling/cluster.js';
import type { RollingPolicy } from '../../runner/rolling/model.js';
import { type CycleDeps, runNodeCycle } from '../../runner/rolling/node-cycle.js';
import { foldEvent, type HostProgress, hostProgress } from '../../runner/rolling/progress.js';
import type { JournalEvent } from '../../runner/state/store.js';
import { cluster } from '../lab/cluster/fixture.js';
import { InProcessKubectl } from './in-process-kubectl.js';
import { TEST_POLICY } from './test-policy.js';

type Line = [host: string, phase: string, state: JournalEvent['state'], detail?: string | null, data?: object | null];

interface Setup {
  edit?: Parameters<typeof cluster>[1];
  policy?: Partial<RollingPolicy>;
  check?: CycleDeps['check'];
  apply?: CycleDeps['apply'];
  /** Events already in the journal (a resumed node). */
  before?: Line[];
  /** Runs after the apply (the node's reboot, as the cluster sees it). */
  afterApply?: (file: string) => void;
  stopAfter?: string;
}

function setup(t: ExecutionContext, o: Setup = {}) {
  const c = cluster(t, o.edit);
  const remote = new InProcessKubectl(c.file);
  const lines: Line[] = [];
  const toEvent = (l: Line, i: number): JournalEvent => ({
    runId: 1,
    host: l[0],
    phase: l[1],
    state: l[2],
    at: new Date(Date.UTC(2026, 10, 23, 0, 0, i)).toISOString(),
    detail: l[3] ?? null,
    data: (l[4] as Record<string, unknown>) ?? null,
  });
  const progress = hostProgress((o.before ?? []).map(toEvent));
  let clock = 0;
  const stop = new AbortController();
  const deps: CycleDeps = {
    cluster: new KubectlCluster(remote, '/opt/play-lab/bin/kubectl'),
    policy: { ...TEST_POLICY, ...o.policy },
    nodeName: (h) => h,
    async record(host, phase, state, detail, data) {
      const line: Line = [host, phase, state, detail ?? null, data ?? null];
      lines.push(line);
      foldEvent(progress, toEvent(line, lines.length));
      if (`${phase} ${state}` === o.stopAfter) stop.abort();
    },
    check: o.check ?? (async () => ({ work: true })),
    apply:
      o.apply ??
      (async () => {
        o.afterApply?.(c.file);
        return { ok: true, detail: 'changed: hotfix, reboot' };
      }),
    reachable: async () => true,
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    stop: stop.signal,
  };
  const node = (name: string): HostProgress =>
    progress.get(name) ?? { ...hostProgress([toEvent([name, 'planned', 'end', null, { batch: 1 }], 0)]).get(name)! };
  return { c, remote, lines, deps, node, progress };
}

const web = (s: Parameters<NonNullable<Setup['edit']>>[0]) => {
  addReplicaSet(s, { name: 'web', replicas: 2, nodes: ['node001', 'node002'], labels: { app: 'web' } });
  addPdb(s, { name: 'web', selector: { app: 'web' }, maxUnavailable: 1 });
};

test('a node that needs work: every phase recorded, drained, back in service', async (t) => {
  const { c, lines, deps, node } = setup(t, { edit: web });
  t.is(await runNodeCycle(node('node001'), deps), 'done');
  t.deepEqual(lines, [
    ['node001', 'check', 'begin', null, null],
    ['node001', 'check', 'end', 'needs work', null],
    ['node001', 'cordon', 'begin', null, { wasCordoned: false }],
    ['node001', 'cordon', 'end', null, null],
    ['node001', 'drain', 'begin', null, null],
    ['node001', 'drain', 'end', '1 pod evicted', null],
    ['node001', 'apply', 'begin', null, null],
    ['node001', 'apply', 'end', 'changed: hotfix, reboot', null],
    ['node001', 'ready', 'begin', null, null],
    ['node001', 'ready', 'end', null, null],
    ['node001', 'uncordon', 'begin', null, null],
    ['node001', 'uncordon', 'end', null, null],
    ['node001', 'done', 'end', null, null],
  ]);
  t.false(c.read().nodes.node001!.unschedulable);
  t.deepEqual(
    c.events().map((e) => `${e.kind} ${e.node ?? e.pod?.replace(/-\w+$/, '')}`),
    // kubectl drain finds the node cordoned already and sends no cordon of its own.
    ['cordon node001', 'drain node001', 'eviction default/web', 'uncordon node001'],
  );
});

test('a node that needs nothing is never cordoned', async (t) => {
  const { c, lines, deps, node } = setup(t, { check: async () => ({ work: false }) });
  t.is(await runNodeCycle(node('node001'), deps), 'ok');
  t.deepEqual(lines, [
    ['node001', 'check', 'begin', null, null],
    ['node001', 'planned', 'end', 'already in the desired state: not cordoned', { 'no-work': true }],
  ]);
  t.deepEqual(c.events(), []);
});

test('a node cordoned before the run is upgraded and left cordoned', async (t) => {
  const { c, lines, deps, node } = setup(t, {
    edit: (s) => {
      s.nodes.node002!.unschedulable = true;
    },
  });
  t.is(await runNodeCycle(node('node002'), deps), 'done');
  t.deepEqual(lines.slice(2, 4), [
    ['node002', 'cordon', 'begin', null, { wasCordoned: true }],
    ['node002', 'cordon', 'end', 'was cordoned before the run: left cordoned at the end', null],
  ]);
  t.deepEqual(lines.slice(-3), [
    ['node002', 'uncordon', 'begin', null, null],
    ['node002', 'uncordon', 'end', 'left cordoned: it was cordoned before the run', null],
    ['node002', 'done', 'end', null, null],
  ]);
  t.true(c.read().nodes.node002!.unschedulable);
  t.false(c.events().some((e) => e.kind === 'uncordon'));
});

const solo = (s: Parameters<NonNullable<Setup['edit']>>[0]) => {
  addReplicaSet(s, { name: 'solo', replicas: 1, nodes: ['node003'], labels: { app: 'solo' } });
  addPdb(s, { name: 'solo', selector: { app: 'solo' }, minAvailable: 1 });
};

for (const [policy, cordoned, what] of [
  ['uncordon', false, 'uncordoned'],
  ['keep-cordoned', true, 'left cordoned (--on-drain-timeout=keep-cordoned)'],
] as const) {
  test(`a budget that blocks the drain: failed, naming pod and budget; ${what}`, async (t) => {
    // kubectl retries a refused eviction every 5 s of real time: 1 s is the shortest wait that still retries.
    const { c, lines, deps, node } = setup(t, { edit: solo, policy: { onDrainTimeout: policy, drainTimeoutSec: 1 } });
    t.is(await runNodeCycle(node('node003'), deps), 'failed');
    const pod = Object.keys(c.read().pods!).find((k) => k.startsWith('default/solo-'))!;
    t.deepEqual(lines.at(-1), [
      'node003',
      'drain',
      'fail',
      `drain timed out after 1s; pods still on the node: ${pod}; held by PodDisruptionBudget default/solo; ${what}`,
      { podsLeft: [pod], budgets: ['default/solo'] },
    ]);
    t.is(c.read().nodes.node003!.unschedulable, cordoned);
  });
}

test('a node that never comes back Ready: failed after the timeout, left cordoned', async (t) => {
  // After its reboot the node's kubelet never reports Ready (what the lab's neverReady knob makes a
  // simulated node do).
  const notReady = (file: string) =>
    updateClusterState(file, (s) => {
      s.nodes.node001!.ready = false;
    });
  const { c, lines, deps, node } = setup(t, { afterApply: notReady });
  t.is(await runNodeCycle(node('node001'), deps), 'failed');
  t.deepEqual(lines.slice(-2), [
    ['node001', 'ready', 'begin', null, null],
    ['node001', 'ready', 'fail', 'node node001 not Ready 10s after its tasks; left cordoned', null],
  ]);
  t.true(c.read().nodes.node001!.unschedulable);
});

test('failed tasks on a node still Ready: uncordoned; on a node not Ready: left cordoned', async (t) => {
  const ready = setup(t, { apply: async () => ({ ok: false, detail: 'task hotfix failed: DISM exit 0x800F0922' }) });
  t.is(await runNodeCycle(ready.node('node001'), ready.deps), 'failed');
  t.deepEqual(ready.lines.at(-1), [
    'node001',
    'apply',
    'fail',
    'task hotfix failed: DISM exit 0x800F0922; uncordoned (the node is Ready)',
    null,
  ]);
  t.false(ready.c.read().nodes.node001!.unschedulable);

  const down = setup(t, {
    edit: (s) => {
      s.nodes.node001!.ready = false;
    },
    apply: async () => ({ ok: false, detail: 'task reboot failed: not back in 600s' }),
  });
  t.is(await runNodeCycle(down.node('node001'), down.deps), 'failed');
  t.is(down.lines.at(-1)![3], 'task reboot failed: not back in 600s; left cordoned (the node is not Ready)');
  t.true(down.c.read().nodes.node001!.unschedulable);
});

test('a stop request after the drain: uncordoned, recorded to start over', async (t) => {
  const { c, lines, deps, node, progress } = setup(t, { stopAfter: 'drain end' });
  t.is(await runNodeCycle(node('node001'), deps), 'interrupted');
  t.deepEqual(lines.at(-1), [
    'node001',
    'uncordon',
    'end',
    'stopped after its drain, before its tasks: uncordoned',
    { reset: true },
  ]);
  t.false(c.read().nodes.node001!.unschedulable);
  t.is(progress.get('node001')!.reached, 'planned');
});

test('resumed after its drain (the process died): not drained again, carries on', async (t) => {
  const { c, lines, deps, node } = setup(t, {
    edit: (s) => {
      s.nodes.node001!.unschedulable = true;
    },
    before: [
      ['node001', 'planned', 'end', null, { batch: 1 }],
      ['node001', 'cordon', 'begin', null, { wasCordoned: false }],
      ['node001', 'cordon', 'end'],
      ['node001', 'drain', 'begin'],
      ['node001', 'drain', 'end', '0 pods evicted'],
    ],
  });
  t.is(await runNodeCycle(node('node001'), deps), 'done');
  t.deepEqual(
    lines.map((l) => `${l[1]} ${l[2]}`),
    ['apply begin', 'apply end', 'ready begin', 'ready end', 'uncordon begin', 'uncordon end', 'done end'],
  );
  t.deepEqual(
    c.events().map((e) => `${e.kind} ${e.node}`),
    ['uncordon node001'],
    'uncordoned once: the run owns the cordon it recorded',
  );
});

test('resumed mid-cordon: ownership as recorded before kubectl ran, not as the cluster shows it now', async (t) => {
  const { c, deps, node } = setup(t, {
    edit: (s) => {
      s.nodes.node001!.unschedulable = true; // cordoned by the run that died
    },
    before: [
      ['node001', 'planned', 'end', null, { batch: 1 }],
      ['node001', 'cordon', 'begin', null, { wasCordoned: false }],
    ],
  });
  t.is(await runNodeCycle(node('node001'), deps), 'done');
  t.false(c.read().nodes.node001!.unschedulable, 'the run cordoned it, so the run uncordons it');
});
