// onboard-windows acceptance, end to end in the shared lab with the real CLI: the lab hook that
// resets a simulated Windows node (lab/windows, a TEST DOUBLE) to a fresh node; --check on a fresh node
// (exact plan, `unknown` where an output is not known yet, nothing changed); two fresh nodes onboarded
// at once (distinct pod CIDRs, both VIPs in one keepalived.conf, each held by one tor host); and a node
// that fails half-way (a hung New-PlayHnsNetwork hits the per-step timeout) while the other finishes,
// then completes on a re-run once the fault is gone. The inventory keeps the windows and tor groups' vars
// in group_vars/windows.yml and group_vars/tor.yml.
//
// Holds the tor-hosts lock (fixtures/lab-locks.ts) from first to last test, as onboard-windows.test.ts
// does, and leaves keepalived stopped and node010 fresh (onboard-windows.test.ts gives node010 a pod_cidr
// var standing for a node onboarded elsewhere: the cluster must not know node010 then).
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { resetWindowsNode, setWindowsNodeFaults } from '../../lab/lab.js';
import { windowsNodePaths } from '../../lab/paths.js';
import { ensureLab, onLabHost, type Lab } from '../helpers/lab.js';
import { play, type CliResult } from '../helpers/play.js';
import { onboardInventory } from './fixtures/onboard-lab.js';
import { labMac } from '../../lab/windows/defaults.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { stopKeepalived, TORS, vipHolders } from './fixtures/tor-hosts.js';
import { sleep } from '../helpers/wait.js';
import { VRRP_SETTLE_MS } from '../helpers/vrrp.js';

const NODES = ['node009', 'node010'];
/**
 * Both nodes, as a glob like the issue's `node00[89]` (the lab's nodes are node009 and node010): where
 * Ansible would read the brackets as a subscript of a base that matches nothing, play reads a glob.
 */
const TWO = 'node0[01][09]';
/** The optional steps for node010: the clean-up once, its NICs by MAC (eth1 keeps cluster_ip), its DNS suffix. */
const NODE010_OPTIONAL = {
  network_cleanup: 'acceptance-1',
  nics: [
    { mac: labMac('node010', 0), name: 'eth0', ipv4: '192.0.2.10/24', gateway: '192.0.2.1' },
    { mac: labMac('node010', 1), name: 'eth1', ipv4: '198.18.1.10/24', dns_servers: ['198.18.240.10'] },
  ],
  dns_domain: 'lab.test',
  dns_suffix_search_list: ['lab.test', 'cluster.local'],
};
const CONF = '/etc/keepalived/keepalived.conf';
/** After a (re)start keepalived elects in about 4 s. */
/** The per-step limit (--timeout) of the fault run: a hung call fails its step after this. */
const STEP_TIMEOUT_S = 15;

let lab: Lab;
let labDir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let releaseTorHosts: (() => Promise<void>) | undefined;
let faulted = false;
const hostKeys: Record<string, string> = {};
const resets: Record<string, Awaited<ReturnType<typeof resetWindowsNode>>> = {};
const tmpDirs: string[] = [];

const onHost = (host: string, cmd: string) => onLabHost(lab, host, cmd);

async function onboard(limit: string, args: string[] = []): Promise<CliResult & { report: any }> {
  const r = await play(['onboard-windows', '-i', inventory, '--limit', limit, '--json', '--no-live', ...args], env);
  let report: any = null;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    /* not JSON: the assertions show stdout */
  }
  return { ...r, report };
}

const cluster = () => JSON.parse(readFileSync(join(labDir, 'cluster-state.json'), 'utf8'));
/** This file's nodes and the master in the simulated cluster: other test files' nodes come and go in the
 *  shared cluster meanwhile (hotfix-windows.test.ts reboots its own). */
