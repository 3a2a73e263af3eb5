// onboard-windows end to end: the real CLI over real SSH against the shared lab: the simulated Windows
// node node009 (lab/windows, a test double), the simulated cluster on control1 (lab/cluster, its kubectl
// stand-in) and the three tor hosts with real keepalived electing over real VRRP. What the playbook did
// is looked at from outside: the cluster's state file, the node simulator's state file, `ip -n torN`.
//
// The tor hosts are shared with tor-gateway.test.ts: this file holds the tor-hosts lock
// (fixtures/lab-locks.ts) from before its first test to after its last, and leaves keepalived stopped.
// node010 is not onboarded here: its pod_cidr var stands for a node onboarded earlier (its VIP must
// be kept on the tor hosts).
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { resetWindowsNode } from '../../lab/lab.js';
import { ensureLab, onLabHost, type Lab } from '../helpers/lab.js';
import { play, projectRoot, type CliResult } from '../helpers/play.js';
import { LAB_CLUSTER, onboardInventory } from './fixtures/onboard-lab.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { stopKeepalived, TORS, vipHolders } from './fixtures/tor-hosts.js';
import { sleep } from '../helpers/wait.js';
import { VRRP_SETTLE_MS } from '../helpers/vrrp.js';

const NODE = 'node009';
/** node010's pod CIDR as an inventory var: far from the /24s the simulated cluster hands out (198.19.0-…). */
const OTHER_POD_CIDR = '198.19.250.0/24';
const CONF = '/etc/keepalived/keepalived.conf';

let lab: Lab;
let labDir: string;
let inventory: string;
let env: NodeJS.ProcessEnv;
let releaseTorHosts: (() => Promise<void>) | undefined;
const tmpDirs: string[] = [];

const onHost = (host: string, cmd: string) => onLabHost(lab, host, cmd);

async function onboard(args: string[] = []): Promise<CliResult & { report: any }> {
  const r = await play(['onboard-windows', '-i', inventory, '--limit', NODE, ...args], env);
  return { ...r, report: args.includes('--json') && r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : null };
}

const clusterNode = (name: string) => JSON.parse(readFileSync(join(labDir, 'cluster-state.json'), 'utf8')).nodes[name];
const nodeState = () => JSON.parse(readFileSync(join(labDir, 'hosts', NODE, 'node-state.json'), 'utf8'));
function nodeFile(path: string): string | null {
  const f = nodeState().files[path.toLowerCase()];
  return f ? Buffer.from(f.contentBase64, 'base64').toString('utf8') : null;
}

test.before(async (t) => {
  releaseTorHosts = await holdTorHosts();
  lab = await ensureLab({ linux: 4, tor: 3, windows: 2, control: 1 });
  labDir = dirname(lab.inventoryPath);
  const dir = mkdtempSync(join(tmpdir(), 'play-onboard-'));
  tmpDirs.push(dir);
  ({ inventory, env } = onboardInventory(lab, dir, (inv) => {
    inv.all.children.windows.hosts.node010.pod_cidr = OTHER_POD_CIDR;
  }));
  // node010 stands for a node onboarded by other means (its pod_cidr var): the cluster must not know it,
  // or the CIDR the cluster allocated (the demo's test onboards node010) would win over the var.
  await resetWindowsNode('node010');
  // The tor hosts as tor-gateway.test.ts leaves them, whatever ran before: keepalived stopped, no config.
  await stopKeepalived(lab, t);
  await Promise.all(TORS.map((tor) => onHost(tor, `rm -f ${CONF}`)));
  // A node onboarded by an earlier run of the suite: its kubelet and kube-proxy stopped (NotReady),
  // so the run below has work on the node too. A fresh node is left as it is.
  if (nodeState().services.kubelet) {
    const r = await play(
      [resolve(projectRoot, 'test/e2e/fixtures/onboard-services-stopped.ts'), '-i', inventory, '--limit', NODE],
      env,
    );
    if (r.code !== 0)
      throw new Error(`stopping kubelet and kube-proxy on ${NODE}: exit ${r.code}: ${r.stdout}${r.stderr}`);
    t.log(`${NODE} was onboarded before: kubelet and kube-proxy stopped, Ready ${clusterNode(NODE)?.ready}`);
  } else t.log(`${NODE} is fresh`);
});

test.after.always('keepalived stopped on the tor hosts; the tor hosts released', async (t) => {
  try {
    if (lab) await stopKeepalived(lab, t);
    for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
  } finally {
    await releaseTorHosts?.();
  }
});

let podCidr: string;

