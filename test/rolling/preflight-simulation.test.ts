// The preflight's drain simulation (runner/rolling/preflight/), pure: snapshots written by hand, every
// batch's verdicts with their advice compared whole.
import test from 'ava';
import { DRAIN_FLAGS } from '../../runner/rolling/cluster.js';
import { nodeAdvice } from '../../runner/rolling/preflight/advice.js';
import { type DrainFlags, simulateDrains } from '../../runner/rolling/preflight/drain-simulation.js';
import { unfitReason } from '../../runner/rolling/preflight/room.js';
import type {
  ClusterSnapshot,
  SnapshotBudget,
  SnapshotNode,
  SnapshotPod,
} from '../../runner/rolling/preflight/snapshot.js';

const win = (name: string, more: Partial<SnapshotNode> = {}): SnapshotNode => ({
  name,
  labels: { 'kubernetes.io/os': 'windows', 'kubernetes.io/hostname': name },
  unschedulable: false,
  ready: true,
  taints: [],
  allocatablePods: 110,
  ...more,
});
const linux = (name: string, more: Partial<SnapshotNode> = {}) =>
  win(name, { labels: { 'kubernetes.io/os': 'linux', 'kubernetes.io/hostname': name }, ...more });

const pod = (key: string, node: string, more: Partial<SnapshotPod> = {}): SnapshotPod => ({
  key,
  namespace: key.split('/')[0]!,
  labels: { app: key.split('/')[1]!.replace(/-\d+$/, '') },
  node,
  controller: { kind: 'ReplicaSet', name: key.split('/')[1]!.replace(/-\d+$/, '') },
  mirror: false,
  emptyDir: false,
  nodeSelector: { 'kubernetes.io/os': 'windows' },
  tolerations: [],
  ready: true,
  finished: false,
  ...more,
});

const budget = (key: string, app: string, status: [allowed: number, healthy: number, desired: number]) =>
  ({
    key,
    namespace: key.split('/')[0]!,
    selector: { matchLabels: { app } },
    disruptionsAllowed: status[0],
    currentHealthy: status[1],
    desiredHealthy: status[2],
  }) satisfies SnapshotBudget;

/** Each node's verdict as the plan prints it: host: evicted pods | problems | to pass. */
function verdicts(snap: ClusterSnapshot, batches: string[][], flags: DrainFlags = DRAIN_FLAGS) {
  const sim = simulateDrains(
    snap,
    batches.map((b) => b.map((n) => ({ host: n, node: n }))),
    flags,
  );
  return sim.nodes.map((d) => {
    const a = nodeAdvice(d);
    return { node: `${d.node} (batch ${d.batch})`, evicts: d.evicts, problems: a.problems, toPass: a.toPass };
  });
}

const ledger: ClusterSnapshot = {
  nodes: [win('node010'), win('node011'), win('node012')],
  pods: [pod('shop/ledger-0', 'node011'), pod('shop/web-1', 'node010'), pod('shop/web-2', 'node011')],
  budgets: [budget('shop/ledger', 'ledger', [0, 1, 1]), budget('shop/web', 'web', [1, 2, 1])],
};

test('a budget that allows nothing blocks its node: the pod, the budget and its numbers; the budget is the way out', (t) => {
  t.deepEqual(verdicts(ledger, [['node010'], ['node011']]), [
    { node: 'node010 (batch 1)', evicts: ['shop/web-1'], problems: [], toPass: [] },
    {
      node: 'node011 (batch 2)',
      evicts: [],
      problems: [
        'drain would block: pod shop/ledger-0 held by PodDisruptionBudget shop/ledger (allows 0 disruptions, 1 healthy of 1 required)',
      ],
      toPass: [
        'the budget: shop/ledger needs 1 healthy and has 1; add a replica first or relax its minAvailable/maxUnavailable (kubectl -n shop edit pdb ledger)',
      ],
    },
  ]);
});

