// The preflight through the real kubectl against the Kubernetes API double (lab/cluster/api/, a TEST
// DOUBLE): the snapshot KubectlCluster reads (one `kubectl get pods,pdb,nodes`), and the batch loop
// (runner/rolling/rollout.ts) refusing a node whose drain would block, before its cordon, unless
// --try-blocked; the journal's lines and the cluster's event log compared whole.
import test, { type ExecutionContext } from 'ava';
import { addBarePod, addDaemonSet, addPdb, addReplicaSet } from '../../lab/cluster/workloads.js';
import { KubectlCluster } from '../../runner/rolling/cluster.js';
import { foldEvent, hostProgress } from '../../runner/rolling/progress.js';
import { runRollout } from '../../runner/rolling/rollout.js';
import type { JournalEvent } from '../../runner/state/store.js';
import { cluster } from '../lab/cluster/fixture.js';
import { InProcessKubectl } from './in-process-kubectl.js';
import { TEST_POLICY } from './test-policy.js';

test('the snapshot: pods with owners, nodeSelector and emptyDir; budgets with status; nodes with taints and allocatable pods', async (t) => {
  const c = cluster(t, (s) => {
    addReplicaSet(s, { name: 'web', replicas: 2, nodes: ['node001', 'node002'], labels: { app: 'web' } });
    addPdb(s, { name: 'web', selector: { app: 'web' }, maxUnavailable: 1 });
    addDaemonSet(s, { name: 'proxy', namespace: 'kube-system', nodeSelector: { 'kubernetes.io/os': 'windows' } });
    addBarePod(s, { name: 'debug', node: 'node003', emptyDir: true, nodeSelector: { 'kubernetes.io/os': 'windows' } });
    s.nodes.node003!.unschedulable = true;
  });
  const remote = new InProcessKubectl(c.file);
  const snap = await new KubectlCluster(remote, 'kubectl').snapshot();
  t.deepEqual(remote.commands, [['get', 'pods,pdb,nodes', '-A', '-o', 'json']], 'read once');
  t.deepEqual(
    snap.pods.map((p) => [
      p.key.replace(/-[a-z0-9]{5}$/, '-*'),
      p.node,
      p.controller?.kind ?? null,
      p.emptyDir,
      p.nodeSelector,
      p.ready,
    ]),
    [
      ['default/debug', 'node003', null, true, { 'kubernetes.io/os': 'windows' }, true],
      ['default/web-*', 'node001', 'ReplicaSet', false, {}, true],
      ['default/web-*', 'node002', 'ReplicaSet', false, {}, true],
      ['kube-system/proxy-*', 'node001', 'DaemonSet', false, { 'kubernetes.io/os': 'windows' }, true],
      ['kube-system/proxy-*', 'node002', 'DaemonSet', false, { 'kubernetes.io/os': 'windows' }, true],
      ['kube-system/proxy-*', 'node003', 'DaemonSet', false, { 'kubernetes.io/os': 'windows' }, true],
    ],
  );
  t.deepEqual(snap.budgets, [
    {
      key: 'default/web',
      namespace: 'default',
      selector: { matchLabels: { app: 'web' } },
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
    },
  ]);
  t.deepEqual(
    snap.nodes.map((n) => [
      n.name,
      n.labels['kubernetes.io/os'],
      n.ready,
      n.unschedulable,
      n.taints,
      n.allocatablePods,
    ]),
    [
      [
        'control1',
        'linux',
        true,
        false,
        [{ key: 'node-role.kubernetes.io/master', value: null, effect: 'NoSchedule' }],
        110,
      ],
      ['node001', 'windows', true, false, [], 110],
      ['node002', 'windows', true, false, [], 110],
      [
        'node003',
        'windows',
        true,
        true,
        [{ key: 'node.kubernetes.io/unschedulable', value: null, effect: 'NoSchedule' }],
        110,
      ],
    ],
  );
});

