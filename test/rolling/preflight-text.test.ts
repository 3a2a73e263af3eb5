// The preflight as --check prints it (runner/rolling/preflight/preflight-text.ts over preflightOf), pure:
// the drains' verdicts, the time and the window, and a cluster that could not be read, compared whole.
import test from 'ava';
import { type PlanPreflight, preflightOf } from '../../runner/rolling/preflight/plan-preflight.js';
import { preflightText } from '../../runner/rolling/preflight/preflight-text.js';
import type { ClusterSnapshot } from '../../runner/rolling/preflight/snapshot.js';
import { TEST_POLICY } from './test-policy.js';

const node = (name: string) => ({
  name,
  labels: { 'kubernetes.io/os': 'windows' },
  unschedulable: false,
  ready: true,
  taints: [],
  allocatablePods: null,
});
const snap: ClusterSnapshot = {
  nodes: [node('node010'), node('node011')],
  pods: [
    {
      key: 'shop/ledger-0',
      namespace: 'shop',
      labels: { app: 'ledger' },
      node: 'node011',
      controller: { kind: 'StatefulSet', name: 'ledger' },
      mirror: false,
      emptyDir: false,
      nodeSelector: {},
      tolerations: [],
      ready: true,
      finished: false,
    },
  ],
  budgets: [
    {
      key: 'shop/ledger',
      namespace: 'shop',
      selector: { matchLabels: { app: 'ledger' } },
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 1,
    },
  ],
};
// Saturday 2026-01-03 00:00 UTC: the window below opens in an hour, for 20 minutes.
const input = {
  batches: [['node010'], ['node011']],
  nodeName: (h: string) => h,
  policy: { ...TEST_POLICY, soakSec: 60, window: 'Sat 01:00-01:20 UTC' },
  samples: [{ host: 'node010', sec: 600 }],
  now: new Date(Date.UTC(2026, 0, 3)),
};

test('the check prints each blocked node with what would let it pass, then the time against the window', (t) => {
  t.is(
    preflightText(preflightOf(snap, input), 'hotfix-windows'),
    [
      'preflight: every drain simulated on the cluster as it is now; room: any node that can run a pod counts (the nodes give no allocatable pods; requests not compared)',
      '  node011: drain would block: pod shop/ledger-0 held by PodDisruptionBudget shop/ledger (allows 0 disruptions, 1 healthy of 1 required)',
      '    to pass: the budget: shop/ledger needs 1 healthy and has 1; add a replica first or relax its minAvailable/maxUnavailable (kubectl -n shop edit pdb ledger)',
      '  a run refuses node011 (not cordoned, counted as failed); --try-blocked drains it anyway',
      'time: about 22m: batch 1 11m, batch 2 11m (from 1 past node cycle of hotfix-windows in the journal)',
      'window Sat 01:00-01:20 UTC: its last batch starts before the close and runs 2m past it (20m open)',
      '',
    ].join('\n'),
  );
});

test('a cluster that could not be read: the plan says so and still times the run; no cluster, no drains', (t) => {
  const unread: PlanPreflight = { ...preflightOf(null, { ...input, samples: [] }), unread: 'kubectl: not found' };
  t.is(
    preflightText(unread, 'hotfix-windows'),
    [
      'preflight: no drain simulated: the cluster could not be read: kubectl: not found',
      // 15 min a node and the 60 s soak: the second batch starts at 16 min, before the close at 20.
      'time: about 32m: batch 1 16m, batch 2 16m (no past cycles of hotfix-windows in the journal: 15m a node assumed)',
      'window Sat 01:00-01:20 UTC: its last batch starts before the close and runs 12m past it (20m open)',
      '',
    ].join('\n'),
  );
  t.is(preflightOf(null, input).drains, null);
});