// Long because it is one acceptance scenario as a user runs it, in order: its steps share the lab's state.
test.serial(
  'play onboard-windows --limit node009: exit 0; Ready in the cluster; HNS and CNI on its pod CIDR; one tor host holds its VIP',
  async (t) => {
    const started = Date.now();
    const r = await onboard(['--json']);
    const ms = Date.now() - started;
    t.is(r.code, 0, `${r.stdout.slice(-3000)}${r.stderr.slice(-3000)}`);
    t.deepEqual(Object.keys(r.report.hosts).sort(), ['control1', NODE, ...TORS].sort());
    t.is(r.report.summary.failed, 0);
    const kubelet = r.report.hosts[NODE].steps.find((s: any) => s.task === 'kubelet');
    t.is(kubelet.status, 'changed', 'kubelet was created or started');
    t.log(`first run: ${ms} ms (report ${r.report.durationMs} ms), summary ${JSON.stringify(r.report.summary)}`);

    const node = clusterNode(NODE);
    t.truthy(node, 'node009 is registered');
    t.true(node.ready, 'node009 is Ready (kubelet and kube-proxy run)');
    podCidr = node.podCIDR;
    t.regex(podCidr, /^198\.19\.\d+\.0\/24$/, 'a /24 of the lab cluster CIDR');
    const register = r.report.hosts.control1.steps.find((s: any) => s.task === 'register');
    t.truthy(register, 'the registration is read on control1');
    const [a, b, c] = podCidr.split('.');
    const gateway = `${a}.${b}.${c}.1`,
      endpoint = `${a}.${b}.${c}.2`;

    const s = nodeState();
    t.like(
      s.hns.networks.find((n: any) => n.name === 'l2bridge'),
      { type: 'L2Bridge', addressPrefix: podCidr, gateway, adapterName: 'eth1' },
    );
    t.like(
      s.hns.endpoints.find((e: any) => e.name === 'cbr0'),
      { networkName: 'l2bridge', ipAddress: endpoint, compartmentId: 1, forwarding: true },
    );
    const cni = JSON.parse(nodeFile('C:\\k\\cni\\config\\l2bridge.conf')!);
    t.like(cni, {
      cniVersion: '0.2.0',
      name: 'l2bridge',
      type: 'win-bridge',
      dns: { Nameservers: [LAB_CLUSTER.dnsIp] },
    });
    t.deepEqual(cni.AdditionalArgs[0].Value.ExceptionList, [LAB_CLUSTER.podCidr, LAB_CLUSTER.serviceCidr]);
    t.regex(
      s.services.kubelet.binPath,
      new RegExp(
        `--hostname-override=${NODE} .*--kubeconfig=C:\\\\k\\\\kubeconfig\\.conf .*--cluster-dns=${LAB_CLUSTER.dnsIp.replace(/\./g, '\\.')} .*--image-pull-progress-deadline=30m`,
      ),
    );
    t.like(s.services.kubelet, { state: 'Running', startMode: 'Auto', dependencies: ['docker'] });
    t.like(s.services.kubeproxy, {
      state: 'Running',
      account: 'NT AUTHORITY\\NetworkService',
      dependencies: ['docker', 'kubelet'],
    });
    t.is(s.os.revision, 1158, 'the pinned build after the hotfix and its reboot');
    t.regex(nodeFile('C:\\k\\kubeconfig.conf')!, /server: https:\/\/198\.18\.0\.5:6443/);
    t.false(r.stdout.includes('lab-token-not-a-secret-elsewhere'), 'the kubeconfig is masked in the report');

    // The tor hosts: node009's VIP and node010's (its pod_cidr var), one holder for both.
    for (const tor of TORS) {
      const conf = await onHost(tor, `cat ${CONF}`);
      t.true(conf.includes(`${gateway}/24 dev eth1`), `${tor}: node009's VIP`);
      t.true(conf.includes('198.19.250.1/24 dev eth1'), `${tor}: node010's VIP kept`);
    }
    const electStarted = Date.now();
    let held: string[] = [];
    for (;;) {
      held = await vipHolders(gateway);
      const other = await vipHolders('198.19.250.1');
      if (held.length === 1 && other.length === 1 && other[0] === held[0]) break;
      if (Date.now() - electStarted > VRRP_SETTLE_MS) break;
      await sleep(100);
    }
    t.is(held.length, 1, `exactly one tor host holds ${gateway}: ${held.join(', ') || 'none'}`);
    t.log(`${held[0]} holds ${gateway} ${Date.now() - electStarted} ms after the run`);
  },
);

test.serial('the same command again changes nothing (exit 0, 0 changed); --check agrees (exit 0)', async (t) => {
  const started = Date.now();
  const r = await onboard(['--json']);
  t.is(r.code, 0, r.stderr);
  t.is(r.report.summary.changed, 0, JSON.stringify(r.report.summary));
  t.is(r.report.summary.failed, 0);
  for (const [host, h] of Object.entries<any>(r.report.hosts)) {
    for (const s of h.steps)
      t.true(
        s.status === 'ok' || (s.status === 'skipped' && /^not triggered/.test(s.error)),
        `${host} ${s.task}: ${s.status} ${s.error ?? ''}`,
      );
  }
  t.log(`second run: ${Date.now() - started} ms`);
  const check = await onboard(['--check']);
  t.is(check.code, 0, check.stdout + check.stderr);
  t.is(clusterNode(NODE).podCIDR, podCidr, 'the pod CIDR is kept');
});

test.serial('play graph onboard-windows: control, then the node, then the tor hosts', async (t) => {
  const r = await play(['graph', 'onboard-windows', '-i', inventory, '--limit', NODE], env);
  t.is(r.code, 0, r.stderr);
  const wave = new Map<string, number>();
  let current = 0;
  for (const line of r.stdout.split('\n')) {
    const w = /^wave (\d+):/.exec(line);
    if (w) current = Number(w[1]);
    const m = /^\s+(\w+) @ (\S+)/.exec(line);
    if (m && current > 0) wave.set(`${m[1]}@${m[2]}`, current);
  }
  const order = [
    'dnsIp@control1',
    `kubelet@${NODE}`,
    'register@control1',
    `hnsNetwork@${NODE}`,
    `kubeProxy@${NODE}`,
    'torConfig@tor1',
    'torService@tor3',
  ];
  for (const id of order) t.true(wave.has(id), `${id} in the graph`);
  for (let i = 1; i < order.length; i++)
    t.true(wave.get(order[i - 1]!)! < wave.get(order[i]!)!, `${order[i - 1]} before ${order[i]}`);
});
