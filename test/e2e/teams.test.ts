// Teams: several controllers sharing one PostgreSQL state store (a private server, test/helpers/postgres.ts),
// end to end in the shared lab with the real CLI: two simulated Windows nodes of their own (node021,
// node022; lab/windows, a TEST DOUBLE), the real kubectl on control1 against the Kubernetes API double
// (lab/cluster, a TEST DOUBLE). Each controller is its own process with its own pid (its identity).
//  - Takeover: controller A is SIGKILLed after a drain; B, a standby (`play rollouts watch`), takes the
//    run over once A's lease expires and finishes it: no node drained twice, none left cordoned, no
//    hotfix installed twice.
//  - Fencing: A is SIGSTOPped past its lease, B takes over and finishes, A is SIGCONTed: the journal has
//    no event of A's fence after B's first, and A exits 69 saying it lost the lease.
//  - The cluster's lock: A on the PostgreSQL store and B on a file of its own: B is refused by the
//    cluster's Lease (exit 69, naming the holder).
//  - Schedules: A and B run `play drift --every 2s` on one store: one run per tick; A is killed and B
//    keeps the schedule.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { setWindowsNodeFaults } from '../../lab/lab.js';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { holdClusterRollouts } from './fixtures/lab-locks.js';
import { play, projectRoot } from '../helpers/play.js';
import { type SpawnedPlay, spawnPlay, waitForLine } from '../helpers/spawned-play.js';
import { PLAY_PASSWORD, postgresForThisFile } from '../helpers/postgres.js';
import {
  clusterNodes,
  eventsSince,
  lastSeq,
  PINS,
  pinVars,
  rollingInventory,
  resetAndOnboard,
} from './fixtures/rolling-lab.js';

// Not matched by other files' patterns (onboard-acceptance's 'node0[01][09]' would take node019).
const NODES = ['node021', 'node022'] as const;
const WINDOWS = 22 - 9 + 1;
/** Short leases so a takeover waits seconds, not half a minute. */
const TTL = '4';
const server = postgresForThisFile(test);

let lab: Lab;
let dir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let store: string;
let database: string;

let releaseRollouts: (() => Promise<void>) | undefined;

test.before(async () => {
  // Its runs take the cluster's rollout Lease: one test file at a time rolls the shared cluster.
  releaseRollouts = await holdClusterRollouts();
  lab = await ensureLab({ windows: WINDOWS, control: 1, linux: 4 });
  dir = mkdtempSync(join(tmpdir(), 'play-teams-'));
  ({ inventory, env } = rollingInventory(lab, dir, NODES));
  // The password as play recommends it: in the environment, not on a command line `ps` shows.
  env = { ...env, PLAY_LEASE_TTL: TTL, PGPASSWORD: PLAY_PASSWORD };
  store = await (await server()).freshUrl(undefined, null);
  // The URL names a socket directory (no host part), which WHATWG's URL does not parse.
  database = /@\/([^?]+)/.exec(store)![1]!;
  await resetAndOnboard(NODES, inventory, env);
});