const ourClusterNodes = () => {
  const nodes = cluster().nodes;
  return JSON.stringify(['control1', ...NODES].map((n) => nodes[n] ?? null));
};
const stateFile = (node: string) => windowsNodePaths(labDir, node).state;
const readOrNull = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : null);
const gatewayOf = (cidr: string) => cidr.replace(/\.0\/24$/, '.1');
const settled = (s: any) => s.status === 'ok' || (s.status === 'skipped' && /^not triggered/.test(s.error ?? ''));
const describe = (r: CliResult) => `exit ${r.code}\n${r.stdout.slice(-4000)}\n${r.stderr.slice(-4000)}`;

test.before(async (t) => {
  releaseTorHosts = await holdTorHosts();
  lab = await ensureLab({ linux: 4, tor: 3, windows: 2, control: 1 });
  labDir = dirname(lab.inventoryPath);
  const dir = mkdtempSync(join(tmpdir(), 'play-accept-'));
  tmpDirs.push(dir);
  // node010 asks for the optional steps (docs/domain.md steps 1-2); node009 does not.
  // As an Ansible user keeps them: the windows and tor groups' vars in group_vars/ beside the inventory.
  ({ inventory, env } = onboardInventory(
    lab,
    dir,
    (inv) => {
      // Only its own nodes: the shared lab has more (other files' nodes, up to node022), and TWO, a
      // glob, would match node019 too.
      const hosts = inv.all.children.windows.hosts;
      inv.all.children.windows.hosts = Object.fromEntries(NODES.map((n) => [n, hosts[n]]));
      Object.assign(inv.all.children.windows.hosts.node010, NODE010_OPTIONAL);
    },
    ['windows', 'tor'],
  ));
  await stopKeepalived(lab, t);
  await Promise.all(TORS.map((tor) => onHost(tor, `rm -f ${CONF}`)));
  for (const node of NODES) {
    hostKeys[node] = readFileSync(windowsNodePaths(labDir, node).hostKey, 'utf8');
    const started = Date.now();
    resets[node] = await resetWindowsNode(node);
    t.log(`reset ${node} in ${Date.now() - started} ms: ${JSON.stringify(resets[node])}`);
  }
});

test.after.always('fault cleared, node010 fresh, keepalived stopped, tor hosts released', async (t) => {
  try {
    if (lab) {
      if (faulted) await setWindowsNodeFaults('node010', null).catch((e) => t.log(`clearing faults: ${e.message}`));
      await resetWindowsNode('node010').catch((e) => t.log(`resetting node010: ${e.message}`));
      await stopKeepalived(lab, t);
    }
    for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
  } finally {
    await releaseTorHosts?.();
  }
});

test.serial(
  'resetWindowsNode: a fresh node (no model state, not in the cluster), the same host key, a new simulator',
  async (t) => {
    const c = cluster();
    for (const node of NODES) {
      t.falsy(c.nodes[node], `${node} is not in the cluster state`);
      t.is(readFileSync(windowsNodePaths(labDir, node).hostKey, 'utf8'), hostKeys[node], `${node} keeps its host key`);
      t.true(existsSync(`/proc/${resets[node]!.pid}`), `${node}'s new simulator runs`);
      const s = readOrNull(stateFile(node));
      if (s !== null) t.falsy(JSON.parse(s).services?.kubelet, `${node}'s model is fresh: no kubelet service`);
    }
    // The copied known_hosts (made before the reset) still verifies the node: a read-only run reaches it.
    const r = await play(['hosts', 'windows', '-i', inventory], env);
    t.is(r.code, 0, r.stderr);
  },
);

