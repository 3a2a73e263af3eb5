// --on-failure rollback and the KB quarantine (runner/rolling/rollback*.ts, quarantine.ts): the decision
// and the refusal as pure tables, then one node's cycle through the real KubectlCluster and the real
// kubectl against the Kubernetes API double (lab/cluster/api/, a TEST DOUBLE) with the node's own side
// (apply, DISM's removal and the reboot) scripted: the journal compared whole, the cluster afterwards.
import test, { type ExecutionContext } from 'ava';
import { updateClusterState } from '../../lab/cluster/cluster-state.js';
import { KubectlCluster } from '../../runner/rolling/cluster.js';
import { type CycleDeps, runNodeCycle } from '../../runner/rolling/node-cycle.js';
import { foldEvent, hostProgress } from '../../runner/rolling/progress.js';
import { quarantinedInRun, quarantineRefusal } from '../../runner/rolling/quarantine.js';
import { type InstalledUpdate, type OnFailure, rollbackDecision } from '../../runner/rolling/rollback.js';
import type { RollbackOps } from '../../runner/rolling/rollback-ops.js';
import type { JournalEvent, QuarantinedKb } from '../../runner/state/store.js';
import { cluster } from '../lab/cluster/fixture.js';
import { InProcessKubectl } from './in-process-kubectl.js';
import { TEST_POLICY } from './test-policy.js';

const PKG = 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7';
const may: InstalledUpdate & { packageName: string } = {
  kb: 'KB4551853',
  packageName: PKG,
  buildBefore: '10.0.17763.1158',
};

test('the rollback decision: only with --on-failure rollback, only for updates this apply installed with a package identity', (t) => {
  const cases: [OnFailure, InstalledUpdate[] | null, ReturnType<typeof rollbackDecision>][] = [
    ['stop', [may], { rollback: false, why: 'left as it is (--on-failure stop)' }],
    ['rollback', null, { rollback: false, why: 'nothing to roll back: its tasks installed no update in this run' }],
    ['rollback', [], { rollback: false, why: 'nothing to roll back: its tasks installed no update in this run' }],
    [
      'rollback',
      [may, { kb: 'KB4561608', packageName: null, buildBefore: null }],
      {
        rollback: false,
        why: 'not rolled back: no package identity was recorded for KB4561608 (remove it by hand: dism /online /get-packages, /remove-package)',
      },
    ],
    ['rollback', [may], { rollback: true, updates: [may] }],
  ];
  t.deepEqual(
    cases.map(([f, i]) => rollbackDecision(f, i)),
    cases.map(([, , d]) => d),
  );
});

const q = (kb: string, host: string): QuarantinedKb => ({
  kb,
  packageName: PKG,
  host,
  runId: 7,
  playbook: 'hotfix-windows',
  reason: `node ${host} not Ready 30s after its tasks`,
  at: '2026-11-23T01:00:00.000Z',
});

test('the quarantine check: the quarantined KBs a run would install, on which hosts, and the message', (t) => {
  const kbs = new Map([
    ['node025', ['KB4551853']],
    ['node026', ['kb4551853']],
    ['node027', ['KB4561608']],
  ]);
  const cases: [QuarantinedKb[], string[][]][] = [
    [[], []],
    [[q('KB4558998', 'node012')], []],
    [[q('KB4551853', 'node025')], [['KB4551853', 'node025', 'node026']]],
    [
      [q('KB4551853', 'node025'), q('KB4561608', 'node013')],
      [
        ['KB4551853', 'node025', 'node026'],
        ['KB4561608', 'node027'],
      ],
    ],
  ];
  t.deepEqual(
    cases.map(([quarantined]) => quarantinedInRun(kbs, quarantined).map((r) => [r.entry.kb, ...r.hosts])),
    cases.map(([, found]) => found),
  );
  t.is(quarantineRefusal(kbs, [q('KB4558998', 'node012')]), null);
  t.is(
    quarantineRefusal(kbs, [q('KB4551853', 'node025')]),
    'KB4551853 is quarantined: it failed on node025 at 2026-11-23T01:00:00.000Z (run 7 of hotfix-windows): ' +
      'node node025 not Ready 30s after its tasks; this run would install it on node025, node026. Once the update ' +
      'is known good (or the pin moved), release it with: play rollouts release-kb KB4551853',
  );
});

type Line = [host: string, phase: string, state: JournalEvent['state'], detail: string | null];