test.after.always(async () => {
  for (const n of NODES) await setWindowsNodeFaults(n, null).catch(() => undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
  await releaseRollouts?.();
});

type Controller = SpawnedPlay;

/** `play ARGS` as a controller process whose output lines a test can wait for. */
const controller = (args: string[], extra: NodeJS.ProcessEnv = {}): Controller => spawnPlay(args, { ...env, ...extra });

const hotfix = (pin: (typeof PINS)[keyof typeof PINS], state = store) =>
  controller(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', '--serial', '1', '-e', pinVars(pin)]);
const watcher = () => controller(['rollouts', 'watch', '--state', store, '--poll', '1']);
const runOf = (c: Controller) =>
  Number(/^run (\d+) of hotfix-windows/.exec(c.lines.find((l) => /^run \d+ of/.test(l)) ?? '')?.[1]);

/** What the cluster says of the file's nodes, for a wait's error. */
const nodesNow = () => `nodes: ${JSON.stringify(clusterNodes(lab, NODES))}`;

async function report(run: number) {
  const r = await play(['rollouts', 'show', String(run), '--state', store, '--json'], env);
  return JSON.parse(r.stdout);
}

test.serial('takeover: A killed after a drain, the standby B takes the run over and finishes it', async (t) => {
  const mark = lastSeq(lab);
  // Every call to node021 takes 2 s, so A is killed between its drain and its install.
  await setWindowsNodeFaults('node021', { latencyMs: 2000 });
  const a = hotfix(PINS.may);
  await waitForLine(a, 'A drained node021', /node021 +drain +ok/, 180_000, nodesNow);
  a.child.kill('SIGKILL');
  const killedAt = Date.now();
  await a.exit;
  await setWindowsNodeFaults('node021', null);
  const run = runOf(a);
  const b = watcher();
  t.teardown(() => b.child.kill('SIGKILL'));
  await waitForLine(b, 'B took the run over', /taking it over/, 60_000, nodesNow);
  t.log(`B took over ${((Date.now() - killedAt) / 1000).toFixed(1)} s after A was killed (lease ${TTL} s, poll 1 s)`);
  await waitForLine(b, 'B finished the run', new RegExp(`run ${run}: finished here`), 240_000, nodesNow);
  b.child.kill('SIGTERM');
  t.is(await b.exit, 0, b.lines.join('\n').slice(-3000));
  t.regex(b.lines.join('\n'), new RegExp(`run ${run}: finished here, exit 0`));
  const r = await report(run);
  t.is(r.status, 'done');
  for (const n of NODES) {
    t.is(r.hosts[n].outcome, 'done', n);
    const installs = r.hosts[n].phases.filter((p: any) => p.phase === 'apply' && /hotfix/.test(p.detail ?? ''));
    t.true(installs.length <= 1, `${n}: the hotfix installed at most once`);
  }
  t.regex(r.controller, /\(pid \d+\)$/);
  t.false(r.controller.endsWith(`(pid ${a.child.pid})`), `finished by another controller than A: ${r.controller}`);
  const drains = eventsSince(lab, mark, NODES).filter((e) => e.kind === 'drain');
  for (const n of NODES) t.true(drains.filter((e) => e.node === n).length <= 1, `${n} drained at most once`);
  for (const n of NODES) t.false(clusterNodes(lab, NODES)[n]!.cordoned, `${n} not left cordoned`);
});

test.serial(
  'fencing: A paused past its lease writes nothing after B took over, and exits saying it lost it',
  async (t) => {
    await setWindowsNodeFaults('node021', { latencyMs: 2000 });
    t.teardown(() => setWindowsNodeFaults('node021', null));
    const a = hotfix(PINS.june);
    await waitForLine(a, 'A cordoned node021', /node021 +cordon +ok/, 180_000, nodesNow);
    a.child.kill('SIGSTOP');
    const run = runOf(a);
    const b = watcher();
    t.teardown(() => b.child.kill('SIGKILL'));
    await waitForLine(b, 'B finished the run', new RegExp(`run ${run}: finished here`), 240_000, nodesNow);
    b.child.kill('SIGTERM');
    await b.exit;
    a.child.kill('SIGCONT');
    const code = await a.exit;
    t.is(code, 69, a.lines.join('\n').slice(-3000));
    t.log(`A after SIGCONT:\n${a.lines.slice(-2).join('\n')}`);
    t.regex(
      a.lines.join('\n'),
      new RegExp(
        `^play: run ${run} lost its rolling lease: (run ${run} holds it now|another controller took it over)`,
        'm',
      ),
    );
    // The fencing numbers in the order the journal recorded them never go back: nothing of A's after B's first.
    const fences = (
      await (await server()).psql(`SELECT fence FROM play_rollout_events WHERE run_id = ${run} ORDER BY id`, database)
    )
      .split('\n')
      .filter(Boolean)
      .map(Number);
    t.true(new Set(fences).size >= 2, `a takeover happened: ${fences}`);
    t.deepEqual(
      fences,
      [...fences].sort((x, y) => x - y),
      `fences in order: ${fences}`,
    );
    t.is((await report(run)).status, 'done');
    for (const n of NODES) t.false(clusterNodes(lab, NODES)[n]!.cordoned, `${n} not left cordoned`);
  },
);

test.serial("the cluster's lock: a controller with another store is refused while the first rolls", async (t) => {
  await setWindowsNodeFaults('node021', { latencyMs: 2000 });
  t.teardown(() => setWindowsNodeFaults('node021', null));
  const a = hotfix(PINS.july);
  await waitForLine(a, 'A cordoned node021', /node021 +cordon +ok/, 180_000, nodesNow);
  const other = join(dir, 'other-store.db');
  const b = await play(
    ['hotfix-windows', '-i', inventory, '--state', other, '--no-live', '--serial', '1', '-e', pinVars(PINS.july)],
    env,
  );
  t.is(b.code, 69, b.stdout + b.stderr);
  t.regex(
    b.stderr,
    /the cluster's rollout lease \(Lease kube-system\/play-rollout, read on control1\) is held by play run \d+ of store \w+ \(postgres(ql)?:\/\/[^)]*\)/,
  );
  t.notRegex(b.stderr, /Tr0ub4dor/, 'no password in the message');
  a.child.kill('SIGTERM');
  t.is(await a.exit, 130, a.lines.join('\n').slice(-3000));
  for (const n of NODES) t.false(clusterNodes(lab, NODES)[n]!.cordoned, `${n} not left cordoned`);
});

test.serial('schedules: two controllers, one drift run per tick; the survivor keeps the schedule', async (t) => {
  const playbook = join(dir, 'tiny-drift.ts');
  writeFileSync(
    playbook,
    `import { definePlaybook } from '${projectRoot}/runner/playbook/define.js';\nimport { directory } from '${projectRoot}/tasks/linux/index.js';\n` +
      `export default definePlaybook({ name: 'tiny-drift', description: 'x', drift: true, tasks: { d: { on: 'linux1', step: directory({ path: '/srv/play-teams-drift' }) } } });\n`,
  );
  const args = ['drift', playbook, '-i', lab.inventoryPath, '--state', store, '--every', '2s'];
  const a = controller(args);
  const b = controller(args);
  t.teardown(() => {
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
  });
  await new Promise((r) => setTimeout(r, 9000));
  a.child.kill('SIGKILL');
  const killedAt = Date.now();
  await a.exit;
  await new Promise((r) => setTimeout(r, 9000));
  b.child.kill('SIGTERM');
  t.is(await b.exit, 0, b.lines.join('\n').slice(-2000));
  const history = JSON.parse(
    (await play(['drift', 'history', '--state', store, '--json', '--runs', '200'], env)).stdout,
  )
    .filter((r: any) => r.playbooks.includes('tiny-drift'))
    .reverse();
  const ticks = history.map((r: any) => Math.floor(Date.parse(r.startedAt) / 2000));
  t.deepEqual(ticks, [...new Set(ticks)], 'no tick run twice');
  for (let i = 1; i < history.length; i++)
    t.true(
      Date.parse(history[i].startedAt) >= Date.parse(history[i - 1].startedAt) + history[i - 1].durationMs,
      'runs never overlap',
    );
  const after = history.filter((r: any) => Date.parse(r.startedAt) > killedAt + 2000);
  t.true(after.length >= 2, `runs after A died: ${after.length}`);
  t.true(new Set(after.map((r: any) => r.controller)).size === 1, 'one controller kept the schedule');
});