test('a budget spent by an earlier node of the same batch blocks the next one; it refills between batches', (t) => {
  const snap: ClusterSnapshot = { ...ledger, budgets: [budget('shop/web', 'web', [1, 2, 1])] };
  t.deepEqual(verdicts(snap, [['node010', 'node011']]), [
    { node: 'node010 (batch 1)', evicts: ['shop/web-1'], problems: [], toPass: [] },
    {
      node: 'node011 (batch 1)',
      evicts: [],
      problems: [
        'drain would block: pod shop/web-2 held by PodDisruptionBudget shop/web (allows 0 disruptions once node010 of this batch drained, 1 healthy of 1 required)',
      ],
      toPass: ['drain it in another batch than node010 (a smaller --serial, or another node order)'],
    },
  ]);
  t.deepEqual(verdicts(snap, [['node010'], ['node011']]), [
    { node: 'node010 (batch 1)', evicts: ['shop/web-1'], problems: [], toPass: [] },
    { node: 'node011 (batch 2)', evicts: ['shop/ledger-0', 'shop/web-2'], problems: [], toPass: [] },
  ]);
});

test('bare and emptyDir pods: what kubectl drain refuses without --force / --delete-emptydir-data', (t) => {
  const snap: ClusterSnapshot = {
    nodes: [win('node010'), win('node011')],
    pods: [
      pod('ops/debug', 'node010', { controller: null }),
      pod('shop/cache-0', 'node011', { emptyDir: true }),
      pod('shop/web-1', 'node010'),
    ],
    budgets: [],
  };
  t.deepEqual(verdicts(snap, [['node010'], ['node011']]), [
    {
      node: 'node010 (batch 1)',
      evicts: [],
      problems: ['drain would block: pod ops/debug has no controller: kubectl drain refuses it without --force'],
      toPass: [
        'move or delete pod ops/debug by hand first (play does not --force: deleting a pod without a controller loses it)',
      ],
    },
    // play's drain passes --delete-emptydir-data: the pod goes, its scratch data with it.
    { node: 'node011 (batch 2)', evicts: ['shop/cache-0'], problems: [], toPass: [] },
  ]);
  const strict = { ignoreDaemonSets: true, deleteEmptyDirData: false, force: true };
  t.deepEqual(verdicts(snap, [['node010', 'node011']], strict), [
    { node: 'node010 (batch 1)', evicts: ['ops/debug', 'shop/web-1'], problems: [], toPass: [] },
    {
      node: 'node011 (batch 1)',
      evicts: [],
      problems: [
        'drain would block: pod shop/cache-0 keeps emptyDir data: kubectl drain refuses it without --delete-emptydir-data',
      ],
      toPass: ['move pod shop/cache-0 first, or drain with --delete-emptydir-data'],
    },
  ]);
});

test('DaemonSet and mirror pods stay (--ignore-daemonsets); finished pods go under no budget', (t) => {
  const snap: ClusterSnapshot = {
    nodes: [win('node010'), win('node011')],
    pods: [
      pod('kube-system/proxy-a', 'node010', { controller: { kind: 'DaemonSet', name: 'proxy' } }),
      pod('kube-system/etcd-node010', 'node010', { controller: { kind: 'Node', name: 'node010' }, mirror: true }),
      pod('shop/report-1', 'node010', { controller: { kind: 'Job', name: 'report' }, finished: true, ready: false }),
      pod('shop/web-1', 'node010'),
    ],
    budgets: [budget('shop/web', 'web', [1, 1, 0]), budget('shop/report', 'report', [0, 0, 1])],
  };
  t.deepEqual(verdicts(snap, [['node010']]), [
    { node: 'node010 (batch 1)', evicts: ['shop/report-1', 'shop/web-1'], problems: [], toPass: [] },
  ]);
  t.deepEqual(verdicts(snap, [['node010']], { ...DRAIN_FLAGS, ignoreDaemonSets: false }), [
    {
      node: 'node010 (batch 1)',
      evicts: [],
      problems: [
        'drain would block: pod kube-system/proxy-a belongs to a DaemonSet: kubectl drain refuses it without --ignore-daemonsets',
      ],
      toPass: ['drain with --ignore-daemonsets'],
    },
  ]);
});

