// `npx tsx bench/lab-cost.ts [--hosts 100,2000]` (root): what one lab host costs, in a lab of the
// bench's own (private-lab.ts: the shared lab and its hosts are never touched). Brings the private lab
// up to each size in turn and prints, per host, the time to bring it up, the machine's memory
// (MemAvailable and the kernel's slab from /proc/meminfo: what `free -m` shows), its sshd (RSS and PSS
// from /proc/PID/smaps_rollup: what `ps -o rss` shows, and its share of the pages it shares), file
// descriptors and mounts; proves every host reachable across the segment bridges; then tears it down.
// Before a larger size, the cost per host so far must fit in the memory left (less a reserve for others).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { labDown, labUp } from '../lab/lab.js';
import type { LabState } from '../lab/lab.js';
import { run } from '../lab/exec.js';
import { reachableFrom } from '../lab/hosts/private-net.js';
import { labSsh } from './lab-ssh.js';
import { inPrivateLab, mountPrivateLab, runInPrivateLab } from './private-lab.js';
import { type LabStage, labStageRow, LAB_STAGE_HEADER, memoryFits } from './lab-cost-table.js';

/** Memory left to everyone else on the machine while the largest size is up. */
const RESERVE_MB = 4096;

function sizes(): number[] {
  const { values } = parseArgs({ options: { hosts: { type: 'string', default: '100,2000' } } });
  const hosts = values.hosts.split(',').map(Number);
  if (hosts.some((n) => !Number.isInteger(n) || n < 1 || n > 4000)) {
    console.error('lab-cost: --hosts takes increasing host counts like 100,2000 (1..4000)');
    process.exit(64);
  }
  return [...new Set(hosts)].sort((a, b) => a - b);
}

function meminfoKb(): Record<string, number> {
  return Object.fromEntries(
    readFileSync('/proc/meminfo', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const [k, v] = l.split(/:\s+/);
        return [k!, Number.parseInt(v!, 10)];
      }),
  );
}

/** RSS and PSS (KB) of one process, its open file descriptors and the mounts it sees. */
function processCost(pid: number): { rssKb: number; pssKb: number; fds: number; mounts: number } {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
  return {
    rssKb: field('Rss'),
    pssKb: field('Pss'),
    fds: readdirSync(`/proc/${pid}/fd`).length,
    mounts: readFileSync(`/proc/${pid}/mountinfo`, 'utf8').split('\n').filter(Boolean).length,
  };
}

async function measureStage(
  hosts: number,
  added: number,
  before: Record<string, number>,
): Promise<{ stage: LabStage; lab: LabState }> {
  const t = Date.now();
  const lab = await labUp({ linux: hosts });
  const upMs = Date.now() - t;
  const after = meminfoKb();
  const sshds = lab.hosts.map((h) => processCost(h.sshdPid));
  const sum = (k: keyof (typeof sshds)[number]) => sshds.reduce((a, c) => a + c[k], 0);
  return {
    lab,
    stage: {
      hosts,
      added,
      upMs,
      memUsedKb: before.MemAvailable! - after.MemAvailable!,
      slabKb: after.Slab! - before.Slab!,
      sshdRssKb: sum('rssKb'),
      sshdPssKb: sum('pssKb'),
      fds: sum('fds'),
      mounts: sum('mounts'),
      memAvailableKb: after.MemAvailable!,
    },
  };
}

const tcpFromRoot = async (address: string) =>
  (
    await run('timeout', ['5', 'bash', '-c', 'exec 3<>"/dev/tcp/$0/$1"', address, '22'], {
      allowFail: true,
      timeoutMs: 8000,
    })
  ).code === 0;

/** Every host's sshd answers from the root namespace, and hosts on different bridges reach one another. */
async function reachability(lab: LabState): Promise<string[]> {
  const linux = lab.hosts.filter((h) => h.group === 'linux');
  const byIndex = (i: number) => linux[Math.min(i, linux.length) - 1]!;
  const fromRoot = await Promise.all(linux.map((h) => tcpFromRoot(h.address)));
  const unreachable = linux.filter((_, i) => !fromRoot[i]).map((h) => h.name);
  const pairs = [
    [byIndex(1), byIndex(linux.length)],
    [byIndex(linux.length), byIndex(1)],
    [byIndex(601), byIndex(1601)],
  ] as const;
  const across = await Promise.all(
    pairs
      .filter(([a, b]) => a !== b)
      .map(
        async ([a, b]) =>
          `${a.name} -> ${b.name}: ${(await reachableFrom(a.namespace, b.address, 22, 5000)) ? 'ok' : 'FAILED'}`,
      ),
  );
  const [bin, ...args] = labSsh(lab, byIndex(linux.length).address, 'hostname');
  const ssh = await run(bin!, args, { allowFail: true });
  return [
    `sshd port 22 from the root namespace: ${linux.length - unreachable.length} of ${linux.length} hosts${unreachable.length ? ` (not: ${unreachable.slice(0, 10).join(', ')})` : ''}`,
    ...across,
    `ssh root@${byIndex(linux.length).address} hostname: ${ssh.stdout.trim() || `exit ${ssh.code} ${ssh.stderr.trim()}`}`,
  ];
}

async function inside(): Promise<number> {
  mountPrivateLab();
  const before = meminfoKb();
  console.log(
    `lab-cost: MemAvailable ${Math.round(before.MemAvailable! / 1024)} MB before; lab dir ${process.env.PLAY_LAB_DIR}`,
  );
  const stages: LabStage[] = [];
  let lab: LabState | undefined;
  let failed = false;
  try {
    for (const hosts of sizes()) {
      const last = stages.at(-1);
      if (last && !memoryFits(last, hosts, RESERVE_MB)) {
        console.log(
          `lab-cost: stopped before ${hosts} hosts: at ${last.hosts} hosts' cost it would leave under ${RESERVE_MB} MB to the rest of the machine`,
        );
        failed = true;
        break;
      }
      console.log(`lab-cost: bringing the private lab up to ${hosts} hosts…`);
      const measured = await measureStage(hosts, hosts - (last?.hosts ?? 0), before);
      stages.push(measured.stage);
      lab = measured.lab;
      console.log(`| ${LAB_STAGE_HEADER.join(' | ')} |\n|${LAB_STAGE_HEADER.map(() => '---:').join('|')}|`);
      for (const s of stages) console.log(`| ${labStageRow(s).join(' | ')} |`);
    }
    if (lab) {
      const lines = await reachability(lab);
      for (const l of lines) console.log(`lab-cost: ${l}`);
      failed ||= lines.some((l) => /FAILED|exit \d|not:/.test(l));
    }
  } finally {
    const t = Date.now();
    await labDown();
    console.log(
      `lab-cost: down in ${((Date.now() - t) / 1000).toFixed(1)} s; MemAvailable ${Math.round(meminfoKb().MemAvailable! / 1024)} MB after`,
    );
  }
  return failed ? 1 : 0;
}

if (inPrivateLab()) process.exit(await inside());
else
  process.exit(
    await runInPrivateLab(
      fileURLToPath(import.meta.url),
      process.argv.slice(2),
      `/var/lib/play-bench-lab-${process.pid}`,
    ),
  );