/** One node whose apply leaves it NotReady (its bad update); the rollback makes it Ready again. */
function setup(t: ExecutionContext, o: { onFailure: OnFailure; build?: string; failRemoval?: boolean }) {
  const c = cluster(t);
  const lines: Line[] = [];
  const quarantined: string[] = [];
  const removed: string[] = [];
  const progress = hostProgress([]);
  let clock = 0;
  const setReady = (ready: boolean) =>
    updateClusterState(c.file, (s) => {
      s.nodes.node001!.ready = ready;
    });
  const ops: RollbackOps = {
    onFailure: o.onFailure,
    installed: () => [may],
    async rollBack(_host, u) {
      if (o.failRemoval) throw new Error('DISM failed to remove it: exit 0x800F0825 (-2146498523)');
      removed.push(u.packageName);
      setReady(true);
      return { build: o.build ?? '10.0.17763.1158' };
    },
    quarantine: async (host, u, reason) => void quarantined.push(`${u.kb} ${host}: ${reason}`),
  };
  const deps: CycleDeps = {
    cluster: new KubectlCluster(new InProcessKubectl(c.file), '/opt/play-lab/bin/kubectl'),
    policy: TEST_POLICY,
    nodeName: (h) => h,
    async record(host, phase, state, detail) {
      lines.push([host, phase, state, detail ?? null]);
      foldEvent(progress, {
        runId: 1,
        host,
        phase,
        state,
        at: new Date(Date.UTC(2026, 10, 23, 0, 0, lines.length)).toISOString(),
        detail: detail ?? null,
        data: null,
      });
    },
    check: async () => ({ work: true }),
    async apply() {
      setReady(false);
      return { ok: true, detail: `changed: hotfix, reboot; installed KB4551853 as ${PKG}` };
    },
    reachable: async () => true,
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    stop: new AbortController().signal,
    rollback: ops,
  };
  foldEvent(progress, {
    runId: 1,
    host: 'node001',
    phase: 'planned',
    state: 'end',
    at: '2026-11-23T00:00:00.000Z',
    detail: null,
    data: { batch: 1 },
  });
  return { c, lines, deps, node: progress.get('node001')!, quarantined, removed, progress };
}

const CYCLE_START: Line[] = [
  ['node001', 'check', 'begin', null],
  ['node001', 'check', 'end', 'needs work'],
  ['node001', 'cordon', 'begin', null],
  ['node001', 'cordon', 'end', null],
  ['node001', 'drain', 'begin', null],
  ['node001', 'drain', 'end', '0 pods evicted'],
  ['node001', 'apply', 'begin', null],
  ['node001', 'apply', 'end', `changed: hotfix, reboot; installed KB4551853 as ${PKG}`],
  ['node001', 'ready', 'begin', null],
];
const WHY = 'node node001 not Ready 10s after its tasks';

test('not Ready after its install, --on-failure rollback: removed, back at its old build, Ready, uncordoned, quarantined; failed', async (t) => {
  const { c, lines, deps, node, quarantined, removed, progress } = setup(t, { onFailure: 'rollback' });
  t.is(await runNodeCycle(node, deps), 'failed');
  t.deepEqual(lines, [
    ...CYCLE_START,
    ['node001', 'rollback', 'begin', `${WHY}: removing KB4551853 (${PKG})`],
    ['node001', 'rollback', 'end', 'removed KB4551853, rebooted, back at 10.0.17763.1158'],
    [
      'node001',
      'ready',
      'fail',
      `${WHY}; rolled back: removed KB4551853, back at 10.0.17763.1158; Ready, uncordoned; KB4551853 quarantined`,
    ],
  ]);
  t.deepEqual(removed, [PKG]);
  t.deepEqual(quarantined, [`KB4551853 node001: ${WHY}`]);
  t.like(progress.get('node001'), { outcome: 'failed' });
  t.like(c.read().nodes.node001, { ready: true, unschedulable: false });
});

test('--on-failure stop (the default): left cordoned, nothing removed or quarantined', async (t) => {
  const { c, lines, deps, node, quarantined, removed } = setup(t, { onFailure: 'stop' });
  t.is(await runNodeCycle(node, { ...deps, rollback: null }), 'failed');
  t.deepEqual(lines, [...CYCLE_START, ['node001', 'ready', 'fail', `${WHY}; left cordoned`]]);
  t.deepEqual([removed, quarantined], [[], []]);
  t.like(c.read().nodes.node001, { ready: false, unschedulable: true });
});

test('a rollback that fails or leaves another build: left cordoned, the KB quarantined all the same', async (t) => {
  const failing = setup(t, { onFailure: 'rollback', failRemoval: true });
  t.is(await runNodeCycle(failing.node, failing.deps), 'failed');
  const removal = 'rollback of KB4551853 failed: DISM failed to remove it: exit 0x800F0825 (-2146498523)';
  t.deepEqual(failing.lines.slice(CYCLE_START.length + 1), [
    ['node001', 'rollback', 'fail', removal],
    ['node001', 'ready', 'fail', `${WHY}; ${removal}; left cordoned; KB4551853 quarantined`],
  ]);
  t.like(failing.c.read().nodes.node001, { unschedulable: true });
  t.is(failing.quarantined.length, 1);

  const other = setup(t, { onFailure: 'rollback', build: '10.0.17763.1217' });
  t.is(await runNodeCycle(other.node, other.deps), 'failed');
  const wrong = 'removed KB4551853 but the node runs 10.0.17763.1217, not 10.0.17763.1158 as before';
  t.deepEqual(other.lines.slice(CYCLE_START.length + 1), [
    ['node001', 'rollback', 'fail', wrong],
    ['node001', 'ready', 'fail', `${WHY}; ${wrong}; left cordoned; KB4551853 quarantined`],
  ]);
  t.like(other.c.read().nodes.node001, { unschedulable: true });
});
