// `npm run bench:round-trips [-- --delay 25] [--runs 3] [--fleet 40]` (root; brings the lab up to
// the hosts it needs): how many network round trips one host costs each run kind, measured instead of
// counted. The lab's network has no latency, so the bench's wall times say nothing of a fleet across a
// WAN, where each round trip a host costs is the network's round-trip time again. Here linux1 is
// reached through a relay on 127.0.0.1 that holds every chunk for --delay ms in each direction
// (docs/performance.md, the model's n(k)); each kind runs once with no delay and once with it, and the
// time it added over 2 x delay is the round trips on one host's path. --fleet N: then a re-run of N
// hosts at 20 forks, each through its own relay, against the ssh2 floor over the same relays. Medians
// of --runs.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { labUp } from '../lab/lab.js';
import { DelayRelay } from './delay-relay.js';
import { measureDriftLoop } from './drift-loop.js';
import { labSsh } from './lab-ssh.js';
import { measure, median } from './measure.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    delay: { type: 'string', default: '25' },
    runs: { type: 'string', default: '3' },
    fleet: { type: 'string', default: '0' },
  },
});
const delayMs = Number(values.delay);
const runs = Number(values.runs);
const fleet = Number(values.fleet);
if (!(delayMs >= 5) || !Number.isInteger(runs) || runs < 1 || !Number.isInteger(fleet) || fleet < 0) {
  console.error(
    'bench:round-trips: --delay takes milliseconds (at least 5), --runs a whole number >= 1, --fleet a host count',
  );
  process.exit(64);
}

const lab = await labUp({ linux: Math.max(1, fleet) });
const hosts = lab.hosts.filter((h) => h.group === 'linux').slice(0, Math.max(1, fleet));
const host = hosts[0]!;
const relays = await Promise.all(hosts.map((h) => DelayRelay.start(h.address, 22)));
const setDelay = (ms: number) => {
  for (const r of relays) r.delayMs = ms;
};
const dir = mkdtempSync(join(tmpdir(), 'play-round-trips-'));
const knownHosts = join(dir, 'known_hosts');
const inventory = join(dir, 'inventory.yaml');
// Each relay's address in known_hosts, with its host's key: play still checks host keys end to end.
const knownLines = readFileSync(lab.knownHostsPath, 'utf8').split('\n');
const keysOf = (address: string) =>
  knownLines
    .filter((l) => l.split(/\s+/)[0]?.split(',').includes(address))
    .map((l) => l.split(/\s+/).slice(1).join(' '));
writeFileSync(
  knownHosts,
  hosts.flatMap((h, i) => keysOf(h.address).map((k) => `[127.0.0.1]:${relays[i]!.port} ${k}\n`)).join(''),
);
writeFileSync(
  inventory,
  [
    'linux:',
    '  vars:',
    '    ansible_user: root',
    `    ansible_ssh_private_key_file: ${lab.keyPath}`,
    `    ansible_ssh_common_args: -o UserKnownHostsFile=${knownHosts}`,
    '  hosts:',
    ...hosts.flatMap((h, i) => [
      `    ${h.name}:`,
      '      ansible_host: 127.0.0.1',
      `      ansible_port: ${relays[i]!.port}`,
    ]),
    '',
  ].join('\n'),
);

const play = ['node', 'bin/play.mjs', 'bench', '-i', inventory, '-l', host.name, '--no-live'];
const reset = () =>
  new Promise<void>((done) => {
    const [bin, ...args] = labSsh(
      lab,
      host.address,
      'rm -rf /srv/play-bench /etc/sysctl.d/90-play-bench.conf; sysctl -qw net.ipv4.ip_forward=0',
    );
    spawn(bin!, args, { stdio: 'ignore' }).on('close', () => done());
  });
/** One run's wall ms; fails the bench on a non-zero exit (2 is a check that found changes). */
async function wall(argv: string[], okCodes = [0]): Promise<number> {
  const m = await measure(root, argv);
  if (!okCodes.includes(m.code)) throw new Error(`${argv.join(' ')}: exit ${m.code}\n${m.out.slice(-2000)}`);
  return m.ms;
}
const kinds: [string, () => Promise<number>][] = [
  [
    'ssh2 floor: connect + true',
    () => wall(['node', 'bench/ssh2-floor.mjs', lab.keyPath, knownHosts, '1', `127.0.0.1:${relays[0]!.port}`]),
  ],
  ['play first apply', () => reset().then(() => wall(play))],
  ['play idempotent re-run', () => wall(play)],
  ['play check run', () => wall([...play, '--check'], [0, 2])],
  [
    'play kept-connection check (a later tick)',
    async () =>
      median((await measureDriftLoop(root, ['bench', '-i', inventory, '-l', host.name], 4, true)).ticks.slice(1)),
  ],
];

/** --fleet: a re-run of that many hosts at 20 forks and the ssh2 floor over them, with the delay:
 *  what a fleet's latency costs when the hosts' own work is small. */
async function fleetRun(): Promise<void> {
  setDelay(delayMs);
  const addresses = relays.map((r) => `127.0.0.1:${r.port}`);
  const all = ['node', 'bin/play.mjs', 'bench', '-i', inventory, '-f', '20', '--no-live'];
  await wall(all); // converge first: the re-runs below change nothing
  const floor: number[] = [];
  const rerun: number[] = [];
  for (let i = 0; i < runs; i++) {
    floor.push(await wall(['node', 'bench/ssh2-floor.mjs', lab.keyPath, knownHosts, '20', ...addresses]));
    rerun.push(await wall(all));
  }
  console.log(`\n${fleet} hosts, 20 at once, each chunk held ${delayMs} ms each way (median of ${runs}):`);
  console.log(`ssh2 floor ${median(floor)} ms; play idempotent re-run ${median(rerun)} ms`);
}

try {
  console.log(
    `round trips of one host, through a relay holding each chunk ${delayMs} ms each way (median of ${runs}):`,
  );
  console.log('| run kind | no delay | delayed | added | round trips |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [kind, run] of kinds) {
    const at: Record<number, number> = {};
    for (const d of [0, delayMs]) {
      setDelay(d);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await run());
      at[d] = median(times);
    }
    const added = at[delayMs]! - at[0]!;
    const trips = added / (2 * delayMs);
    console.log(`| ${kind} | ${at[0]} ms | ${at[delayMs]} ms | ${added} ms | ${trips.toFixed(1)} |`);
  }
  if (fleet > 0) await fleetRun();
} catch (e) {
  console.error(`bench:round-trips: ${(e as Error).message}`);
  process.exitCode = 1;
} finally {
  await Promise.all(relays.map((r) => r.close()));
  rmSync(dir, { recursive: true, force: true });
}
