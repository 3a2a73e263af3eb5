// The pure parts around a rolling run, as tables compared whole: which budgets hold a drain
// (blocking.ts), what kubectl drain's errors name (cluster.ts), the report folded from a journal
// (report.ts) and the texts people read (text.ts).
import test from 'ava';
import { blockingBudgets, type PdbObject, type PodObject } from '../../runner/rolling/blocking.js';
import { nodeStatus, podsInDrainErrors } from '../../runner/rolling/cluster.js';
import { rolloutReport } from '../../runner/rolling/report.js';
import { eventLine, planText, summaryText } from '../../runner/rolling/text.js';
import type { JournalEvent, RolloutRecord } from '../../runner/state/store.js';

const pod = (ns: string, name: string, labels: Record<string, string>, owner = 'ReplicaSet'): PodObject => ({
  metadata: { name, namespace: ns, labels, ownerReferences: [{ kind: owner, controller: true }] },
});
const pdb = (ns: string, name: string, selector: PdbObject['spec']): PdbObject => ({
  metadata: { name, namespace: ns },
  spec: selector,
});

test('the budgets that hold a drain', (t) => {
  const pods = [
    pod('shop', 'web-1', { app: 'web', tier: 'front' }),
    pod('shop', 'db-1', { app: 'db' }),
    pod('kube-system', 'proxy-1', { app: 'proxy' }, 'DaemonSet'),
  ];
  const pdbs = [
    pdb('shop', 'web', { selector: { matchLabels: { app: 'web' } } }),
    pdb('other', 'web', { selector: { matchLabels: { app: 'web' } } }),
    pdb('shop', 'front', { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] } }),
    pdb('shop', 'not-db', {
      selector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['db', 'web'] }] },
    }),
    pdb('kube-system', 'proxy', { selector: { matchLabels: { app: 'proxy' } } }),
  ];
  const table: [named: string[], expected: ReturnType<typeof blockingBudgets>][] = [
    [['shop/web-1'], { podsLeft: ['shop/web-1'], budgets: ['shop/front', 'shop/web'] }],
    [['shop/db-1'], { podsLeft: ['shop/db-1'], budgets: [] }],
    // kubectl named no pod: every pod still there but DaemonSet ones
    [[], { podsLeft: ['shop/db-1', 'shop/web-1'], budgets: ['shop/front', 'shop/web'] }],
    // a pod kubectl named that is gone since: still named, no budget to blame
    [['shop/gone'], { podsLeft: ['shop/gone'], budgets: [] }],
  ];
  for (const [named, expected] of table) t.deepEqual(blockingBudgets(pods, pdbs, named), expected, named.join());
});

test("kubectl's answers read: node status, pods in drain errors", (t) => {
  t.deepEqual(
    nodeStatus({
      metadata: { name: 'node009' },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    }),
    { name: 'node009', ready: true, unschedulable: true },
  );
  t.deepEqual(nodeStatus({ metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }), {
    name: 'n',
    ready: false,
    unschedulable: false,
  });
  const stderr = [
    'error when evicting pods/"solo-abcde" -n "shop" (will retry after 5s): Cannot evict pod as it would violate the pod\'s disruption budget.',
    'error: unable to drain node "node013" due to error: [error when evicting pods/"solo-abcde" -n "shop": global timeout reached: 30s, error when evicting pods/"db-1" -n "data": global timeout reached: 30s], continuing command...',
  ].join('\n');
  t.deepEqual(podsInDrainErrors(stderr), ['shop/solo-abcde', 'data/db-1']);
});

const RUN: RolloutRecord = {
  id: 4,
  playbook: 'hotfix-windows',
  inventoryKey: '/inv.yaml',
  args: {},
  status: 'done',
  reason: null,
  startedAt: '2026-11-23T01:00:00.000Z',
  updatedAt: '2026-11-23T01:01:00.000Z',
  pid: 1,
  controller: 'ctl',
};

const ev = (s: number, host: string, phase: string, state: JournalEvent['state'], detail?: string, data?: object) => ({
  runId: 4,
  host,
  phase,
  state,
  at: new Date(Date.UTC(2026, 10, 23, 1, 0, s)).toISOString(),
  detail: detail ?? null,
  data: (data as Record<string, unknown>) ?? null,
});

const EVENTS: JournalEvent[] = [
  ev(0, '', 'plan', 'note', '2 batches', { batches: [['a'], ['b']] }),
  ev(0, 'a', 'planned', 'end', 'batch 1', { batch: 1 }),
  ev(0, 'b', 'planned', 'end', 'batch 2', { batch: 2 }),
  ev(0, 'c', 'planned', 'end', 'already in the desired state: not cordoned', { 'no-work': true }),
  ev(1, '', 'batch', 'begin', 'batch 1 of 2: a', { batch: 1, hosts: ['a'] }),
  ev(2, 'a', 'cordon', 'begin', undefined, { wasCordoned: false }),
  ev(3, 'a', 'cordon', 'end'),
  ev(10, 'a', 'ready', 'begin'),
  ev(12, 'a', 'ready', 'end'),
  ev(13, 'a', 'uncordon', 'end'),
  ev(13, 'a', 'done', 'end'),
  ev(13, '', 'batch', 'end', '1 done (1 node)', { batch: 1 }),
  ev(14, '', 'gate', 'end', 'no node went NotReady', { batch: 1 }),
  ev(14, '', 'batch', 'begin', 'batch 2 of 2: b', { batch: 2, hosts: ['b'] }),
  ev(15, 'b', 'drain', 'fail', 'drain timed out after 30s; uncordoned'),
  ev(15, '', 'batch', 'end', '1 failed (1 node)', { batch: 2 }),
];

