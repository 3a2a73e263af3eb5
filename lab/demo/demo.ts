// `npm run demo`: brings up the lab (3 Linux hosts, 3 ToR gateways, 3 simulated Windows nodes, a
// simulated cluster on control1) and onboards the Windows node node009 with the real CLI, as a
// newcomer would type it: `play onboard-windows --limit node009`, against the lab's own inventory
// with nothing exported (the lab's secrets are in its lab.env, which play loads). Then it reads the
// results from outside: the cluster's state (Ready, pod CIDR) and which tor host holds the node's
// gateway VIP. Works on a fresh lab and on a re-run (then: 0 changed).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labUp } from '../lab.js';

/** The checkout the lab comes with: the demo runs its `play` (bin/play.mjs) as a user would. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const NODE = 'node009';

/** What the demo suggests next: each line works when pasted in the checkout (test/e2e/demo.test.ts runs the printed lines). */
const TRY_NEXT: readonly (readonly [command: string, why: string])[] = [
  [`npx play onboard-windows --limit ${NODE} --check --diff`, 'the plan: nothing to change now'],
  ['npx play onboard-windows --limit node010', 'a second node: its VIP joins the same keepalived.conf'],
  ['npx play tor-gateway', 'the ToR gateways alone: the VIPs of every node the cluster knows'],
  [`npx play graph onboard-windows --limit ${NODE}`, 'the order: control, node, tor hosts'],
  ['npx play hosts windows', "the lab's Windows nodes"],
];

const lab = await labUp({ linux: 3, tor: 3, windows: 3, control: 1 });
const labDir = dirname(lab.inventoryPath);
console.log(
  `lab up: ${lab.hosts.length} hosts (${lab.hosts.map((h) => h.name).join(' ')})\ninventory: ${lab.inventoryPath}`,
);

// As a user types it: no -i (the lab's inventory is the default) and no secret exported.
const env: NodeJS.ProcessEnv = { ...process.env, PLAY_INVENTORY: '' };
const reportFile = join(labDir, 'demo-report.json');

function play(args: string[]): { code: number; report: any } {
  console.log(`\n$ play ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [resolve(root, 'bin/play.mjs'), ...args, '--report', reportFile], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  let report: any = null;
  try {
    report = JSON.parse(readFileSync(reportFile, 'utf8'));
  } catch {
    /* none */
  }
  return { code: r.status ?? 1, report };
}

const run = play(['onboard-windows', '--limit', NODE, '--no-live']);
const node = JSON.parse(readFileSync(join(labDir, 'cluster-state.json'), 'utf8')).nodes[NODE];
const gateway = node?.podCIDR ? String(node.podCIDR).replace(/\.0\/(\d+)$/, '.1') : undefined;

async function holder(vip: string): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const held = ['tor1', 'tor2', 'tor3'].filter((tor) => {
      const r = spawnSync('ip', ['-n', tor, '-4', '-o', 'addr', 'show', 'dev', 'eth1'], { encoding: 'utf8' });
      return r.stdout.includes(` ${vip}/`);
    });
    if (held.length === 1 || Date.now() > deadline) return held;
    await new Promise((r) => setTimeout(r, 250));
  }
}
const held = gateway ? await holder(gateway) : [];
const changed = run.report
  ? Object.values<any>(run.report.hosts)
      .flatMap((h) => h.steps)
      .filter((s) => s.status === 'changed').length
  : undefined;
const width = Math.max(...TRY_NEXT.map(([c]) => c.length)) + 2;

console.log(`
What happened (exit ${run.code}${changed !== undefined ? `, ${changed} step(s) changed${changed === 0 ? ': an earlier demo already onboarded it' : ''}` : ''}):
  ${NODE}, a simulated Windows Server 2019 node (lab/windows, a test double), got its time, hotfix and reboot,
  Docker and the pause image, kubelet and kube-proxy as services, joined the simulated cluster on control1, got the HNS
  L2Bridge network on its pod CIDR, and its pod gateway became a keepalived VIP on tor1-tor3.
  ${node ? `${NODE} is ${node.ready ? 'Ready' : 'NOT Ready'} with pod CIDR ${node.podCIDR}` : `${NODE} is not registered in the cluster`} (${join(labDir, 'cluster-state.json')})
  ${gateway ? `its gateway VIP ${gateway} is held by ${held.length ? held.join(', ') : 'no tor host yet'} (ip -n ${held[0] ?? 'tor1'} -4 addr show dev eth1)` : ''}
Try next (in this checkout; the lab's inventory and secrets are found without -i or exports):
${TRY_NEXT.map(([c, why]) => `  ${c.padEnd(width)}# ${why}`).join('\n')}
When you are done: npx play lab down`);
process.exit(run.code === 0 && node?.ready && held.length === 1 ? 0 : 1);
