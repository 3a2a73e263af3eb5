// The rolling preflight end to end in the shared lab with the real CLI: two simulated Windows nodes of its
// own (node019, node020; lab/windows, a TEST DOUBLE), the real kubectl on control1 against the Kubernetes
// API double (lab/cluster, a TEST DOUBLE) with a budget that allows no disruption over node020's pod.
//  - `--check` names the node whose drain would block, the pod, the budget and its numbers, what would
//    let it pass, and the run's time against a window; `--check --json` carries it as `preflight`.
//  - A run refuses node020 before its cordon (failed with the reason, exit 3) and upgrades node019; with
//    --try-blocked it cordons and drains node020, whose drain then times out on the budget as predicted.
//  - The next check times the run from the journal's cycle of node019.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { updateClusterState } from '../../lab/cluster/cluster-state.js';
import { addPdb, addReplicaSet } from '../../lab/cluster/workloads.js';
import type { PlanPreflight } from '../../runner/rolling/preflight/plan-preflight.js';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { holdClusterRollouts, holdTorHosts } from './fixtures/lab-locks.js';
import {
  clusterFile,
  clusterNodes,
  eventsSince,
  lastSeq,
  PINS,
  pinVars,
  rollingInventory,
  resetAndOnboard,
} from './fixtures/rolling-lab.js';

const NODES = ['node019', 'node020'] as const;
const WINDOWS = 20 - 9 + 1;
const NS = 'preflight-e2e';
let lab: Lab;
let dir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let state: string;
let releaseRollouts: (() => Promise<void>) | undefined;

const hotfix = (args: string[]) =>
  play(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', '-e', pinVars(PINS.may), ...args], env);

/** A window on a weekday three days from today (UTC): never open now, so its first opening is whole. */
function laterWindow(times: string): string {
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][(new Date().getUTCDay() + 3) % 7];
  return `${day} ${times} UTC`;
}