test.serial(
  '--check --limit node009 on a fresh node: exit 2, every change listed, outputs not known yet are unknown, nothing changed',
  async (t) => {
    const before = readOrNull(stateFile('node009'));
    const clusterBefore = ourClusterNodes();
    const started = Date.now();
    const r = await onboard('node009', ['--check']);
    t.log(`check run: ${Date.now() - started} ms, summary ${JSON.stringify(r.report?.summary)}`);
    t.is(r.code, 2, describe(r));
    const steps: any[] = r.report.hosts.node009.steps;
    const status = Object.fromEntries(steps.map((s) => [s.task, s.status]));
    t.log(
      Object.entries(status)
        .map(([k, v]) => `${k}=${v}`)
        .join(' '),
    );
    for (const task of [
      'timezone',
      'ntp',
      'autoUpdate',
      'sshdFirewall',
      'hotfix',
      'containers',
      'docker',
      'kubeletExe',
      'kubeProxyExe',
      'cniPlugin',
      'kubeconfig',
    ]) {
      t.is(status[task], 'changed', `${task} would change on a fresh node`);
    }
    for (const task of ['kubelet', 'cniConfig', 'kubeProxy'])
      t.true(status[task] === 'changed' || status[task] === 'unknown', `${task}: ${status[task]}`);
    t.deepEqual(
      steps.filter((s) => s.status === 'ok' && s.kind !== 'windows.notAsked').map((s) => s.task),
      [],
      'nothing is ok on a fresh node',
    );
    t.deepEqual(
      steps.filter((s) => s.kind === 'windows.notAsked').map((s) => s.task),
      ['networkCleanup', 'nics', 'dnsClient'],
      'the optional steps only look',
    );
    // Never a false ok: what hangs on the hotfix's reboot output or on the registration (the pod CIDR) is unknown.
    for (const task of ['reboot', 'hnsNetwork', 'hnsEndpoint']) {
      t.is(status[task], 'unknown', `${task} is unknown in check mode: ${steps.find((s) => s.task === task)?.error}`);
    }
    for (const s of steps) t.not(s.status, 'failed', `${s.task}: ${s.error}`);
    const torConfig = r.report.hosts.tor1.steps.find((s: any) => s.task === 'torConfig');
    t.is(torConfig?.status, 'unknown', 'the tor config needs the pod CIDR: unknown');
    t.is(readOrNull(stateFile('node009')), before, "the node's model state file is unchanged");
    t.is(ourClusterNodes(), clusterBefore, 'the cluster state is unchanged');
  },
);

test.serial(
  "--limit 'node0[01][09]' onboards two fresh nodes at once: both Ready, distinct pod CIDRs, both VIPs in one keepalived.conf, each held once",
  async (t) => {
    const started = Date.now();
    const r = await onboard(TWO);
    t.log(`two-node run: ${Date.now() - started} ms, summary ${JSON.stringify(r.report?.summary)}`);
    t.is(r.code, 0, describe(r));
    const c = cluster();
    const cidrs = NODES.map((n) => c.nodes[n]?.podCIDR);
    for (const n of NODES) t.true(c.nodes[n]?.ready, `${n} is Ready`);
    t.not(cidrs[0], cidrs[1], `distinct pod CIDRs: ${cidrs.join(', ')}`);
    for (const cidr of cidrs) t.regex(cidr, /^198\.19\.\d+\.0\/24$/);
    const vips = cidrs.map(gatewayOf);
    for (const tor of TORS) {
      const conf = await onHost(tor, `cat ${CONF}`);
      for (const vip of vips) t.true(conf.includes(`${vip}/24 dev eth1`), `${tor}: ${vip} in keepalived.conf`);
      t.is((conf.match(/vrrp_instance /g) ?? []).length, 1, `${tor}: one vrrp_instance`);
    }
    const electStarted = Date.now();
    let held: string[][] = [];
    for (;;) {
      held = await Promise.all(vips.map(vipHolders));
      if (held.every((h) => h.length === 1)) break;
      if (Date.now() - electStarted > VRRP_SETTLE_MS) break;
      await sleep(200);
    }
    for (const [i, vip] of vips.entries())
      t.is(held[i]!.length, 1, `exactly one tor host holds ${vip}: ${held[i]!.join(', ') || 'none'}`);
    // node010 asked for the optional steps: done once, before HNS took eth1 (its address now on the vNIC).
    const steps010 = Object.fromEntries(r.report.hosts.node010.steps.map((s: any) => [s.task, s]));
    t.like(steps010.networkCleanup, { kind: 'windows.networkCleanup', status: 'changed' });
    t.like(steps010.nics, { kind: 'windows.netAdapters', status: 'changed' });
    t.like(steps010.dnsClient, { kind: 'windows.dnsClient', status: 'changed' });
    const s010 = JSON.parse(readFileSync(stateFile('node010'), 'utf8'));
    const adapter = (name: string) => s010.adapters.find((a: any) => a.name === name);
    t.like(adapter('eth0'), { dhcp: false, ipv4: ['192.0.2.10/24'], gateway: '192.0.2.1' });
    t.like(adapter('vEthernet (eth1)'), { ipv4: ['198.18.1.10/24'], dnsServers: ['198.18.240.10'] });
    t.deepEqual(s010.dnsSuffixSearchList, ['lab.test', 'cluster.local']);
    t.is(s010.bootCount, 2, 'one reboot for the clean-up and the hotfix together');
    t.is(r.report.hosts.node009.steps.find((s: any) => s.task === 'nics').kind, 'windows.notAsked');
    t.log(
      `${vips.map((v, i) => `${v} on ${held[i]!.join(',')}`).join('; ')}, ${Date.now() - electStarted} ms after the run`,
    );
  },
);