test('the report, from the journal alone', (t) => {
  const r = rolloutReport(RUN, EVENTS, 1);
  t.deepEqual(
    { budget: r.budget, batches: r.batches, gaps: r.readyToNextBatchMs, plan: r.plan },
    {
      budget: { allowed: 1, failed: 1 },
      batches: [
        {
          batch: 1,
          hosts: ['a'],
          startedAt: '2026-11-23T01:00:01.000Z',
          endedAt: '2026-11-23T01:00:13.000Z',
          gate: 'passed: no node went NotReady',
        },
        {
          batch: 2,
          hosts: ['b'],
          startedAt: '2026-11-23T01:00:14.000Z',
          endedAt: '2026-11-23T01:00:15.000Z',
          gate: null,
        },
      ],
      gaps: [2000],
      plan: { batches: [['a'], ['b']] },
    },
  );
  t.deepEqual(
    Object.fromEntries(Object.entries(r.hosts).map(([h, x]) => [h, [x.outcome, x.batch, x.reason, x.cordonedMs]])),
    {
      a: ['done', 1, null, 10_000],
      b: ['failed', 2, 'drain timed out after 30s; uncordoned', null],
      c: ['ok', null, null, null],
    },
  );
  t.is(
    summaryText(r),
    [
      'run 4 done',
      'nodes: 1 done, 1 failed, 1 ok; failures 1 of 1 allowed',
      '  b: drain timed out after 30s; uncordoned',
      'cordoned per node: 10.0s at most, 10.0s on average',
      'last Ready to next batch: 2.00s',
      '',
    ].join('\n'),
  );
  t.is(
    eventLine(EVENTS[14]!, Date.parse(RUN.startedAt)),
    '   15.0s  b            drain     FAILED  drain timed out after 30s; uncordoned\n',
  );
});

test('the plan as --check prints it', (t) => {
  const text = planText({
    plan: {
      batches: [['n1'], ['n2', 'n4']],
      deferred: [{ host: 'n3', domain: 'a', fromBatch: 2, toBatch: 3 }],
    },
    ok: ['n5'],
    waived: [{ host: 'n7', reason: 'hotfix: vendor certification pending (until 2026-12-31)' }],
    failed: [{ host: 'n6', reason: 'unreachable' }],
    changes: { n1: ['hotfix: create installed'] },
    allowedFailures: 0,
    domainOf: (h) => (h === 'n5' ? null : h === 'n4' ? 'b' : 'a'),
  });
  t.is(
    text,
    [
      'plan: 3 nodes to upgrade in 2 batches, 1 already in the desired state, 1 waived, 1 failed to plan; failures allowed: 0',
      'batch 1: n1 [a]',
      '    n1: hotfix: create installed',
      'batch 2: n2 [a], n4 [b]',
      '  n3: moved from batch 2 to 3 (domain a was full)',
      'ok: n5 (already in the desired state: not cordoned)',
      'waived: n7 (hotfix: vendor certification pending (until 2026-12-31)): not cordoned',
      'failed: n6: unreachable',
      '',
    ].join('\n'),
  );
});

test('after a resume a batch is begun again: the time from its last Ready to the next batch is never negative', (t) => {
  // Interrupted in batch 1 while a was rebooting; resumed: batch 1 begun again, a Ready, then batch 2.
  const resumed: JournalEvent[] = [
    ev(0, '', 'plan', 'note', '2 batches', { batches: [['a'], ['b']] }),
    ev(0, 'a', 'planned', 'end', 'batch 1', { batch: 1 }),
    ev(0, 'b', 'planned', 'end', 'batch 2', { batch: 2 }),
    ev(1, '', 'batch', 'begin', 'batch 1 of 2: a', { batch: 1, hosts: ['a'] }),
    ev(2, 'a', 'cordon', 'end'),
    ev(3, 'a', 'apply', 'begin'),
    ev(20, '', 'batch', 'begin', 'batch 1 of 2: a', { batch: 1, hosts: ['a'] }),
    ev(25, 'a', 'ready', 'end'),
    ev(26, 'a', 'uncordon', 'end'),
    ev(26, '', 'batch', 'end', '1 done (1 node)', { batch: 1 }),
    ev(28, '', 'batch', 'begin', 'batch 2 of 2: b', { batch: 2, hosts: ['b'] }),
  ];
  const r = rolloutReport({ ...RUN, controller: 'ctl-2', pid: 77 }, resumed, 0);
  t.deepEqual(r.readyToNextBatchMs, [3000]);
  t.is(r.controller, 'ctl-2 (pid 77)');
});
