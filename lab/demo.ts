// `npm run demo`: brings up the lab (3 Linux hosts, 3 ToR gateways, 3 simulated Windows nodes, a
// simulated cluster on control1) and onboards the Windows node node009 with the real CLI, as a
// newcomer would type it: `play onboard-windows --limit node009`. Then it reads the results from
// outside: the cluster's state (Ready, pod CIDR) and which tor host holds the node's gateway VIP.
// Works on a fresh lab and on a re-run (then: 0 changed).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseDotenv } from 'dotenv';
import YAML from 'yaml';
import { labUp } from './lab.js';
import { onboardVars } from './onboard-vars.js';
import { writeIfChanged } from './write.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const NODE = 'node009';

const lab = await labUp({ linux: 3, tor: 3, windows: 3, control: 1 });
const labDir = dirname(lab.inventoryPath);
console.log(`lab up: ${lab.hosts.length} hosts (${lab.hosts.map((h) => h.name).join(' ')})\ninventory: ${lab.inventoryPath}`);

// What onboard-windows needs beyond the lab's inventory: the node binaries and kubeconfig as local files
// (small stand-ins: the Windows node is a simulator), and the Windows group's vars that name them.
const demoDir = join(labDir, 'demo');
mkdirSync(demoDir, { recursive: true, mode: 0o700 });
const windowsVars = onboardVars(demoDir);
const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
Object.assign(inv.all.children.windows.vars, windowsVars);
const inventory = join(demoDir, 'inventory.yaml');
writeIfChanged(inventory, YAML.stringify(inv));

// Secrets come from the environment: the Windows password from the lab's windows.env, the VRRP password
// from the environment or, made once, from demo/vrrp.env.
const vrrpFile = join(demoDir, 'vrrp.env');
if (!existsSync(vrrpFile)) writeFileSync(vrrpFile, `VRRP_AUTH_PASS=${randomBytes(6).toString('base64url')}\n`, { mode: 0o600 });
const env: NodeJS.ProcessEnv = {
  ...parseDotenv(readFileSync(vrrpFile, 'utf8')),
  ...parseDotenv(readFileSync(join(labDir, 'windows.env'), 'utf8')),
  ...process.env,
  PLAY_INVENTORY: '',
};

function play(args: string[]): { code: number; report: any } {
  console.log(`\n$ play ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [resolve(root, 'bin/play.mjs'), ...args, '--report', join(demoDir, 'report.json')], {
    cwd: root, env, stdio: 'inherit',
  });
  let report: any = null;
  try { report = JSON.parse(readFileSync(join(demoDir, 'report.json'), 'utf8')); } catch { /* none */ }
  return { code: r.status ?? 1, report };
}

const run = play(['onboard-windows', '-i', inventory, '--limit', NODE, '--no-live']);
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
const changed = run.report ? Object.values<any>(run.report.hosts).flatMap((h) => h.steps).filter((s) => s.status === 'changed').length : undefined;

console.log(`
What happened (exit ${run.code}${changed !== undefined ? `, ${changed} step(s) changed${changed === 0 ? ': an earlier demo already onboarded it' : ''}` : ''}):
  ${NODE}, a simulated Windows Server 2019 node (lab/windows, a test double), got its time, hotfix and reboot,
  Docker and the pause image, kubelet and kube-proxy as services, joined the simulated cluster on control1, got the HNS
  L2Bridge network on its pod CIDR, and its pod gateway became a keepalived VIP on tor1-tor3.
  ${node ? `${NODE} is ${node.ready ? 'Ready' : 'NOT Ready'} with pod CIDR ${node.podCIDR}` : `${NODE} is not registered in the cluster`} (${join(labDir, 'cluster-state.json')})
  ${gateway ? `its gateway VIP ${gateway} is held by ${held.length ? held.join(', ') : 'no tor host yet'} (ip -n ${held[0] ?? 'tor1'} -4 addr show dev eth1)` : ''}
Try next:
  play onboard-windows -i ${inventory} --limit ${NODE} --check --diff      # the plan: nothing to change now
  play onboard-windows -i ${inventory} --limit node010                    # onboard a second node (its VIP joins the same keepalived.conf)
  play graph onboard-windows -i ${inventory} --limit ${NODE}              # the order: control, node, tor hosts
  (the secrets are in ${join(labDir, 'windows.env')} and ${vrrpFile}: set -a; . FILE; set +a)
  play lab down                                                           # remove everything the lab made`);
process.exit(run.code === 0 && node?.ready && held.length === 1 ? 0 : 1);
