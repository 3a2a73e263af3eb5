// `npm run bench:inventory [-- --sizes 16000,32000,112000]`: loading a generated inventory of each
// size (a YAML file of ~450 bytes a host: two role groups holding the hosts with a few vars each,
// regions and a canary group naming them again, group_vars/ and host_vars/ beside it), each in its
// own process so that its peak RSS is its own. Prints the file size, the time of loadInventory alone
// (wall and CPU: the CPU time holds on a busy machine) and the child's peak RSS.
// `--keep DIR` keeps the inventories (DIR/16000/inventory.yaml ...), e.g. for `node --cpu-prof`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '16000,32000,112000' },
    child: { type: 'string' },
    /** Write the inventories here, one directory per size, and keep them (to profile a load). */
    keep: { type: 'string' },
  },
});

const REGIONS = 14;

interface ChildResult {
  hosts: number;
  ms: number;
  /** CPU time of the load (user and system): what other processes on the machine do not change. */
  cpuMs: number;
  rssMb: number;
}

const id = (n: number) => String(n).padStart(6, '0');

/** One host's entry under its role group: the connection vars and a few of the vars a fleet carries. */
function hostEntry(n: number, count: number): string {
  const region = `region${String(Math.floor((n * REGIONS) / count)).padStart(2, '0')}`;
  const rack = `rack${String(Math.floor(n / 500)).padStart(4, '0')}`;
  return (
    `        node${id(n)}:\n` +
    `          ansible_host: 10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}\n` +
    `          failure_domain: ${region}-${rack}\n` +
    `          labels: [${rack}, ${region}, tier${n % 3}]\n` +
    `          kubelet_args: "--max-pods=110 --node-labels=rack=${rack},region=${region},tier=${n % 3}"\n` +
    `          description: "worker ${id(n)} in ${rack} of ${region}, managed by play: see the runbook"\n` +
    `          location: "hall ${n % 4}, row ${n % 40}, ${rack}, unit ${n % 42}, power feeds A and B"\n` +
    `          os_revision: ${1000 + (n % 300)}\n`
  );
}

/**
 * The inventory text of `count` hosts: the hosts with their vars in two large role groups (one
 * mapping of most hosts: the shape of a fleet's `ansible-inventory --list` export), then regions
 * (children of `regions`) and a canary group naming them again.
 */
function inventoryText(count: number): string {
  const parts = ['all:\n  vars:\n    ansible_user: ops\n    ntp_server: 10.0.0.1\n  children:\n'];
  for (const [role, isRole] of [
    ['workers', (n: number) => n % 10 !== 0],
    ['ingress', (n: number) => n % 10 === 0],
  ] as const) {
    parts.push(`    ${role}:\n      vars: { role: ${role} }\n      hosts:\n`);
    for (let n = 0; n < count; n++) if (isRole(n)) parts.push(hostEntry(n, count));
  }
  parts.push('    regions:\n      children:\n');
  for (let r = 0; r < REGIONS; r++) {
    const region = `region${String(r).padStart(2, '0')}`;
    parts.push(`        ${region}:\n          vars: { region: ${region} }\n          hosts:\n`);
    for (let n = Math.ceil((r * count) / REGIONS); n < Math.ceil(((r + 1) * count) / REGIONS); n++)
      parts.push(`            node${id(n)}:\n`);
  }
  parts.push('    canary:\n      hosts:\n');
  for (let n = 0; n < count; n += 100) parts.push(`        node${id(n)}:\n`);
  return parts.join('');
}

function writeInventory(dir: string, count: number): string {
  const file = join(dir, 'inventory.yaml');
  writeFileSync(file, inventoryText(count));
  mkdirSync(join(dir, 'group_vars'));
  writeFileSync(join(dir, 'group_vars', 'all.yml'), 'dns_servers: [10.0.0.2, 10.0.0.3]\n');
  writeFileSync(join(dir, 'group_vars', 'canary.yml'), 'canary: true\n');
  mkdirSync(join(dir, 'host_vars'));
  writeFileSync(join(dir, 'host_vars', 'node000000.yml'), 'first: true\n');
  return file;
}

/** In the child: load once, report the time and this process's peak RSS. */
async function runChild(file: string): Promise<void> {
  const { loadInventory } = await import('../runner/inventory/load.js');
  const start = performance.now();
  const cpu = process.cpuUsage();
  const inventory = loadInventory(file);
  const ms = performance.now() - start;
  const { user, system } = process.cpuUsage(cpu);
  const result: ChildResult = {
    hosts: inventory.hosts.length,
    ms,
    cpuMs: (user + system) / 1000,
    rssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(result));
}

function runParent(sizes: number[]): void {
  const self = fileURLToPath(import.meta.url);
  const rows = ['| hosts | file | load | load (CPU) | peak RSS |', '|---:|---:|---:|---:|---:|'];
  for (const size of sizes) {
    const dir = values.keep ? join(values.keep, String(size)) : mkdtempSync(join(tmpdir(), 'play-bench-inventory-'));
    if (values.keep) mkdirSync(dir, { recursive: true });
    try {
      const file = writeInventory(dir, size);
      const mb = statSync(file).size / 1024 / 1024;
      const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--child', file], {
        encoding: 'utf8',
        maxBuffer: 1024 * 1024,
      });
      const r = JSON.parse(out) as ChildResult;
      if (r.hosts !== size) throw new Error(`loaded ${r.hosts} hosts of ${size}`);
      const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      rows.push(
        `| ${size} | ${mb.toFixed(1)} MiB | ${seconds(r.ms)} | ${seconds(r.cpuMs)} | ${r.rssMb.toFixed(0)} MB |`,
      );
      process.stderr.write(`${rows.at(-1)}\n`);
    } finally {
      if (!values.keep) rmSync(dir, { recursive: true, force: true });
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

if (values.child) await runChild(values.child);
else runParent(values.sizes.split(',').map(Number));
