// The gate as a phase of one node's cycle (runner/rolling/node-cycle.ts, gate/gate-phase.ts) through the
// real KubectlCluster and kubectl against the Kubernetes API double (lab/cluster/api/, a TEST DOUBLE):
// the journal compared whole. The gate's looks are scripted here (a failing look, then a passing one);
// the e2e test (test/e2e/rolling-gate.test.ts) looks at real nodes.
import test, { type ExecutionContext } from 'ava';
import { KubectlCluster } from '../../runner/rolling/cluster.js';
import type { NodeGate } from '../../runner/rolling/gate/look.js';
import type { GateVerdict } from '../../runner/rolling/gate/model.js';
import { type CycleDeps, runNodeCycle } from '../../runner/rolling/node-cycle.js';
import { foldEvent, type HostProgress, hostProgress } from '../../runner/rolling/progress.js';
import type { JournalEvent } from '../../runner/state/store.js';
import { cluster } from '../lab/cluster/fixture.js';
import { InProcessKubectl } from './in-process-kubectl.js';
import { TEST_POLICY } from './test-policy.js';

type Line = [host: string, phase: string, state: JournalEvent['state'], detail?: string | null];

const PASS: GateVerdict = { pass: true, message: 'pod-network gate passed: all well', results: [] };
const BROKEN: GateVerdict = {
  pass: false,
  message: 'pod-network gate: HNS network l2bridge missing',
  results: [],
};

function setup(t: ExecutionContext, looks: GateVerdict[], before: Line[] = []) {
  const c = cluster(t);
  const lines: Line[] = [];
  const toEvent = (l: Line, i: number): JournalEvent => ({
    runId: 1,
    host: l[0],
    phase: l[1],
    state: l[2],
    at: new Date(Date.UTC(2026, 10, 23, 0, 0, i)).toISOString(),
    detail: l[3] ?? null,
    data: l[1] === 'cordon' && l[2] === 'begin' ? { wasCordoned: false } : l[1] === 'planned' ? { batch: 1 } : null,
  });
  const progress = hostProgress(before.map(toEvent));
  let clock = 0;
  let looked = 0;
  const gate: NodeGate = {
    name: 'pod-network',
    withinSec: 20,
    look: async () => looks[Math.min(looked++, looks.length - 1)]!,
  };
  const deps: CycleDeps = {
    cluster: new KubectlCluster(new InProcessKubectl(c.file), '/opt/play-lab/bin/kubectl'),
    policy: TEST_POLICY,
    nodeName: (h) => h,
    async record(host, phase, state, detail) {
      const line: Line = [host, phase, state, detail ?? null];
      lines.push(line);
      foldEvent(progress, toEvent(line, lines.length));
    },
    check: async () => ({ work: true }),
    apply: async () => ({ ok: true, detail: 'changed: hotfix, reboot' }),
    reachable: async () => true,
    sleep: async (ms) => {
      clock += ms;
    },
    now: () => clock,
    stop: new AbortController().signal,
    gate,
  };
  const node = (name: string): HostProgress =>
    progress.get(name) ?? hostProgress([toEvent([name, 'planned', 'end'], 0)]).get(name)!;
  return { c, lines, deps, node, progress, looks: () => looked };
}

test('a node whose pod network comes back within the gate time passes and is uncordoned', async (t) => {
  const { c, lines, deps, node, looks } = setup(t, [BROKEN, BROKEN, PASS]);
  t.is(await runNodeCycle(node('node001'), deps), 'done');
  t.deepEqual(lines.slice(-6), [
    ['node001', 'ready', 'end', null],
    ['node001', 'gate', 'begin', null],
    ['node001', 'gate', 'end', 'pod-network gate passed: all well'],
    ['node001', 'uncordon', 'begin', null],
    ['node001', 'uncordon', 'end', null],
    ['node001', 'done', 'end', null],
  ]);
  t.is(looks(), 3);
  t.false(c.read().nodes.node001!.unschedulable);
});

test('a node that fails the gate is failed with what is wrong and left cordoned', async (t) => {
  const { c, lines, deps, node, progress, looks } = setup(t, [BROKEN]);
  t.is(await runNodeCycle(node('node001'), deps), 'failed');
  const p = progress.get('node001')!;
  t.deepEqual(lines.slice(-3), [
    ['node001', 'ready', 'end', null],
    ['node001', 'gate', 'begin', null],
    ['node001', 'gate', 'fail', 'pod-network gate: HNS network l2bridge missing (still after 20s); left cordoned'],
  ]);
  // Looks every 5 s for 20 s: at 0, 5, 10, 15 and 20.
  t.is(looks(), 5);
  t.deepEqual(
    [p.outcome, p.reason],
    ['failed', 'pod-network gate: HNS network l2bridge missing (still after 20s); left cordoned'],
  );
  t.true(c.read().nodes.node001!.unschedulable);
  t.false(c.events().some((e) => e.kind === 'uncordon'));
});

test('a controller that died during the gate resumes at the gate; a journal from before the gate runs it once', async (t) => {
  const inGate: Line[] = [
    ['node001', 'planned', 'end'],
    ['node001', 'cordon', 'begin'],
    ['node001', 'cordon', 'end'],
    ['node001', 'drain', 'end'],
    ['node001', 'apply', 'end'],
    ['node001', 'ready', 'end'],
    ['node001', 'gate', 'begin'],
  ];
  const died = setup(t, [PASS], inGate);
  await died.c.kubectl('cordon', 'node001');
  t.is(await runNodeCycle(died.node('node001'), died.deps), 'done');
  t.deepEqual(
    died.lines.map((l) => `${l[1]} ${l[2]}`),
    ['gate begin', 'gate end', 'uncordon begin', 'uncordon end', 'done end'],
  );

  // An old journal: Ready ended, then the process died before its uncordon (no gate phase then).
  const old = setup(t, [PASS], inGate.slice(0, -1));
  t.is(await runNodeCycle(old.node('node001'), old.deps), 'done');
  t.deepEqual(
    old.lines.map((l) => `${l[1]} ${l[2]}`),
    ['gate begin', 'gate end', 'uncordon begin', 'uncordon end', 'done end'],
  );

  // Past the gate already: not looked at again.
  const past = setup(t, [BROKEN], [...inGate, ['node001', 'gate', 'end']]);
  t.is(await runNodeCycle(past.node('node001'), past.deps), 'done');
  t.is(past.looks(), 0);
});

test('a playbook without a gate has no gate phase', async (t) => {
  const { lines, deps, node } = setup(t, [BROKEN]);
  t.is(await runNodeCycle(node('node001'), { ...deps, gate: null }), 'done');
  t.false(lines.some((l) => l[1] === 'gate'));
});
