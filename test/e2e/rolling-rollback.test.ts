// --on-failure rollback and the KB quarantine end to end in the shared lab with the real CLI: two simulated
// Windows nodes of its own (node025, node026: the lab's Windows count grows to 18 for them; lab/windows, a
// TEST DOUBLE, with real PowerShell), the real kubectl on control1 against the Kubernetes API double
// (lab/cluster, a TEST DOUBLE).
//  - node025 carries the badKb fault (lab/windows/faults.ts): once it runs KB4551853 its kubelet never
//    reports Ready. The canary fails after its install; with --on-failure rollback DISM removes the package
//    its install recorded, the node reboots, is back at 17763.1158, Ready and uncordoned; KB4551853 is
//    quarantined and the run stops before node026.
//  - The next run (rolling, and an ordinary playbook run whose hotfix step would install it) is refused
//    before touching anything, naming the KB, where and when it failed, and the command that releases it;
//    `play rollouts release-kb KB4551853` lets the next run install it (the fault cleared: a fixed node).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import { setWindowsNodeFaults } from '../../lab/lab.js';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play, projectRoot } from '../helpers/play.js';
import { holdClusterRollouts, holdTorHosts } from './fixtures/lab-locks.js';
import {
  clusterNodes,
  eventsSince,
  lastSeq,
  PINS,
  pinVars,
  rollingInventory,
  resetAndOnboard,
} from './fixtures/rolling-lab.js';

const NODES = ['node025', 'node026'] as const;
const WINDOWS = 26 - 9 + 1;
const PKG = 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7';
let lab: Lab;
let dir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let state: string;
let releaseRollouts: (() => Promise<void>) | undefined;

const hotfix = (args: string[]) =>
  play(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', '-e', pinVars(PINS.may), ...args], env);

test.before(async () => {
  releaseRollouts = await holdClusterRollouts();
  lab = await ensureLab({ windows: WINDOWS, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-rollback-'));
  state = join(dir, 'state.db');
  ({ inventory, env } = rollingInventory(lab, dir, NODES));
  const release = await holdTorHosts();
  try {
    await resetAndOnboard(NODES, inventory, env);
  } finally {
    await release();
  }
});

test.after.always(async () => {
  for (const n of NODES) await setWindowsNodeFaults(n, null).catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
  await releaseRollouts?.();
});

test.serial(
  'a canary not Ready after its install is rolled back: update removed, old build, uncordoned, KB quarantined',
  async (t) => {
    await setWindowsNodeFaults('node025', { badKb: 'KB4551853' });
    const mark = lastSeq(lab);
    const run = await hotfix(['--serial', '1', '--ready-timeout', '30', '--on-failure', 'rollback', '--json']);
    t.is(run.code, 3, run.stderr.slice(-4000));
    const report = JSON.parse(run.stdout);
    t.is(report.status, 'stopped');
    t.is(report.hosts.node025.outcome, 'failed');
    t.is(
      report.hosts.node025.reason,
      'node node025 not Ready 30s after its tasks; rolled back: removed KB4551853, back at 10.0.17763.1158; ' +
        'Ready, uncordoned; KB4551853 quarantined',
    );
    t.is(report.hosts.node026.outcome, 'pending', 'the run stopped before the next batch');
    const phases = report.hosts.node025.phases.map((p: { phase: string; detail: string | null }) => [
      p.phase,
      p.detail,
    ]);
    t.deepEqual(
      phases.filter(([p]: string[]) => p === 'apply' || p === 'rollback'),
      [
        ['apply', `changed: hotfix, reboot; installed KB4551853 as ${PKG}`],
        ['rollback', 'removed KB4551853, rebooted, back at 10.0.17763.1158'],
      ],
    );
    t.deepEqual(clusterNodes(lab, NODES), {
      node025: { ready: true, cordoned: false, kernel: '10.0.17763.1158' },
      node026: { ready: true, cordoned: false, kernel: '10.0.17763.1158' },
    });
    t.deepEqual(
      eventsSince(lab, mark, NODES)
        .map((e) => `${e.kind} ${e.node}`)
        .filter((k) => /^(un)?cordon /.test(k)),
      ['cordon node025', 'uncordon node025'],
    );
    const listed = await play(['rollouts', 'quarantined', '--state', state, '--json'], env);
    t.is(listed.code, 0, listed.stderr);
    t.like(JSON.parse(listed.stdout), [
      { kb: 'KB4551853', packageName: PKG, host: 'node025', playbook: 'hotfix-windows', runId: 1 },
    ]);
  },
);

test.serial('the next run is refused naming the KB; release-kb lets it run', async (t) => {
  const mark = lastSeq(lab);
  const refused = await hotfix([]);
  t.is(refused.code, 65, refused.stdout + refused.stderr);
  t.regex(
    refused.stderr,
    /KB4551853 is quarantined: it failed on node025 at \d{4}-\d\d-\d\dT[\d:.]+Z \(run \d+ of hotfix-windows\): node node025 not Ready 30s after its tasks; this run would install it on node025, node026\. Once the update is known good \(or the pin moved\), release it with: play rollouts release-kb KB4551853/,
  );
  t.notRegex(refused.stderr, /\n\s+at /, 'no stack trace');
  // Any playbook whose hotfix step would install it: onboarding too, before any host is touched.
  const onboard = await play(
    [
      resolve(projectRoot, 'test/e2e/fixtures/onboard-without-tor.ts'),
      '-i',
      inventory,
      '--state',
      state,
      '--no-live',
      '-e',
      pinVars(PINS.may),
    ],
    env,
  );
  t.is(onboard.code, 65, onboard.stdout + onboard.stderr);
  t.regex(onboard.stderr, /KB4551853 is quarantined: it failed on node025/);
  t.deepEqual(eventsSince(lab, mark, NODES), [], 'nothing was cordoned');

  const typo = await play(['rollouts', 'release-kb', 'KB4561608', '--state', state], env);
  t.is(typo.code, 64, typo.stderr);
  t.regex(typo.stderr, /KB4561608 is not quarantined in .*state\.db \(quarantined: KB4551853\)/);
  const released = await play(['rollouts', 'release-kb', 'kb4551853', '--state', state], env);
  t.is(released.code, 0, released.stderr);
  t.regex(released.stdout, /^KB4551853 released: runs may install it again \(it failed on node025 at /);

  await setWindowsNodeFaults('node025', null);
  const again = await hotfix(['--serial', '2', '--json']);
  t.is(again.code, 0, again.stderr.slice(-4000));
  t.deepEqual(clusterNodes(lab, NODES), {
    node025: { ready: true, cordoned: false, kernel: '10.0.17763.1217' },
    node026: { ready: true, cordoned: false, kernel: '10.0.17763.1217' },
  });
});