test('a pod under two budgets: the Eviction API refuses it', (t) => {
  const snap: ClusterSnapshot = {
    nodes: [win('node010'), win('node011')],
    pods: [pod('shop/web-1', 'node010')],
    budgets: [budget('shop/web', 'web', [1, 2, 1]), budget('shop/web-too', 'web', [1, 2, 1])],
  };
  t.deepEqual(verdicts(snap, [['node010']]), [
    {
      node: 'node010 (batch 1)',
      evicts: [],
      problems: [
        'drain would block: pod shop/web-1 is under 2 PodDisruptionBudgets (shop/web, shop/web-too): the Eviction API refuses it',
      ],
      toPass: ['leave one PodDisruptionBudget over pod shop/web-1'],
    },
  ]);
});

test("no room for a nodeSelector'd pod: it would stay Pending, and its budget does not refill for the next batch", (t) => {
  const snap: ClusterSnapshot = {
    // node011 is cordoned by hand; the Linux node cannot run a Windows pod.
    nodes: [win('node010'), win('node011', { unschedulable: true }), linux('linux1')],
    pods: [pod('shop/api-1', 'node010'), pod('shop/api-2', 'node011')],
    budgets: [budget('shop/api', 'api', [1, 2, 1])],
  };
  t.deepEqual(verdicts(snap, [['node010'], ['node011']]), [
    {
      node: 'node010 (batch 1)',
      evicts: ['shop/api-1'],
      problems: [
        'pod shop/api-1 would stay Pending after the drain: no node with kubernetes.io/os=windows can take it (node010 in this batch; node011 cordoned)',
      ],
      toPass: ['room for its pods: a smaller batch, or a node that can take them'],
    },
    {
      node: 'node011 (batch 2)',
      evicts: [],
      problems: [
        'drain would block: pod shop/api-2 held by PodDisruptionBudget shop/api (allows 0 disruptions, 1 healthy of 1 required)',
      ],
      toPass: [
        'the budget: shop/api needs 1 healthy and has 1; add a replica first or relax its minAvailable/maxUnavailable (kubectl -n shop edit pdb api)',
      ],
    },
  ]);
});

test('a replacement lands on the least loaded node that fits, and is drained again with that node', (t) => {
  const snap: ClusterSnapshot = {
    nodes: [win('node010'), win('node011'), win('node012')],
    pods: [pod('shop/web-1', 'node010'), pod('shop/web-2', 'node011'), pod('shop/web-3', 'node011')],
    budgets: [],
  };
  t.deepEqual(verdicts(snap, [['node010'], ['node012']]), [
    { node: 'node010 (batch 1)', evicts: ['shop/web-1'], problems: [], toPass: [] },
    { node: 'node012 (batch 2)', evicts: ['shop/web-1'], problems: [], toPass: [] },
  ]);
});

test('a node fits a pod: Ready, schedulable, its nodeSelector, every NoSchedule taint tolerated', (t) => {
  const master = linux('control1', {
    taints: [{ key: 'node-role.kubernetes.io/master', value: null, effect: 'NoSchedule' }],
  });
  const any = pod('kube-system/dns-1', 'control1', { nodeSelector: {} });
  const tolerant = {
    ...any,
    tolerations: [{ key: 'node-role.kubernetes.io/master', operator: 'Exists', value: null, effect: 'NoSchedule' }],
  };
  const rows = [
    unfitReason(any, master),
    unfitReason(tolerant, master),
    unfitReason({ ...any, tolerations: [{ key: null, operator: 'Exists', value: null, effect: null }] }, master),
    unfitReason(any, win('node010', { ready: false })),
    unfitReason(pod('shop/web-1', 'node010'), linux('linux1')),
    unfitReason(
      pod('shop/web-1', 'node010'),
      win('node010', { taints: [{ key: 'gpu', value: 'yes', effect: 'PreferNoSchedule' }] }),
    ),
  ];
  t.deepEqual(rows, [
    'taint node-role.kubernetes.io/master:NoSchedule',
    null,
    null,
    'not Ready',
    'kubernetes.io/os=linux',
    null,
  ]);
});
