// `play lab up --windows N`: simulated Windows nodes (lab/windows/, a TEST DOUBLE) in the lab. The plan
// and the inventory without a lab; then end to end on the shared lab (needs root): the real CLI and
// transport reach node009 with the lab's known_hosts and password. Only this file uses the Windows
// nodes; the destructive check (a killed simulator) runs on node010, and its tests run in order.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { labStatus } from '../../lab/lab.js';
import { inventoryYaml, knownHostsText } from '../../lab/inventory.js';
import { labPaths, windowsNodePaths } from '../../lab/paths.js';
import {
  BRIDGE_MAC,
  BRIDGE_MAX_PORTS,
  LAB_ROUTE,
  MAX_HOSTS,
  hostOfVeth,
  inLabRange,
  parseHostName,
  planHost,
  planTopology,
} from '../../lab/hosts/topology.js';
import { holdTorHosts } from '../e2e/fixtures/lab-locks.js';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play, projectRoot } from '../helpers/play.js';

// ---- the plan, pure ----

test('topology: Windows nodes are node009, node010, ... at 198.18.1.9, .10, ... after the linux and tor hosts', (t) => {
  const plan = planTopology({ linux: 1, tor: 1, windows: 3 });
  t.deepEqual(
    plan.map((h) => [h.name, h.group, h.address, h.namespace, h.iface, h.veth, h.prefixLength]),
    [
      ['linux1', 'linux', '198.18.0.101', 'linux1', 'eth1', 'pl-linux1', 24],
      ['tor1', 'tor', '198.18.0.11', 'tor1', 'eth1', 'pl-tor1', 24],
      ['node009', 'windows', '198.18.1.9', 'node009', 'eth1', 'pl-node009', 24],
      ['node010', 'windows', '198.18.1.10', 'node010', 'eth1', 'pl-node010', 24],
      ['node011', 'windows', '198.18.1.11', 'node011', 'eth1', 'pl-node011', 24],
    ],
  );
  t.is(plan[2]!.mac, '02:00:c6:12:01:09');
});

test('topology: every host reaches the bridge and the other hosts through an on-link route for the whole lab range', (t) => {
  // Windows nodes (198.18.1.x) and linux155.. (198.18.16.x on) lie outside the bridge's /24: every host needs it.
  t.deepEqual(
    [
      planHost('windows', 1).routes,
      planHost('linux', 1).routes,
      planHost('linux', 155).routes,
      planHost('tor', 1).routes,
    ],
    [[LAB_ROUTE], [LAB_ROUTE], [LAB_ROUTE], [LAB_ROUTE]],
  );
});

test('topology: every Windows address is in the lab range, unique, and apart from the Linux hosts and VIPs', (t) => {
  // As many linux hosts as the bridge holds beside every tor and Windows host.
  const plan = planTopology({
    linux: BRIDGE_MAX_PORTS - MAX_HOSTS.tor - MAX_HOSTS.windows,
    tor: MAX_HOSTS.tor,
    windows: MAX_HOSTS.windows,
  });
  const windows = plan.filter((h) => h.group === 'windows');
  t.is(windows.length, 246);
  t.is(windows.at(-1)!.name, 'node254');
  t.is(windows.at(-1)!.address, '198.18.1.254');
  t.true(windows.every((h) => inLabRange(h.address) && h.address.startsWith('198.18.1.')));
  t.is(new Set(plan.map((h) => h.address)).size, plan.length);
  t.is(new Set([...plan.map((h) => h.mac), BRIDGE_MAC]).size, plan.length + 1);
  t.is(new Set(plan.map((h) => h.veth)).size, plan.length);
});

test('topology: node names and their veths map back to Windows hosts; other node numbers do not', (t) => {
  t.deepEqual(parseHostName('node009'), { group: 'windows', index: 1 });
  t.deepEqual(parseHostName('node010'), { group: 'windows', index: 2 });
  t.deepEqual(parseHostName('node254'), { group: 'windows', index: 246 });
  for (const bad of ['node008', 'node001', 'node255', 'node9', 'node0009', 'Node009'])
    t.is(parseHostName(bad), undefined, bad);
  t.is(hostOfVeth('pl-node010'), 'node010');
  t.is(hostOfVeth('pl-node008'), undefined);
});

