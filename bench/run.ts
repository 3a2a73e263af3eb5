// `npm run bench`: brings up 20 lab hosts and measures, in one run and side by side, the floor
// (OpenSSH `ssh host true` to all hosts in parallel), Ansible (Debian's ansible-core, forks 20,
// pipelining) and play on the same five tasks: first apply, idempotent re-run, check run; the
// median of RUNS runs each, and the peak RSS of the largest process. It installs nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labUp } from '../lab/lab.js';

const HOSTS = Number(process.env.BENCH_HOSTS ?? 20);
const RUNS = Math.max(3, Number(process.env.BENCH_RUNS ?? 3));
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface Measure { ms: number; rssKb: number; code: number; out: string }

/** Runs a command; peak RSS of the largest process it started, from getrusage(RUSAGE_CHILDREN). */
function measure(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Measure> {
  const wrapper = 'import resource,subprocess,sys,time\n' +
    't=time.monotonic(); p=subprocess.run(sys.argv[1:], capture_output=True, text=True); ms=(time.monotonic()-t)*1000\n' +
    'sys.stdout.write(p.stdout+p.stderr); sys.stderr.write("%d %d %d" % (ms, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, p.returncode))';
  return new Promise((resolveP, reject) => {
    const child = spawn('python3', ['-c', wrapper, ...argv], { env: { ...process.env, ...env }, cwd: root });
    let out = '', err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => {
      const [ms, rss, code] = err.trim().split(/\s+/).slice(-3).map(Number);
      resolveP({ ms: ms!, rssKb: rss!, code: code!, out });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  for (const [bin, pkg] of [['ansible-playbook', 'ansible-core'], ['ssh', 'openssh-client'], ['python3', 'python3']] as const) {
    if (!['/usr/bin/', '/usr/local/bin/'].some((d) => existsSync(d + bin))) {
      console.error(`bench: ${bin} is missing: apt-get install ${pkg}${bin === 'ansible-playbook' ? ' ansible' : ''}`);
      process.exit(1);
    }
  }
  if (!existsSync('/usr/lib/python3/dist-packages/ansible_collections/ansible/posix')) {
    console.error('bench: the ansible.posix collection is missing (for ansible.posix.sysctl): apt-get install ansible');
    process.exit(1);
  }
  console.log(`bench: bringing up ${HOSTS} lab hosts…`);
  const lab = await labUp({ linux: HOSTS });
  const hosts = lab.hosts.filter((h) => h.group === 'linux').slice(0, HOSTS);
  const ssh = (addr: string, cmd: string) => ['ssh', '-i', lab.keyPath, '-o', `UserKnownHostsFile=${lab.knownHostsPath}`, '-o', 'StrictHostKeyChecking=yes', '-o', 'BatchMode=yes', `root@${addr}`, cmd];
  const parallel = (cmd: string) => Promise.all(hosts.map((h) => measure(ssh(h.address, cmd))));
  const reset = () => parallel('rm -rf /srv/play-bench /srv/ansible-bench /etc/sysctl.d/90-play-bench.conf /etc/sysctl.d/90-ansible-bench.conf; sysctl -qw net.ipv4.ip_forward=0');

  const results: Record<string, Record<string, Measure[]>> = { floor: { 'ssh true': [] }, ansible: {}, play: {} };
  // The floor: plain OpenSSH processes, started directly (no measuring wrapper in between).
  const sshTrue = (addr: string) => new Promise<number>((res) => {
    const [cmd, ...args] = ssh(addr, 'true');
    spawn(cmd!, args, { stdio: 'ignore' }).on('close', (code) => res(code ?? 255));
  });
  for (let i = 0; i < RUNS; i++) {
    const t = Date.now();
    const codes = await Promise.all(hosts.map((h) => sshTrue(h.address)));
    results.floor!['ssh true']!.push({ ms: Date.now() - t, rssKb: 0, code: Math.max(...codes), out: '' });
  }

  const ansibleEnv = { ANSIBLE_PIPELINING: 'True', ANSIBLE_FORKS: '20', ANSIBLE_LOCALHOST_WARNING: 'False', ANSIBLE_NOCOLOR: '1' };
  const ansible = (extra: string[]) => measure(['ansible-playbook', '-i', lab.inventoryPath, '-l', hosts.map((h) => h.name).join(','), 'bench/ansible/bench.yml', ...extra], ansibleEnv);
  const play = (extra: string[]) => measure(['node', 'bin/play.mjs', 'bench', '-i', lab.inventoryPath, '-l', hosts.map((h) => h.name).join(','), '-f', '20', '--no-live', ...extra]);
  for (const [name, tool, check] of [['ansible', ansible, ['--check']], ['play', play, ['--check']]] as const) {
    const r: Record<string, Measure[]> = { 'first apply': [], 'idempotent re-run': [], 'check run': [] };
    for (let i = 0; i < RUNS; i++) {
      await reset();
      r['first apply']!.push(await tool([]));
      r['idempotent re-run']!.push(await tool([]));
      r['check run']!.push(await tool([...check]));
    }
    results[name] = r;
    const bad = Object.values(r).flat().find((m) => m.code !== 0);
    if (bad) { console.error(`bench: ${name} failed:\n${bad.out.slice(-3000)}`); process.exit(1); }
  }

  const rssCell = (ms: Measure[]) => { const kb = Math.max(...ms.map((m) => m.rssKb)); return kb ? `${String(Math.round(kb / 1024)).padStart(5)} MB` : '       -'; };
  const row = (label: string, ms: Measure[]) => `| ${label.padEnd(28)} | ${(median(ms.map((m) => m.ms)) / 1000).toFixed(2).padStart(7)} s | ${rssCell(ms)} |`;
  console.log(`\n${HOSTS} hosts, median of ${RUNS} runs (peak RSS: the largest single process)\n`);
  console.log('| what                         |    time   | peak RSS |');
  console.log('|------------------------------|-----------|----------|');
  console.log(row('floor: ssh host true (x20)', results.floor!['ssh true']!));
  for (const phase of ['first apply', 'idempotent re-run', 'check run']) {
    console.log(row(`ansible: ${phase}`, results.ansible![phase]!));
    console.log(row(`play: ${phase}`, results.play![phase]!));
  }
  const m = (tool: string, phase: string) => median(results[tool]![phase]!.map((x) => x.ms));
  const floor = median(results.floor!['ssh true']!.map((x) => x.ms));
  console.log('\nratios:');
  for (const phase of ['first apply', 'idempotent re-run', 'check run']) {
    console.log(`  ${phase.padEnd(18)} ansible/play = ${(m('ansible', phase) / m('play', phase)).toFixed(1)}x   play/floor = ${(m('play', phase) / floor).toFixed(2)}x`);
  }
  const rss = Math.max(...Object.values(results.play!).flat().map((x) => x.rssKb)) / 1024;
  console.log(`  play peak RSS ${rss.toFixed(0)} MB (target < 150 MB)`);
  console.log('targets: idempotent re-run >= 10x faster than Ansible and <= 1.5x the floor; peak RSS < 150 MB');
}

await main();
