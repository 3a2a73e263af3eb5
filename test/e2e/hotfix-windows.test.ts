// play hotfix-windows acceptance, end to end in the shared lab with the real CLI: six
// simulated Windows nodes (lab/windows, a TEST DOUBLE) onboarded at 17763.1158 in two failure domains,
// the real kubectl on control1 against the Kubernetes API double (lab/cluster, a TEST DOUBLE) with
// workloads and budgets, and the journal in a state file of the test's own. Scenarios, each moving the
// pin one build further:
//  - May: --check plans without touching anything; the run upgrades every node that needs it, a batch
//    at a time, one node per domain at once, the canary first; a node already there is never
//    cordoned; a second run changes nothing and cordons nothing.
//  - June: a budget that would block one node's drain (refused before its cordon, pod and budget named), a node
//    cordoned by hand (left cordoned) and a node whose changes are waived (never cordoned); the others
//    finish; exit 3.
//  - July: a canary that never comes back Ready: failed after --ready-timeout, and with maxFail 0 the
//    run stops before its next batch.
//  - August: the .msu uploaded from the controller; a second play on the inventory refused by the lock
//    (exit 69, naming the first); SIGTERM (exit 130, nothing left cordoned); the controller killed with SIGKILL between a drain
//    and its install, and again during a reboot wait: --resume finishes; no node drained twice or left
//    cordoned; no hotfix installed twice.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { setNeverReady } from '../../lab/cluster/ready.js';
import { updateClusterState } from '../../lab/cluster/cluster-state.js';
import { addPdb, addReplicaSet } from '../../lab/cluster/workloads.js';
import { setWindowsNodeFaults } from '../../lab/lab.js';
import { KUBECTL_PATH } from '../../lab/paths.js';
import { ensureLab, type Lab, sshRun } from '../helpers/lab.js';
import { holdClusterRollouts, holdTorHosts } from './fixtures/lab-locks.js';
import { play, projectRoot } from '../helpers/play.js';
import { type SpawnedPlay, spawnPlay, waitForLine, waitWhileRunning } from '../helpers/spawned-play.js';
import {
  clusterFile,
  clusterNodes,
  cordonedAtOnce,
  DOMAIN,
  eventsSince,
  lastSeq,
  NODES,
  nodeFile,
  PINS,
  pinVars,
  rollingInventory,
  WINDOWS_COUNT,
  resetAndOnboard as onboardFresh,
} from './fixtures/rolling-lab.js';

const NS = 'rolling-e2e';
let lab: Lab;
let dir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let state: string;