test('inventory: a windows group (only with Windows nodes) with password from the environment, cluster_ip and management_ip, no pod_cidr', (t) => {
  const files = { key: '/var/lib/play-lab/id_ed25519', knownHosts: '/var/lib/play-lab/known_hosts' };
  const doc = YAML.parse(inventoryYaml([planHost('linux', 1), planHost('windows', 1), planHost('windows', 2)], files));
  t.deepEqual(doc.all.children.windows, {
    vars: {
      ansible_user: 'Administrator',
      ansible_password: "{{ lookup('env', 'PLAY_LAB_WINDOWS_PASSWORD') }}",
      ansible_shell_type: 'powershell',
    },
    hosts: {
      node009: { ansible_host: '198.18.1.9', cluster_ip: '198.18.1.9', management_ip: '198.18.1.9' },
      node010: { ansible_host: '198.18.1.10', cluster_ip: '198.18.1.10', management_ip: '198.18.1.10' },
    },
  });
  t.false('windows' in YAML.parse(inventoryYaml([planHost('linux', 1)], files)).all.children);
  t.is(knownHostsText([{ address: '198.18.1.9', hostKey: 'ssh-ed25519 AAAAkey' }]), '198.18.1.9 ssh-ed25519 AAAAkey\n');
});

// ---- end to end on the shared lab ----