test.before(async () => {
  releaseRollouts = await holdClusterRollouts();
  lab = await ensureLab({ windows: WINDOWS, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-preflight-'));
  state = join(dir, 'state.db');
  ({ inventory, env } = rollingInventory(lab, dir, NODES));
  // Onboarding changes the cluster's pod CIDRs, from which other files derive the VIPs they plan.
  const release = await holdTorHosts();
  try {
    await resetAndOnboard(NODES, inventory, env);
  } finally {
    await release();
  }
  updateClusterState(clusterFile(lab), (s) => {
    for (const p of Object.values(s.pods ?? {})) if (p.namespace === NS) delete s.pods![`${NS}/${p.name}`];
    for (const b of Object.values(s.pdbs ?? {})) if (b.namespace === NS) delete s.pdbs![`${NS}/${b.name}`];
    const windows = { 'kubernetes.io/os': 'windows' };
    addReplicaSet(s, { name: 'web', namespace: NS, replicas: 1, nodes: ['node019'], labels: { app: 'web' } });
    addReplicaSet(s, {
      name: 'ledger',
      namespace: NS,
      replicas: 1,
      nodes: ['node020'],
      labels: { app: 'ledger' },
      nodeSelector: windows,
    });
    addPdb(s, { name: 'ledger', namespace: NS, selector: { app: 'ledger' }, minAvailable: 1 });
  });
});

test.after.always(async () => {
  if (lab)
    updateClusterState(clusterFile(lab), (s) => {
      for (const p of Object.values(s.pods ?? {})) if (p.namespace === NS) delete s.pods![`${NS}/${p.name}`];
      for (const b of Object.values(s.pdbs ?? {})) if (b.namespace === NS) delete s.pdbs![`${NS}/${b.name}`];
    });
  if (dir) rmSync(dir, { recursive: true, force: true });
  await releaseRollouts?.();
});

const ours = (text: string) =>
  text
    .split('\n')
    .filter((l) => /^(batch|preflight|time|window| {2}node| {4}to pass| {2}a run| {2}every)/.test(l))
    .map((l) => l.replace(/ledger-[a-z0-9]{5}/g, 'ledger-*'));

test.serial('--check names the node, pod, budget and numbers, what would let it pass, and the time', async (t) => {
  const mark = lastSeq(lab);
  const window = laterWindow('01:00-01:12');
  const check = await hotfix(['--check', '--serial', '1', '--window', window]);
  t.is(check.code, 2, check.stdout + check.stderr);
  t.deepEqual(ours(check.stdout), [
    'batch 1: node019 [a]',
    'batch 2: node020 [a]',
    "preflight: every drain simulated on the cluster as it is now; room counted in pods against each node's allocatable pods (resource requests not compared)",
    `  node020: drain would block: pod ${NS}/ledger-* held by PodDisruptionBudget ${NS}/ledger (allows 0 disruptions, 1 healthy of 1 required)`,
    `    to pass: the budget: ${NS}/ledger needs 1 healthy and has 1; add a replica first or relax its minAvailable/maxUnavailable (kubectl -n ${NS} edit pdb ledger)`,
    '  a run refuses node020 (not cordoned, counted as failed); --try-blocked drains it anyway',
    'time: about 30m: batch 1 15m, batch 2 15m (no past cycles of hotfix-windows in the journal: 15m a node assumed)',
    `window ${window}: does not fit in 12m; needs 2 windows (the later ones 12m each)`,
  ]);

  const json = await hotfix(['--check', '--serial', '1', '--json']);
  t.is(json.code, 2, json.stderr);
  const pre = JSON.parse(json.stdout).preflight as PlanPreflight;
  t.deepEqual(pre.drains?.blocked, ['node020']);
  t.deepEqual(
    pre.drains?.nodes.map((n) => [
      n.host,
      n.batch,
      n.blocks.map((b) => (b.kind === 'budget' ? [b.kind, b.budget, b.allows, b.healthy, b.required] : [b.kind])),
    ]),
    [
      ['node019', 1, []],
      ['node020', 2, [['budget', `${NS}/ledger`, 0, 1, 1]]],
    ],
  );
  t.deepEqual([pre.time.basis, pre.time.totalSec, pre.time.window], ['default', 1800, null]);
  t.deepEqual(eventsSince(lab, mark, NODES), [], '--check changes nothing in the cluster');
});

test.serial(
  'a run refuses the blocked node before its cordon; --try-blocked drains it; the next check has history',
  async (t) => {
    const mark = lastSeq(lab);
    const run = await hotfix(['--serial', '2', '--max-fail', '1', '--json']);
    t.is(run.code, 3, run.stderr.slice(-4000));
    const report = JSON.parse(run.stdout);
    t.is(report.hosts.node019.outcome, 'done');
    t.is(report.hosts.node020.outcome, 'failed');
    t.regex(
      report.hosts.node020.reason,
      new RegExp(
        `^drain would block: pod ${NS}/ledger-\\S+ held by PodDisruptionBudget ${NS}/ledger \\(allows 0 disruptions, 1 healthy of 1 required\\); not cordoned \\(--try-blocked drains it anyway\\)$`,
      ),
    );
    t.deepEqual(eventsSince(lab, mark, ['node020']), [], 'node020 was never cordoned or drained');
    t.deepEqual(clusterNodes(lab, NODES), {
      node019: { ready: true, cordoned: false, kernel: '10.0.17763.1217' },
      node020: { ready: true, cordoned: false, kernel: '10.0.17763.1158' },
    });

    const mark2 = lastSeq(lab);
    const tried = await hotfix(['--try-blocked', '--drain-timeout', '10', '--json']);
    t.is(tried.code, 3, tried.stderr.slice(-4000));
    const r2 = JSON.parse(tried.stdout);
    t.is(r2.hosts.node019.outcome, 'ok');
    t.regex(
      r2.hosts.node020.reason,
      new RegExp(
        `^drain timed out after 10s; pods still on the node: ${NS}/ledger-\\S+; held by PodDisruptionBudget ${NS}/ledger; uncordoned$`,
      ),
    );
    t.deepEqual(
      eventsSince(lab, mark2, ['node020'])
        .map((e) => e.kind)
        .filter((k) => k === 'cordon' || k === 'uncordon'),
      ['cordon', 'uncordon'],
      'tried: cordoned, drained, uncordoned',
    );

    const again = await hotfix(['--check', '--serial', '1']);
    const time = ours(again.stdout).find((l) => l.startsWith('time:'));
    t.regex(
      time ?? again.stdout,
      /^time: about \S+: batch 1 \S+ \(from 1 past node cycle of hotfix-windows in the journal\)$/,
    );
    t.log(time);
    t.log(
      run.stderr
        .split('\n')
        .filter((l) => /node019|node020/.test(l))
        .join('\n'),
    );
  },
);