/** A batch loop over the real node cycle; the hosts' journal lines (check and apply scripted). */
async function roll(t: ExecutionContext, edit: Parameters<typeof cluster>[1], tryBlocked: boolean) {
  const c = cluster(t, edit);
  const lines: string[] = [];
  const batches = [['node001', 'node002']];
  const progress = hostProgress(
    batches.flat().map((h, i) => ({
      runId: 1,
      host: h,
      phase: 'planned',
      state: 'end' as const,
      at: new Date(i).toISOString(),
      detail: null,
      data: { batch: 1 },
    })),
  );
  const stop = new AbortController();
  const end = await runRollout({
    cluster: new KubectlCluster(new InProcessKubectl(c.file), 'kubectl'),
    policy: TEST_POLICY,
    nodeName: (h) => h,
    async record(host, phase, state, detail, data) {
      if (host !== '' && phase !== 'check') lines.push(`${host} ${phase} ${state}${detail ? `: ${detail}` : ''}`);
      const e: JournalEvent = {
        runId: 1,
        host,
        phase,
        state,
        at: new Date().toISOString(),
        detail: detail ?? null,
        data: (data as never) ?? null,
      };
      foldEvent(progress, e);
    },
    check: async () => ({ work: true }),
    apply: async () => ({ ok: true, detail: 'changed: hotfix' }),
    reachable: async () => true,
    sleep: async () => {},
    now: () => Date.UTC(2026, 10, 23, 12),
    stop: stop.signal,
    tryBlocked,
    batches,
    progress,
    allowedFailures: 1,
    window: null,
    readyAtStart: new Set(),
  });
  const cordoned = c
    .events()
    .filter((e) => e.kind === 'cordon')
    .map((e) => (e as { node: string }).node);
  return {
    end,
    lines: lines.sort(),
    cordoned,
    outcomes: Object.fromEntries([...progress].map(([h, p]) => [h, p.outcome])),
  };
}

const solo = (s: Parameters<NonNullable<Parameters<typeof cluster>[1]>>[0]) => {
  addReplicaSet(s, { name: 'solo', namespace: 'shop', replicas: 1, nodes: ['node002'], labels: { app: 'solo' } });
  addPdb(s, { name: 'solo', namespace: 'shop', selector: { app: 'solo' }, minAvailable: 1 });
};

test('a run refuses the node whose drain would block: not cordoned, failed with the reason; the batch goes on', async (t) => {
  const r = await roll(t, solo, false);
  const refused = r.lines.filter((l) => l.startsWith('node002'));
  t.deepEqual(r.end, { status: 'done', reason: '1 node failed' });
  t.deepEqual(r.outcomes, { node001: 'done', node002: 'failed' });
  t.deepEqual(r.cordoned, ['node001'], 'node002 was never cordoned');
  t.is(refused.length, 1, refused.join('\n'));
  t.regex(
    refused[0]!,
    /^node002 preflight fail: drain would block: pod shop\/solo-\S+ held by PodDisruptionBudget shop\/solo \(allows 0 disruptions, 1 healthy of 1 required\); not cordoned \(--try-blocked drains it anyway\)$/,
  );
});

test('--try-blocked drains it anyway: a budget spent by the batch’s first node refills once its pod runs elsewhere', async (t) => {
  const r = await roll(
    t,
    (s) => {
      addReplicaSet(s, { name: 'web', replicas: 2, nodes: ['node001', 'node002'], labels: { app: 'web' } });
      addPdb(s, { name: 'web', selector: { app: 'web' }, maxUnavailable: 1 });
    },
    true,
  );
  t.deepEqual(r.end, { status: 'done', reason: null });
  t.deepEqual(r.outcomes, { node001: 'done', node002: 'done' });
  t.deepEqual(r.cordoned.sort(), ['node001', 'node002']);
  t.deepEqual(
    r.lines.filter((l) => l.startsWith('node002 preflight')).map((l) => l.replace(/web-\S+/, 'web-*')),
    [
      'node002 preflight note: drain would block: pod default/web-* held by PodDisruptionBudget default/web (allows 0 disruptions once node001 of this batch drained, 1 healthy of 1 required); drained anyway (--try-blocked)',
    ],
  );
});