test.serial(
  'a node that fails half-way (hung New-PlayHnsNetwork): node010 failed with the step and reason, node009 ok; without the fault a re-run completes node010',
  async (t) => {
    const cidr009 = cluster().nodes.node009.podCIDR;
    await resetWindowsNode('node010');
    await setWindowsNodeFaults('node010', { hangFunction: 'New-PlayHnsNetwork' });
    faulted = true;
    const started = Date.now();
    const r = await onboard(TWO, ['--timeout', String(STEP_TIMEOUT_S)]);
    t.log(`fault run: ${Date.now() - started} ms, summary ${JSON.stringify(r.report?.summary)}`);
    t.is(r.code, 3, describe(r));
    const failed = r.report.hosts.node010.steps.filter((s: any) => s.status === 'failed');
    t.deepEqual(
      failed.map((s: any) => s.task),
      ['hnsNetwork'],
      JSON.stringify(failed),
    );
    t.regex(failed[0].error, new RegExp(`timed out after ${STEP_TIMEOUT_S} s`));
    t.true(r.stdout.includes('hnsNetwork'));
    for (const s of r.report.hosts.node009.steps) t.true(settled(s), `node009 ${s.task}: ${s.status} ${s.error ?? ''}`);
    for (const tor of TORS) {
      for (const s of r.report.hosts[tor].steps.filter((x: any) => x.target === 'node009')) {
        // node010 was reset (removed from the cluster): node009's config may change (node010's VIP comes or goes with its registration).
        t.true(settled(s) || s.status === 'changed', `${tor} ${s.task} for node009: ${s.status} ${s.error ?? ''}`);
        if (s.status === 'changed') t.log(`${tor} ${s.task} for node009 changed: ${s.textDiff ?? s.fields.join(',')}`);
      }
      for (const s of r.report.hosts[tor].steps.filter((x: any) => x.target === 'node010'))
        t.is(s.status, 'skipped', `${tor} ${s.task} for node010 is skipped`);
    }
    t.is(cluster().nodes.node009.podCIDR, cidr009);
    t.true(cluster().nodes.node009.ready);

    await setWindowsNodeFaults('node010', null);
    faulted = false;
    const again = await onboard(TWO);
    t.log(`re-run: summary ${JSON.stringify(again.report?.summary)}`);
    t.is(again.code, 0, describe(again));
    t.true(cluster().nodes.node010.ready, 'node010 Ready');
    for (const s of again.report.hosts.node009.steps) t.true(settled(s), `node009 ${s.task}: ${s.status}`);
    const cidrs = NODES.map((n) => cluster().nodes[n].podCIDR);
    for (const tor of TORS) {
      const conf = await onHost(tor, `cat ${CONF}`);
      for (const cidr of cidrs)
        t.true(conf.includes(`${gatewayOf(cidr)}/24 dev eth1`), `${tor}: ${gatewayOf(cidr)} in keepalived.conf`);
    }
  },
);
