// `npm run bench [-- --sizes 20,150,1000] [--runs 3]`: for each size, brings up that many lab hosts and
// measures side by side three floors (OpenSSH `ssh host true` to every host, FLOOR_PARALLEL at a
// time, so it stays a floor on two cores; one ssh2 connection and one `true` per host from one node
// process, FORKS at a time: the least a one-process controller such as play does,
// bench/ssh2-floor.mjs; and the same running the probe a play re-run sent each host,
// bench/probe-floor.ts), Ansible (Debian's ansible-core, forks 20, pipelining; up to --ansible-max
// hosts, 150 by default: it takes minutes beyond) and play on the same five tasks: first apply,
// idempotent re-run, check run (and play drift, play's check with its history store); the median of
// the runs each, and the peak RSS of the largest process. Prints the full table for each size, then
// one scale table. It installs nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { labUp } from '../lab/lab.js';
import { mapLimit } from '../lab/exec.js';
import { measure, median } from './measure.js';
import type { Measure } from './measure.js';
import { measureDriftLoop } from './drift-loop.js';
import { measureProbeFloor } from './probe-floor.js';
import { labSsh } from './lab-ssh.js';
import { printCostTable, printDriftLoopTable, printScaleTable, printSizeTable } from './tables.js';
import type { SizeResult } from './tables.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** ssh processes at once for the floor and for resetting the hosts: what two cores can run without
 *  the floor measuring the scheduler instead of OpenSSH. */
const FLOOR_PARALLEL = 20;
const FORKS = 20;
const PHASES = ['first apply', 'idempotent re-run', 'check run'] as const;

interface Options {
  sizes: number[];
  runs: number;
  ansibleMax: number;
  /** Ticks of the scheduled drift measurement (0: not measured). */
  loopTicks: number;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: process.env.BENCH_HOSTS ?? '20,150,1000' },
      runs: { type: 'string', default: process.env.BENCH_RUNS ?? '3' },
      'ansible-max': { type: 'string', default: '150' },
      'loop-ticks': { type: 'string', default: '5' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const runs = Number(values.runs);
  if (sizes.some((n) => !Number.isInteger(n) || n < 1) || !Number.isInteger(runs) || runs < 1) {
    console.error('bench: --sizes takes host counts like 20,150,1000 and --runs a whole number >= 1');
    process.exit(64);
  }
  const loopTicks = Number(values['loop-ticks']);
  if (!Number.isInteger(loopTicks) || loopTicks === 1 || loopTicks < 0) {
    console.error('bench: --loop-ticks takes a whole number of at least 2 (tick 1 against the rest), or 0');
    process.exit(64);
  }
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    runs,
    ansibleMax: Number(values['ansible-max']),
    loopTicks,
  };
}

/** The tools the bench runs; Ansible only when a size is at most --ansible-max (`--ansible-max 0`: play alone). */
function preflight(opts: Options): void {
  const ansible = opts.sizes.some((n) => n <= opts.ansibleMax);
  for (const [bin, pkg] of [
    ...(ansible ? [['ansible-playbook', 'ansible-core'] as const] : []),
    ['ssh', 'openssh-client'],
    ['python3', 'python3'],
  ] as const) {
    if (!['/usr/bin/', '/usr/local/bin/'].some((d) => existsSync(d + bin))) {
      console.error(`bench: ${bin} is missing: apt-get install ${pkg}${bin === 'ansible-playbook' ? ' ansible' : ''}`);
      process.exit(1);
    }
  }
  if (ansible && !existsSync('/usr/lib/python3/dist-packages/ansible_collections/ansible/posix')) {
    console.error('bench: the ansible.posix collection is missing (for ansible.posix.sysctl): apt-get install ansible');
    process.exit(1);
  }
}