const hotfix = (args: string[]) =>
  play(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', ...args], env);

/** kubectl on control1, as an operator runs it there. */
const controlKubectl = (...args: string[]) => sshRun(lab, lab.host('control1'), `${KUBECTL_PATH} ${args.join(' ')}`);

let releaseRollouts: (() => Promise<void>) | undefined;

test.before(async () => {
  // Its runs take the cluster's rollout Lease: one test file at a time rolls the shared cluster.
  releaseRollouts = await holdClusterRollouts();
  lab = await ensureLab({ windows: WINDOWS_COUNT, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-rolling-'));
  state = join(dir, 'state.db');
  ({ inventory, env } = rollingInventory(lab, dir));
  // Resetting and onboarding nodes changes the cluster's pod CIDRs, from which tor-gateway derives the
  // VIPs other test files plan: they hold the tor hosts' lock while they plan, so this does too.
  const release = await holdTorHosts();
  try {
    await resetAndOnboard();
  } finally {
    await release();
  }
});

async function resetAndOnboard(): Promise<void> {
  await onboardFresh(NODES, inventory, env);
  updateClusterState(clusterFile(lab), (s) => {
    for (const p of Object.values(s.pods ?? {})) if (p.namespace === NS) delete s.pods![`${NS}/${p.name}`];
    for (const b of Object.values(s.pdbs ?? {})) if (b.namespace === NS) delete s.pdbs![`${NS}/${b.name}`];
    // No budget on these: evicted pods are rescheduled anywhere in the shared cluster, also on nodes
    // other test files reset. June's budget is the one meant to block.
    addReplicaSet(s, { name: 'web', namespace: NS, replicas: 6, nodes: [...NODES], labels: { app: 'web' } });
  });
}

test.after.always(async () => {
  if (lab) {
    setNeverReady(clusterFile(lab), 'node012', false);
    for (const n of NODES) await setWindowsNodeFaults(n, null).catch(() => undefined);
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  await releaseRollouts?.();
});

// Long because it is one acceptance scenario as a user runs it (check, run, rerun): its steps share the lab's state.
test.serial('May: --check plans, the run upgrades batch by batch, a second run changes nothing', async (t) => {
  // node017 reaches the pin by itself first (the fixture's onboarding, limited to it): never cordoned.
  const alone = await play(
    [
      resolve(projectRoot, 'test/e2e/fixtures/onboard-without-tor.ts'),
      '-i',
      inventory,
      '--limit',
      'node017',
      '-e',
      pinVars(PINS.may),
      '--no-live',
    ],
    env,
  );
  t.is(alone.code, 0, alone.stdout.slice(-2000));

  const mark = lastSeq(lab);
  const check = await hotfix(['--check', '--max-per-domain', '1', '-e', pinVars(PINS.may)]);
  t.is(check.code, 2, check.stdout + check.stderr);
  const planLines = check.stdout.split('\n').filter((l) => /^(plan|batch|ok|failed| {2}\S+: moved)/.test(l));
  t.deepEqual(planLines, [
    'plan: 5 nodes to upgrade in 3 batches, 1 already in the desired state, 0 waived, 0 failed to plan; failures allowed: 0',
    'batch 1: node012 [a]',
    'batch 2: node013 [a], node015 [b]',
    'batch 3: node014 [a], node016 [b]',
    '  node014: moved from batch 2 to 3 (domain a was full)',
    'ok: node017 (already in the desired state: not cordoned)',
  ]);
  t.deepEqual(eventsSince(lab, mark), [], '--check changes nothing in the cluster');

  const run = await hotfix(['--max-per-domain', '1', '-e', pinVars(PINS.may), '--json']);
  t.is(run.code, 0, run.stderr.slice(-4000));
  const report = JSON.parse(run.stdout);
  t.is(report.status, 'done');
  t.deepEqual(Object.fromEntries(Object.entries(report.hosts).map(([h, x]: [string, any]) => [h, x.outcome])), {
    node017: 'ok',
    node012: 'done',
    node013: 'done',
    node014: 'done',
    node015: 'done',
    node016: 'done',
  });
  t.deepEqual(
    report.batches.map((b: any) => b.hosts),
    [['node012'], ['node013', 'node015'], ['node014', 'node016']],
  );
  const nodes = clusterNodes(lab);
  for (const n of NODES)
    t.deepEqual(nodes[n], { ready: true, cordoned: false, kernel: '10.0.17763.1217' }, `${n} at the end`);

  const events = eventsSince(lab, mark);
  const atOnce = cordonedAtOnce(events);
  t.true(Math.max(...atOnce.map((c) => c.length)) <= 2, 'never more cordoned than the largest batch');
  for (const c of atOnce) t.is(new Set(c.map((n) => DOMAIN[n])).size, c.length, `one per domain: ${c}`);
  const canaryDone = events.find((e) => e.kind === 'uncordon' && e.node === 'node012')!.seq;
  const othersFirstCordon = events.find((e) => e.kind === 'cordon' && e.node !== 'node012')!.seq;
  t.true(canaryDone < othersFirstCordon, 'the canary was uncordoned before any other node was cordoned');
  t.deepEqual(
    events.filter((e) => e.node === 'node017'),
    [],
    'node017 (already at the revision) was never cordoned or drained',
  );
  t.log(run.stderr.split('\n').slice(-6).join('\n'));

  const mark2 = lastSeq(lab);
  const again = await hotfix(['--max-per-domain', '1', '-e', pinVars(PINS.may), '--json']);
  t.is(again.code, 0, again.stderr.slice(-3000));
  t.true(Object.values(JSON.parse(again.stdout).hosts).every((h: any) => h.outcome === 'ok'));
  t.deepEqual(eventsSince(lab, mark2), [], 'a second run cordons nothing');
});

test.serial(
  'June: a budget blocks one drain, a node cordoned by hand stays cordoned, a waived one untouched; exit 3',
  async (t) => {
    const mark = lastSeq(lab);
    updateClusterState(clusterFile(lab), (s) => {
      addReplicaSet(s, { name: 'solo', namespace: NS, replicas: 1, nodes: ['node013'], labels: { app: 'solo' } });
      addPdb(s, { name: 'solo', namespace: NS, selector: { app: 'solo' }, minAvailable: 1 });
    });
    t.is((await controlKubectl('cordon', 'node016')).code, 0);
    // node017 is held back by a waiver (the waivers file play drift reads, beside the inventory).
    const waivers = join(dir, 'waivers.yml');
    writeFileSync(
      waivers,
      ['hotfix', 'osBuild']
        .map(
          (task) =>
            `- hosts: node017\n  playbook: hotfix-windows\n  task: ${task}\n  reason: vendor hold, OPS-77\n  expires: 2099-12-31\n`,
        )
        .join(''),
    );
    t.teardown(async () => {
      rmSync(waivers, { force: true });
      await controlKubectl('uncordon', 'node016');
      updateClusterState(clusterFile(lab), (s) => {
        delete s.pdbs![`${NS}/solo`];
      });
    });
    const r = await hotfix(['--max-fail', '1', '--drain-timeout', '30', '-e', pinVars(PINS.june), '--json']);
    t.is(r.code, 3, r.stderr.slice(-4000));
    const report = JSON.parse(r.stdout);
    const failed = report.hosts.node013;
    t.is(failed.outcome, 'failed');
    // The preflight saw the budget before the batch: node013 is refused, never cordoned (the drain
    // that times out on a budget, with --try-blocked, is rolling-preflight.test.ts's).
    t.regex(
      failed.reason,
      /drain would block: pod rolling-e2e\/solo-\S+ held by PodDisruptionBudget rolling-e2e\/solo/,
    );
    t.deepEqual(
      eventsSince(lab, mark).filter((e) => e.node === 'node013' && e.kind === 'cordon'),
      [],
      'the blocked node was never cordoned',
    );
    for (const n of ['node012', 'node014', 'node015', 'node016']) t.is(report.hosts[n].outcome, 'done', n);
    t.is(report.hosts.node017.outcome, 'waived');
    t.is(
      report.hosts.node017.reason,
      'waived: hotfix: vendor hold, OPS-77 (until 2099-12-31); osBuild: vendor hold, OPS-77 (until 2099-12-31)',
    );
    const nodes = clusterNodes(lab);
    t.deepEqual(nodes.node013, { ready: true, cordoned: false, kernel: '10.0.17763.1217' });
    t.deepEqual(nodes.node016, { ready: true, cordoned: true, kernel: '10.0.17763.1282' }, 'left cordoned');
    t.deepEqual(nodes.node017, { ready: true, cordoned: false, kernel: '10.0.17763.1217' }, 'waived: untouched');
    t.deepEqual(
      eventsSince(lab, mark).filter((e) => e.node === 'node017'),
      [],
      'the waived node was never cordoned',
    );
    t.regex(JSON.stringify(report.hosts.node016.phases), /left cordoned: it was cordoned before the run/);
  },
);

test.serial('July: a canary that never comes back Ready stops the run before its next batch', async (t) => {
  setNeverReady(clusterFile(lab), 'node012', true);
  const r = await hotfix(['--ready-timeout', '15', '-e', pinVars(PINS.july), '--json']);
  setNeverReady(clusterFile(lab), 'node012', false);
  t.teardown(async () => void (await controlKubectl('uncordon', 'node012')));
  t.is(r.code, 3, r.stderr.slice(-4000));
  const report = JSON.parse(r.stdout);
  t.is(report.status, 'stopped');
  t.is(report.reason, 'failure budget spent: 1 failed, 0 allowed');
  t.is(report.hosts.node012.outcome, 'failed');
  t.is(report.hosts.node012.reason, 'node node012 not Ready 15s after its tasks; left cordoned');
  t.deepEqual(
    report.batches.map((b: any) => b.hosts),
    [['node012']],
  );
  for (const n of ['node013', 'node014', 'node015', 'node016', 'node017']) t.is(report.hosts[n].outcome, 'pending', n);
  t.true(clusterNodes(lab).node012!.cordoned, 'a node that is not Ready stays cordoned');
});

/** The CLI as a child process whose output lines a test can wait for. */
const spawnHotfix = (args: string[]): SpawnedPlay =>
  spawnPlay(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', ...args], env);

/** What the cluster says of the nodes, for a wait's error. */
const nodesNow = () => `nodes: ${JSON.stringify(clusterNodes(lab))}`;

// Long because it is one acceptance scenario as a user runs it, in order: its steps share the lab's state.
test.serial(
  'August: a second play refused by the lock; SIGKILL mid-drain and mid-reboot, then SIGTERM; --resume finishes',
  async (t) => {
    const mark = lastSeq(lab);
    const before = clusterNodes(lab).node012!.kernel;
    // This time the .msu lives on the controller: each node that needs it is sent it, in pieces.
    const local = join(dir, 'windows10.0-kb4565349-x64.msu');
    writeFileSync(local, 'MSCF simulated update package KB4565349\n'.repeat(40_000));
    const remote = 'C:\\k\\updates';
    const pin = ['-e', pinVars(PINS.august, { local, dir: remote }), '--serial', '2'];
    // Every call to node012 takes 3 s: the kill lands after its drain and before its install.
    await setWindowsNodeFaults('node012', { latencyMs: 3000 });
    const first = spawnHotfix(pin);
    // While it runs, a second play on the same inventory is refused, naming the first.
    await waitForLine(first, 'the first run to begin', /^run \d+ of hotfix-windows/, 60_000, nodesNow);
    const second = await hotfix(pin);
    t.is(second.code, 69, second.stdout + second.stderr);
    t.regex(
      second.stderr,
      new RegExp(
        `another play run holds the rolling lease on this inventory: run \\d+ \\(hotfix-windows\\), pid ${first.child.pid} on `,
      ),
    );
    await waitForLine(first, 'node012 drained', /node012 +drain +ok/, 120_000, nodesNow);
    first.child.kill('SIGKILL');
    await first.exit;
    await setWindowsNodeFaults('node012', null);
    t.deepEqual(clusterNodes(lab).node012, { ready: true, cordoned: true, kernel: before }, 'drained, not installed');

    const resumed = spawnHotfix(['--resume']);
    // Killed while a node reboots: the cluster sees it NotReady.
    await waitWhileRunning(
      resumed,
      'a node rebooting',
      () => Object.values(clusterNodes(lab)).some((n) => n.ready === false),
      120_000,
      nodesNow,
    );
    resumed.child.kill('SIGKILL');
    await resumed.exit;

    // SIGTERM (a service manager stopping play): nothing new starts, nodes in flight reach a safe point,
    // exit 130; no node is left cordoned by the run.
    const beforeTerm = lastSeq(lab);
    const stopped = spawnHotfix(['--resume']);
    await waitForLine(stopped, 'a cordon after the resume', / cordon +ok/, 120_000, nodesNow);
    stopped.child.kill('SIGTERM');
    t.is(await stopped.exit, 130, stopped.lines.join('\n').slice(-3000));
    t.deepEqual(
      NODES.filter((n) => clusterNodes(lab)[n]!.cordoned),
      [],
      'every node the run cordoned was finished or uncordoned',
    );

    // The last resume as `play resume`: the run's own playbook, inventory and options, from the journal.
    const third = await play(['resume', '--state', state, '--json', '--no-live'], env);
    t.is(third.code, 0, third.stderr.slice(-4000));
    const report = JSON.parse(third.stdout);
    t.is(report.status, 'done');
    for (const n of NODES) {
      t.is(report.hosts[n].outcome, 'done', n);
      const installs = report.hosts[n].phases.filter((p: any) => p.phase === 'apply' && /hotfix/.test(p.detail ?? ''));
      t.true(installs.length <= 1, `${n}: the hotfix was installed at most once: ${JSON.stringify(installs)}`);
    }
    const nodes = clusterNodes(lab);
    for (const n of NODES)
      t.deepEqual(nodes[n], { ready: true, cordoned: false, kernel: '10.0.17763.1397' }, `${n} at the end`);
    for (const n of NODES)
      t.deepEqual(
        nodeFile(lab, n, `${remote}\\windows10.0-kb4565349-x64.msu`),
        readFileSync(local),
        `${n} got the .msu`,
      );
    // Through the two kills no node was drained twice; a node the SIGTERM brought back to service
    // before its tasks starts over (drained again once), as docs/rolling.md says.
    const drains = (from: number, to = Number.POSITIVE_INFINITY) =>
      eventsSince(lab, from).filter((e) => e.kind === 'drain' && e.seq <= to);
    for (const n of NODES) {
      const reset = report.hosts[n].phases.some((p: any) => p.phase === 'uncordon' && /^stopped/.test(p.detail ?? ''));
      t.true(
        drains(mark, beforeTerm).filter((e) => e.node === n).length <= 1,
        `${n} drained at most once before SIGTERM`,
      );
      t.true(
        drains(beforeTerm).filter((e) => e.node === n).length <= (reset ? 2 : 1),
        `${n} drained again only if the SIGTERM sent it back to service before its tasks`,
      );
    }
  },
);

test.serial('a control host whose kubectl fails: one message naming the run and how to go on, exit 3', async (t) => {
  const inv = YAML.parse(readFileSync(inventory, 'utf8'));
  const control = Object.keys(inv.all.children.control.hosts)[0]!;
  inv.all.children.control.hosts[control].kubectl = '/opt/play-none/kubectl';
  const broken = join(dir, 'broken-kubectl.yaml');
  writeFileSync(broken, YAML.stringify(inv));
  const mark = lastSeq(lab);
  const r = await play(['hotfix-windows', '-i', broken, '--state', state, '--no-live', '-e', pinVars(PINS.may)], env);
  t.is(r.code, 3, r.stdout + r.stderr);
  t.regex(
    r.stderr,
    // The first kubectl a run sends reads the cluster's rollout Lease.
    /^play: run (\d+) stopped: kubectl get lease kube-system\/play-rollout on control1 failed \(exit 127\): .*not found; where every node is: play rollouts show \1; to go on: play resume \1\n$/m,
  );
  t.false(/internal error|\n\s+at /.test(r.stderr), 'no stack trace');
  t.deepEqual(eventsSince(lab, mark), [], 'no node was touched');
  const runs = await play(['rollouts', 'list', '--state', state, '--json'], env);
  t.is(JSON.parse(runs.stdout)[0].status, 'interrupted');
});
