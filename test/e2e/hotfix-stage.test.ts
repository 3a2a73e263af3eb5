// `play hotfix-windows --stage` end to end in the shared lab with the real CLI: two simulated Windows
// nodes (node019, node020; lab/windows, a TEST DOUBLE) onboarded at 17763.1158, the real kubectl on
// control1 against the Kubernetes API double (lab/cluster, a TEST DOUBLE). May's pin with its .msu on
// the controller: --stage --check plans, --stage uploads, expands and verifies it on both nodes without
// cordoning either (journal: planned, stage, done), a second --stage sends nothing; the run in the
// window then installs without uploading (its -vv log has no Add-PlayFileChunk). It holds the cluster
// rollout lock as rolling-preflight.test.ts does, which uses the same nodes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { holdClusterRollouts, holdTorHosts } from './fixtures/lab-locks.js';
import {
  clusterNodes,
  eventsSince,
  lastSeq,
  nodeFile,
  PINS,
  pinVars,
  rollingInventory,
  resetAndOnboard,
} from './fixtures/rolling-lab.js';

const NODES = ['node019', 'node020'] as const;
const WINDOWS = 20 - 9 + 1;
const REMOTE_DIR = 'C:\\k\\updates';
const MSU = `${REMOTE_DIR}\\windows10.0-kb4551853-x64.msu`;
let lab: Lab;
let dir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let state: string;
let local: string;
let releaseRollouts: (() => Promise<void>) | undefined;

const hotfix = (args: string[]) =>
  play(
    [
      'hotfix-windows',
      '-i',
      inventory,
      '--state',
      state,
      '--no-live',
      '-e',
      pinVars(PINS.may, { local, dir: REMOTE_DIR }),
      ...args,
    ],
    env,
  );

test.before(async () => {
  releaseRollouts = await holdClusterRollouts();
  lab = await ensureLab({ windows: WINDOWS, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-stage-'));
  state = join(dir, 'state.db');
  local = join(dir, 'windows10.0-kb4551853-x64.msu');
  writeFileSync(local, 'MSCF simulated update package KB4551853\n'.repeat(40_000));
  ({ inventory, env } = rollingInventory(lab, dir, NODES));
  const release = await holdTorHosts();
  try {
    await resetAndOnboard(NODES, inventory, env);
  } finally {
    await release();
  }
});

test.after.always(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await releaseRollouts?.();
});

const sent = (log: string) => (readFileSync(log, 'utf8').match(/Add-PlayFileChunk/g) ?? []).length;

// Long because it is one scenario as an operator runs it, in order: its steps share the nodes' state.
test.serial(
  'stage ahead of the window (check, stage, stage again), then the run installs without uploading',
  async (t) => {
    const mark = lastSeq(lab);
    const check = await hotfix(['--stage', '--check']);
    t.is(check.code, 2, check.stdout + check.stderr);
    t.deepEqual(
      check.stdout.split('\n').filter((l) => /^(stage|ok|failed)/.test(l)),
      [
        'stage plan: 2 nodes to stage, 0 already in the desired state, 0 waived, 0 failed to plan',
        'stage: node019 (stage: create msu, staged)',
        'stage: node020 (stage: create msu, staged)',
      ],
    );
    for (const n of NODES) t.is(nodeFile(lab, n, MSU), null, `--check sent nothing to ${n}`);

    const stageLog = join(dir, 'stage.log');
    const staged = await hotfix(['--stage', '--json', '--log', stageLog]);
    t.is(staged.code, 0, staged.stderr.slice(-4000));
    const report = JSON.parse(staged.stdout);
    t.is(report.playbook, 'hotfix-windows --stage');
    t.is(report.status, 'done');
    for (const n of NODES) {
      t.is(report.hosts[n].outcome, 'done', n);
      const phases = report.hosts[n].phases.map((p: { phase: string }) => p.phase);
      t.deepEqual(phases, ['planned', 'stage', 'done'], n);
      t.is(report.hosts[n].phases[1].detail, 'staged: stage (msu, staged)', n);
      t.deepEqual(nodeFile(lab, n, MSU), readFileSync(local), `${n} has the .msu`);
      t.not(
        nodeFile(lab, n, `${REMOTE_DIR}\\play-stage-KB4551853\\Windows10.0-KB4551853-x64.cab`),
        null,
        `${n} expanded`,
      );
    }
    t.true(sent(stageLog) > 0, 'the staging run sent the .msu in pieces');
    t.deepEqual(eventsSince(lab, mark, NODES), [], 'staging never cordoned or drained a node');
    t.deepEqual(
      NODES.map((n) => clusterNodes(lab, NODES)[n]!.kernel),
      ['10.0.17763.1158', '10.0.17763.1158'],
      'staging installed nothing',
    );

    const again = await hotfix(['--stage', '--json']);
    t.is(again.code, 0, again.stderr.slice(-3000));
    for (const n of NODES) t.is(JSON.parse(again.stdout).hosts[n].phases[1].detail, 'already staged', n);

    const runLog = join(dir, 'run.log');
    const run = await hotfix(['--json', '--log', runLog]);
    t.is(run.code, 0, run.stderr.slice(-4000));
    t.is(JSON.parse(run.stdout).status, 'done');
    for (const n of NODES)
      t.deepEqual(clusterNodes(lab, NODES)[n], { ready: true, cordoned: false, kernel: '10.0.17763.1217' });
    t.is(sent(runLog), 0, 'the run in the window uploaded nothing');
    t.regex(readFileSync(runLog, 'utf8'), /Get-PlayFile/, 'it compared the staged .msu by its hash');

    // A node at the pin is never staged: the next staging run finds nothing to do.
    const after = await hotfix(['--stage', '--json']);
    t.is(after.code, 0, after.stderr.slice(-3000));
    for (const n of NODES) t.is(JSON.parse(after.stdout).hosts[n].outcome, 'ok', n);
  },
);

test.serial('--stage --resume with no staging run to resume: one line naming it, exit 64', async (t) => {
  const r = await play(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', '--stage', '--resume'], env);
  t.is(r.code, 64, r.stdout + r.stderr);
  t.regex(r.stderr, /--resume: no unfinished hotfix-windows --stage run on this inventory in /);
});
