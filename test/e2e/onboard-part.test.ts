// A part of onboard-windows planned against the lab (the simulated Windows node node010, the simulated
// cluster on control1, the tor hosts): `--tags docker --check` and `--start-at-task kubelet --check`,
// as an operator types them. Check mode only reads, so the lab's state is left as it was; what the node
// holds may differ between runs (other files onboard it), so a task that runs is `planned` here and
// only the left-out tasks and their readers are compared by their text.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { onboardInventory } from './fixtures/onboard-lab.js';

const NODE = 'node010';
let lab: Lab;
let inventory: string;
let env: NodeJS.ProcessEnv;
const dirs: string[] = [];

test.before(async () => {
  lab = await ensureLab({ linux: 4, tor: 3, windows: 2, control: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'play-onboard-part-'));
  dirs.push(dir);
  ({ inventory, env } = onboardInventory(lab, dir));
});
test.after.always(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** task@host -> its outcome; a task that was planned (ok, changed, unknown for lack of an earlier change, a
 *  triggered task's skip) is `planned`; one left out or not run for it, its status and text. */
function outcomes(report: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [host, h] of Object.entries<any>(report.hosts)) {
    for (const s of h.steps) {
      // A triggered task's would-run or not-triggered is planning too (whether daemon.json changes).
      const leftOut = s.skip === 'not-selected' || s.skip === 'input-not-run';
      const notRun = leftOut || (s.status === 'unknown' && s.error.includes('not run'));
      out[`${s.task}@${host}`] = notRun ? `${s.status} (${s.skip ?? ''}): ${s.error}` : 'planned';
    }
  }
  return out;
}

const leftOut = (tasks: string[], why: string, host = NODE) =>
  Object.fromEntries(tasks.map((t) => [`${t}@${host}`, `skipped (not-selected): ${why}`]));

test('play onboard-windows --tags docker --check: the docker tasks are planned, the rest left out', async (t) => {
  const r = await play(['onboard-windows', '-i', inventory, '-l', NODE, '--tags', 'docker', '--check', '--json'], env);
  t.true(r.code === 0 || r.code === 2, r.stderr);
  const why = 'left out by --tags';
  const report = JSON.parse(r.stdout);
  // The play's other hosts are in the report, as in Ansible's recap: their tasks all left out, never connected to.
  const elsewhere = ['dnsIp', 'register', 'clusterNodes'].map((task) => `${task}@control1`);
  for (const tor of ['tor1', 'tor2', 'tor3'])
    elsewhere.push(
      ...['torForwarding', 'torPackage', 'torConfig', 'torRestart', 'torService'].map((x) => `${x}@${tor}`),
    );
  t.deepEqual(Object.fromEntries(Object.entries<any>(report.hosts).map(([h, r]) => [h, r.status])), {
    tor1: 'skipped',
    tor2: 'skipped',
    tor3: 'skipped',
    node010: report.hosts.node010.status,
    control1: 'skipped',
  });
  t.deepEqual(outcomes(report), {
    ...Object.fromEntries(elsewhere.map((k) => [k, `skipped (not-selected): ${why}`])),
    ...leftOut(['networkCleanup', 'nics', 'dnsClient', 'timezone', 'ntp', 'autoUpdate', 'sshdFirewall', 'hotfix'], why),
    'containers@node010': 'planned',
    'docker@node010': 'planned',
    'reboot@node010': 'unknown (): unknown (not run: hotfix was left out by --tags)',
    ...leftOut(['osBuild'], why),
    'daemonJson@node010': 'planned',
    'dockerRestart@node010': 'planned',
    'dockerRunning@node010': 'planned',
    'pauseImage@node010': 'planned',
    ...leftOut(['kubeletExe', 'kubeProxyExe', 'cniPlugin', 'kubeconfig', 'kubelet', 'hnsNetwork'], why),
    ...leftOut(['hnsEndpoint', 'cniConfig', 'kubeProxy'], why),
  });
});

test('play onboard-windows --start-at-task kubelet --check: the tasks before it are left out, its readers unknown', async (t) => {
  const r = await play(
    ['onboard-windows', '-i', inventory, '-l', NODE, '--start-at-task', 'kubelet', '--check', '--json'],
    env,
  );
  t.true(r.code === 0 || r.code === 2, r.stderr);
  const why = 'left out by --start-at-task';
  const got = outcomes(JSON.parse(r.stdout));
  const before = ['networkCleanup', 'nics', 'dnsClient', 'timezone', 'ntp', 'autoUpdate', 'sshdFirewall', 'hotfix'];
  const more = ['containers', 'docker', 'reboot', 'osBuild', 'daemonJson', 'dockerRestart', 'dockerRunning'];
  const rest = ['pauseImage', 'kubeletExe', 'kubeProxyExe', 'cniPlugin', 'kubeconfig'];
  const notRun = (task: string) => `unknown (): unknown (not run: ${task} was left out by --start-at-task)`;
  t.deepEqual(Object.fromEntries(Object.entries(got).filter(([k]) => k.endsWith(`@${NODE}`))), {
    ...leftOut([...before, ...more, ...rest], why),
    'kubelet@node010': notRun('dnsIp'),
    // They read register's pod CIDR, which is planned (read on control1), not the tasks left out.
    'hnsNetwork@node010': 'planned',
    'hnsEndpoint@node010': 'planned',
    'cniConfig@node010': notRun('dnsIp'),
    'kubeProxy@node010': 'planned',
  });
});
