// The pod-network gate end to end in the shared lab with the real CLI: `play hotfix-windows` on two
// simulated Windows nodes of its own (node023, node024: the lab's Windows count grows to 16 for them;
// lab/windows, a TEST DOUBLE), the real kubectl on control1 against the Kubernetes API double
// (lab/cluster, a TEST DOUBLE), and the lab's real tor hosts, where the nodes' gateway VIPs are put by
// hand (`ip addr add` in tor1's namespace: what the gate looks at, without touching keepalived).
//  - node023's HNS network does not come back after its reboot (the simulator's fault
//    hnsNetworkMissingAfterReboot): Ready, yet the gate fails it with what is missing; it stays
//    cordoned, and with --max-fail 0 the next batch (node024) never starts.
//  - node024, healthy, passes the gate (its phases say what the gate saw) and is uncordoned.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { readClusterState } from '../../lab/cluster/cluster-state.js';
import { setWindowsNodeFaults } from '../../lab/lab.js';
import { vipFor } from '../../tasks/linux/index.js';
import { ensureLab, type Lab, runLocal } from '../helpers/lab.js';
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
import { vipHolders } from './fixtures/tor-hosts.js';

const NODES = ['node023', 'node024'] as const;
const WINDOWS = 24 - 9 + 1;
let lab: Lab;
let dir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let state: string;
let vips: Record<string, string> = {};
const releases: (() => Promise<void>)[] = [];

const hotfix = (args: string[]) =>
  play(['hotfix-windows', '-i', inventory, '--state', state, '--no-live', '-e', pinVars(PINS.may), ...args], env);

/** The rolling inventory of the two nodes, with the lab's tor hosts kept (the gate looks at them). */
function withTorHosts(file: string): void {
  const inv = YAML.parse(readFileSync(file, 'utf8'));
  const labInv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  inv.all.children.tor = labInv.all.children.tor;
  writeFileSync(file, YAML.stringify(inv));
}

test.before(async () => {
  releases.push(await holdClusterRollouts());
  lab = await ensureLab({ windows: WINDOWS, control: 1, tor: 3 });
  dir = mkdtempSync(join(tmpdir(), 'play-gate-'));
  state = join(dir, 'state.db');
  ({ inventory, env } = rollingInventory(lab, dir, NODES));
  withTorHosts(inventory);
  // Onboarding changes the cluster's pod CIDRs, and the VIPs are the tor hosts': held from here to the end.
  releases.push(await holdTorHosts());
  await resetAndOnboard(NODES, inventory, env);
  const cluster = readClusterState(clusterFile(lab))!;
  vips = Object.fromEntries(NODES.map((n) => [n, vipFor(cluster.nodes[n]!.podCIDR!).address]));
  for (const n of NODES) {
    const r = await runLocal('ip', ['-n', 'tor1', 'addr', 'add', `${vips[n]}/24`, 'dev', 'eth1']);
    if (r.code !== 0 && !/exists/.test(r.stderr)) throw new Error(`ip addr add ${vips[n]} on tor1: ${r.stderr}`);
  }
});

test.after.always(async () => {
  for (const vip of Object.values(vips))
    await runLocal('ip', ['-n', 'tor1', 'addr', 'del', `${vip}/24`, 'dev', 'eth1']);
  if (dir) rmSync(dir, { recursive: true, force: true });
  for (const release of releases.reverse()) await release();
});

test.serial(
  'a node whose HNS network is gone after its reboot fails the gate, stays cordoned, and the next batch does not start',
  async (t) => {
    t.deepEqual(await vipHolders(vips.node023!), ['tor1'], 'the gateway VIP answers before the run');
    await setWindowsNodeFaults('node023', { hnsNetworkMissingAfterReboot: true });
    await setWindowsNodeFaults('node023', null); // handed to the node's model: it fires at the next boot
    const mark = lastSeq(lab);
    const run = await hotfix(['--serial', '1', '--max-fail', '0', '--json']);
    t.is(run.code, 3, run.stderr.slice(-4000));
    const report = JSON.parse(run.stdout);
    t.is(report.status, 'stopped');
    t.deepEqual(
      [report.hosts.node023.outcome, report.hosts.node024.outcome],
      ['failed', 'pending'],
      'node024 never started',
    );
    t.is(
      report.hosts.node023.reason,
      'pod-network gate: HNS network l2bridge missing; HNS host endpoint cbr0 missing (still after 60s); left cordoned',
    );
    t.deepEqual(report.hosts.node023.phases.map((p: { phase: string }) => p.phase).slice(-3), [
      'apply',
      'ready',
      'gate',
    ]);
    t.deepEqual(clusterNodes(lab, NODES), {
      node023: { ready: true, cordoned: true, kernel: '10.0.17763.1217' },
      node024: { ready: true, cordoned: false, kernel: '10.0.17763.1158' },
    });
    t.deepEqual(eventsSince(lab, mark, ['node024']), [], 'node024 was never cordoned or drained');
    t.log(
      run.stderr
        .split('\n')
        .filter((l) => /node023|gate|budget/.test(l))
        .join('\n'),
    );
  },
);

test.serial('a healthy node passes the gate, its phases say what the gate saw, and it is uncordoned', async (t) => {
  const run = await hotfix(['-l', 'node024', '--json']);
  t.is(run.code, 0, run.stderr.slice(-4000));
  const report = JSON.parse(run.stdout);
  t.is(report.hosts.node024.outcome, 'done');
  const phases = report.hosts.node024.phases.map((p: { phase: string; detail: string | null }) => [p.phase, p.detail]);
  t.deepEqual(phases.slice(-4), [
    ['ready', null],
    [
      'gate',
      `pod-network gate passed: HNS network l2bridge on ${readClusterState(clusterFile(lab))!.nodes.node024!.podCIDR}; ` +
        `host endpoint cbr0 ${vips.node024!.replace(/\d+$/, '2')}; service kubelet Running; service kubeproxy Running; ` +
        `gateway VIP ${vips.node024} on tor1`,
    ],
    ['uncordon', null],
    ['done', null],
  ]);
  t.deepEqual(clusterNodes(lab, ['node024']), { node024: { ready: true, cordoned: false, kernel: '10.0.17763.1217' } });
});