// Long because it is one measurement in order (lab, runs, timings, memory): split, its numbers would travel.
async function benchSize(size: number, opts: Options): Promise<SizeResult> {
  console.log(`bench: ${size} hosts: bringing up the lab…`);
  const lab = await labUp({ linux: size });
  const hosts = lab.hosts.filter((h) => h.group === 'linux').slice(0, size);
  const ssh = (addr: string, cmd: string) => labSsh(lab, addr, cmd);
  // Plain OpenSSH processes, started directly (no measuring wrapper in between).
  const sshRun = (addr: string, cmd: string) =>
    new Promise<number>((res) => {
      const [bin, ...args] = ssh(addr, cmd);
      spawn(bin!, args, { stdio: 'ignore' }).on('close', (code) => res(code ?? 255));
    });
  const everyHost = (cmd: string) => mapLimit(hosts, FLOOR_PARALLEL, (h) => sshRun(h.address, cmd));
  const reset = () =>
    everyHost(
      'rm -rf /srv/play-bench /srv/ansible-bench /etc/sysctl.d/90-play-bench.conf /etc/sysctl.d/90-ansible-bench.conf; sysctl -qw net.ipv4.ip_forward=0',
    );

  const floor: Measure[] = [];
  for (let i = 0; i < opts.runs; i++) {
    const t = Date.now();
    const codes = await everyHost('true');
    floor.push({ ms: Date.now() - t, rssKb: 0, cpuMs: 0, code: Math.max(...codes), out: '' });
  }
  const ssh2Floor: Measure[] = [];
  const addresses = hosts.map((h) => h.address);
  for (let i = 0; i < opts.runs; i++) {
    const m = await measure(root, [
      'node',
      'bench/ssh2-floor.mjs',
      lab.keyPath,
      lab.knownHostsPath,
      String(FORKS),
      ...addresses,
    ]);
    if (m.code !== 0) {
      console.error(`bench: the ssh2 floor failed at ${size} hosts:\n${m.out.slice(-3000)}`);
      process.exit(1);
    }
    ssh2Floor.push(m);
  }
  const limit = hosts.map((h) => h.name).join(',');
  const ansibleEnv = {
    ANSIBLE_PIPELINING: 'True',
    ANSIBLE_FORKS: String(FORKS),
    ANSIBLE_LOCALHOST_WARNING: 'False',
    ANSIBLE_NOCOLOR: '1',
  };
  /** The bench playbook on the size's hosts, as `play` and `play drift` take it. */
  const playArgs = ['bench', '-i', lab.inventoryPath, '-l', limit, '-f', String(FORKS)];
  const tools = {
    ansible: (extra: string[]) =>
      measure(
        root,
        ['ansible-playbook', '-i', lab.inventoryPath, '-l', limit, 'bench/ansible/bench.yml', ...extra],
        ansibleEnv,
      ),
    play: (extra: string[]) => measure(root, ['node', 'bin/play.mjs', ...playArgs, '--no-live', ...extra]),
  };
  const result: SizeResult = { size, floor, ssh2Floor, tools: {} };
  // Its own store per size, so each drift run compares with the previous one of the same hosts.
  const driftState = resolve(tmpdir(), `play-bench-drift-${process.pid}-${size}.db`);
  for (const name of ['ansible', 'play'] as const) {
    if (name === 'ansible' && size > opts.ansibleMax) continue;
    console.log(`bench: ${size} hosts: ${name}…`);
    const r: Record<string, Measure[]> = Object.fromEntries(PHASES.map((p) => [p, []]));
    for (let i = 0; i < opts.runs; i++) {
      await reset();
      r['first apply']!.push(await tools[name]([]));
      r['idempotent re-run']!.push(await tools[name]([]));
      r['check run']!.push(await tools[name](['--check']));
      if (name === 'play') {
        (r['drift run'] ??= []).push(
          await measure(root, ['node', 'bin/play.mjs', 'drift', ...playArgs, '--state', driftState]),
        );
      }
    }
    const bad = Object.values(r)
      .flat()
      .find((m) => m.code !== 0);
    if (bad) {
      console.error(`bench: ${name} failed at ${size} hosts:\n${bad.out.slice(-3000)}`);
      process.exit(1);
    }
    result.tools[name] = r;
  }
  console.log(`bench: ${size} hosts: the ssh2 floor running play's probes…`);
  result.probeFloor = await measureProbeFloor(root, lab, addresses, playArgs, FORKS, opts.runs).catch((e) => {
    console.error(`bench: ${size} hosts: ${(e as Error).message}`);
    process.exit(1);
  });
  if (opts.loopTicks > 0) {
    console.log(`bench: ${size} hosts: play drift --every, ${opts.loopTicks} ticks, connections kept and not…`);
    result.driftLoop = {
      kept: await measureDriftLoop(root, playArgs, opts.loopTicks, true),
      fresh: await measureDriftLoop(root, playArgs, opts.loopTicks, false),
    };
  }
  return result;
}

async function main() {
  const opts = options();
  preflight(opts);
  const results: SizeResult[] = [];
  for (const size of opts.sizes) {
    const r = await benchSize(size, opts);
    printSizeTable(r, opts.runs, FLOOR_PARALLEL, FORKS);
    results.push(r);
  }
  if (results.length > 1) printScaleTable(results, opts.runs, FLOOR_PARALLEL);
  printCostTable(results, FORKS);
  printDriftLoopTable(results);
  const rss =
    Math.max(
      ...results.flatMap((r) =>
        Object.values(r.tools.play ?? {})
          .flat()
          .map((x) => x.rssKb),
      ),
    ) / 1024;
  const largest = results.at(-1)!;
  const rerun = median(largest.tools.play!['idempotent re-run']!.map((x) => x.ms)) / 1000;
  console.log(`\nplay peak RSS ${rss.toFixed(0)} MB; idempotent re-run at ${largest.size} hosts ${rerun.toFixed(2)} s`);
  console.log(
    'targets: idempotent re-run >= 10x faster than Ansible and <= 1.5x the floor at 20 hosts, >= 10x Ansible at 150;',
  );
  console.log('         re-run and check <= 1.15x the ssh2 floor at 150 and 1000 hosts;');
  console.log('         at 1000 hosts re-run < 40 s and peak RSS < 300 MB (< 150 MB at 20)');
}

await main();