const root = process.getuid?.() === 0;
const e2e = root ? test.serial : test.skip;
const playbook = resolve(projectRoot, 'test/e2e/playbooks/windows-time-zone.ts');
const tmpDirs: string[] = [];
test.after.always(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

function sh(file: string, args: string[]): Promise<string> {
  return new Promise((res) => execFile(file, args, { encoding: 'utf8' }, (_e, stdout) => res(stdout)));
}

let lab: Lab;
e2e(
  'up --windows 2: node009 and node010 in the windows group, each a simulator in its namespace, reachable',
  async (t) => {
    const started = Date.now();
    lab = await ensureLab({ linux: 4, windows: 2 });
    t.log(`ensureLab({ linux: 4, windows: 2 }) took ${Date.now() - started} ms`);
    const hosts = await play(['hosts', 'windows', '-i', lab.inventoryPath]);
    t.is(hosts.code, 0, hosts.stderr);
    // The demo's lab has a third node: the first two are node009 and node010, in that order.
    t.true(hosts.stdout.startsWith('node009\nnode010\n'), hosts.stdout);
    t.true(
      hosts.stdout
        .trim()
        .split('\n')
        .every((h) => /^node\d{3}$/.test(h)),
      hosts.stdout,
    );

    const status = await labStatus();
    for (const name of ['node009', 'node010']) {
      t.like(
        status.hosts.find((h) => h.name === name),
        { group: 'windows', server: 'simulator', namespace: true, sshdAlive: true, reachable: true },
        name,
      );
    }
    const addr = await sh('ip', ['-n', 'node009', '-4', '-o', 'addr', 'show', 'dev', 'eth1']);
    t.regex(addr, /eth1\s+inet 198\.18\.1\.9\/24/);
    const routes = await sh('ip', ['-n', 'node009', '-4', 'route', 'show']);
    t.regex(routes, /^198\.18\.0\.0\/15 dev eth1/m);
    t.notRegex(routes, /^default/m);

    // The password: in the lab dir only (0600), never in the inventory.
    const env = labPaths(lab.state.dir).env;
    t.is(statSync(env).mode & 0o777, 0o600);
    const password = /^PLAY_LAB_WINDOWS_PASSWORD=(\S+)$/m.exec(readFileSync(env, 'utf8'))?.[1];
    t.truthy(password);
    t.false(readFileSync(lab.inventoryPath, 'utf8').includes(password!));
    const known = readFileSync(lab.knownHostsPath, 'utf8');
    for (const h of lab.state.hosts.filter((x) => x.group === 'windows'))
      t.true(known.includes(`${h.address} ${h.hostKey}\n`), h.name);
  },
);

e2e(
  "the real CLI and transport reach node009 with the lab's known_hosts and password: check 2, apply 0, again 0",
  async (t) => {
    const args = [playbook, '-i', lab.inventoryPath, '-l', 'node009', '--no-live'];
    // From a known time zone, whatever earlier runs left on the node.
    const reset = await play([...args, '-e', 'tz=UTC']);
    t.is(reset.code, 0, reset.stdout + reset.stderr);
    const check = await play([...args, '--check']);
    t.is(check.code, 2, check.stdout + check.stderr);
    t.regex(check.stdout, /id: "UTC" -> "China Standard Time"/);
    const apply = await play(args);
    t.is(apply.code, 0, apply.stdout + apply.stderr);
    t.regex(apply.stdout, /1 changed/);
    const again = await play(args);
    t.is(again.code, 0, again.stdout + again.stderr);
    t.regex(again.stdout, /1 ok, 0 changed/);
    const state = JSON.parse(readFileSync(windowsNodePaths(lab.state.dir, 'node009').state, 'utf8'));
    t.is(state.timeZone, 'China Standard Time');
  },
);

e2e("the password comes only from lab.env for the lab's inventory; the environment wins over it", async (t) => {
  // A copy of the lab's inventory is not the lab's: lab.env is not loaded.
  const dir = mkdtempSync(join(tmpdir(), 'play-winlab-'));
  tmpDirs.push(dir);
  const copy = join(dir, 'inventory.yaml');
  writeFileSync(copy, readFileSync(lab.inventoryPath));
  const missing = await play([playbook, '-i', copy, '-l', 'node009', '--check', '--no-live']);
  t.is(missing.code, 65, missing.stdout + missing.stderr);
  t.regex(
    missing.stderr,
    /host node009: ansible_password needs environment variable PLAY_LAB_WINDOWS_PASSWORD, which is not set/,
  );
  // A password already in the environment is not overridden by lab.env: a wrong one is refused.
  const wrong = await play([playbook, '-i', lab.inventoryPath, '-l', 'node009', '--check', '--no-live'], {
    PLAY_LAB_WINDOWS_PASSWORD: 'not-the-password',
  });
  t.is(wrong.code, 4, wrong.stdout + wrong.stderr);
});

e2e('up again keeps the simulators: same pids, same host keys', async (t) => {
  const pick = (l: Lab) =>
    l.state.hosts.filter((h) => h.group === 'windows').map((h) => [h.name, h.sshdPid, h.hostKey]);
  // The onboarding tests reset (restart) node009/node010 while they hold this lock: wait for them.
  const release = await holdTorHosts();
  t.teardown(release);
  const first = await ensureLab({ windows: 2 });
  const second = await ensureLab({ linux: 4, windows: 2 });
  t.true(pick(first).length >= 2, 'node009 and node010 (the demo adds node011)');
  t.deepEqual(pick(second), pick(first));
  t.false(second.state.started.some((n) => n.startsWith('node')));
});

e2e(
  'a killed simulator (node010) shows as down and up restarts it with its host key; node009 is left alone',
  async (t) => {
    // The onboarding tests reset and onboard node009/node010 while they hold this lock: wait for them.
    const release = await holdTorHosts();
    t.teardown(release);
    const before = await ensureLab({ linux: 4, windows: 2 });
    const old = before.state.hosts.find((h) => h.name === 'node010')!;
    const node009 = before.state.hosts.find((h) => h.name === 'node009')!;
    process.kill(old.sshdPid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    const down = (await labStatus()).hosts.find((h) => h.name === 'node010');
    // Another test file's ensureLab may restart it at any moment: then it is up again, with a new pid.
    if (down?.sshdPid === old.sshdPid) t.like(down, { sshdAlive: false, reachable: false });

    const startedAt = Date.now();
    const after = await ensureLab({ linux: 4, windows: 2 });
    t.log(`up restarting one simulator took ${Date.now() - startedAt} ms`);
    const now = after.state.hosts.find((h) => h.name === 'node010')!;
    t.not(now.sshdPid, old.sshdPid);
    t.is(now.hostKey, old.hostKey);
    t.is(after.state.hosts.find((h) => h.name === 'node009')!.sshdPid, node009.sshdPid);
    if (after.state.started.includes('node010'))
      t.regex(after.state.notes.join('\n'), /restarted the simulated Windows node on node010/);
    t.like(
      (await labStatus()).hosts.find((h) => h.name === 'node010'),
      { sshdAlive: true, reachable: true },
    );
    // Reachable with the unchanged known_hosts and password.
    const run = await play([playbook, '-i', after.inventoryPath, '-l', 'node010', '--check', '--no-live']);
    t.true(run.code === 0 || run.code === 2, run.stdout + run.stderr);
  },
);
