// play drift says what it did not check, end to end through the real CLI over real SSH: with an
// inventory that has Windows nodes but no `control` group, onboard-windows is left out with a warning
// on the console and a field in the JSON report and the metrics; a ToR host whose port nothing listens
// on is `unreachable` in the text summary, the JSON report and the metrics (play_drift_host_up 0, no
// play_drift_host_drifted series), never counted under "no drift".
//
// Holds the tor-hosts lock (fixtures/lab-locks.ts): the tor hosts are probed, and other files change them.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { holdTorHosts } from './fixtures/lab-locks.js';

let lab: Lab;
let dir: string;
let inventory: string;
let release: (() => Promise<void>) | undefined;
const env = { VRRP_AUTH_PASS: 'lab-vrrp' };

test.before(async () => {
  release = await holdTorHosts();
  lab = await ensureLab({ tor: 3 });
  dir = mkdtempSync(join(tmpdir(), 'play-drift-not-judged-'));
  // The lab's tor group and one Windows node (never contacted: its playbook is left out), no control
  // group, and tor3 on a port where nothing listens.
  const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  const { tor, windows } = inv.all.children;
  windows.hosts = { node009: { ...windows.hosts.node009, pod_cidr: '198.19.9.0/24' } };
  tor.hosts.tor3.ansible_port = 1;
  inv.all.children = { tor, windows };
  inventory = join(dir, 'inventory.yaml');
  writeFileSync(inventory, YAML.stringify(inv));
});

test.after.always(async () => {
  try {
    if (dir) rmSync(dir, { recursive: true, force: true });
  } finally {
    await release?.();
  }
});

const SKIP_REASON =
  "no host in group control (task 'dnsIp' runs there: the kube-dns service IP, read on a master); add one to the inventory";

test.serial(
  'the text summary: the playbook left out is a warning, tor3 is unreachable and not "no drift"',
  async (t) => {
    const r = await play(['drift', '-i', inventory, '--state', join(dir, 'text.db')], env);
    t.true([2, 4].includes(r.code), `exit ${r.code}: ${r.stdout}${r.stderr}`);
    // The run's text starts at its summary line (a header naming the inventory may come before it).
    const [summary, ...rest] = r.stdout.slice(r.stdout.indexOf('drift run ')).split('\n');
    t.regex(
      summary!,
      /^drift run 1: (\d+ items? drifted|no drift on 2 of 3 hosts) \(.*1 unreachable, 1 playbook not checked\)/,
    );
    t.notRegex(summary!, /: no drift \(/);
    t.true(rest.includes(`  warning: onboard-windows not checked: ${SKIP_REASON}`), r.stdout);
    t.true(
      rest.some((l) => /^ {2}unreachable tor3: /.test(l)),
      r.stdout,
    );
  },
);

test.serial(
  '--json and --metrics: skipped and hostStatus in the report, host_up and playbook_checked in the metrics',
  async (t) => {
    const metrics = join(dir, 'drift.prom');
    const r = await play(
      ['drift', '-i', inventory, '--state', join(dir, 'json.db'), '--json', '--metrics', metrics],
      env,
    );
    t.true([2, 4].includes(r.code), `exit ${r.code}: ${r.stderr}`);
    t.true(r.stderr.includes(`play: warning: onboard-windows not checked: ${SKIP_REASON}\n`), r.stderr);
    const run = JSON.parse(r.stdout);
    t.deepEqual(run.playbooks, ['tor-gateway']);
    t.deepEqual(run.skipped, [{ playbook: 'onboard-windows', reason: SKIP_REASON }]);
    t.is(run.hostStatus.tor3, 'unreachable');
    t.deepEqual(Object.keys(run.hostStatus), ['tor1', 'tor2', 'tor3']);
    t.deepEqual(
      run.problems.map((p: { host: string; kind: string }) => [p.host, p.kind]),
      [['tor3', 'unreachable']],
    );
    const prom = readFileSync(metrics, 'utf8');
    const samples = (name: string) => prom.split('\n').filter((l) => l.startsWith(`${name}{`));
    t.deepEqual(samples('play_drift_host_up'), [
      'play_drift_host_up{host="tor1"} 1',
      'play_drift_host_up{host="tor2"} 1',
      'play_drift_host_up{host="tor3"} 0',
    ]);
    t.deepEqual(
      samples('play_drift_host_drifted').map((l) => l.replace(/ [01]$/, '')),
      ['play_drift_host_drifted{host="tor1"}', 'play_drift_host_drifted{host="tor2"}'],
      'an unreachable host has no drifted series, not a 0',
    );
    t.deepEqual(samples('play_drift_playbook_checked'), [
      'play_drift_playbook_checked{playbook="tor-gateway"} 1',
      'play_drift_playbook_checked{playbook="onboard-windows"} 0',
    ]);
  },
);
