// `npm run bench:windows`: what real PowerShell costs the simulated Windows node. Measures the
// PowerShell host's start, then the round trip of one probe (Get-PlayTimeZone) and of one program
// with every read-only function of the contract, in process (lab/windows/powershell/call.ts) and
// over SSH through play's transport to a simulated node on 127.0.0.1; median and p90 of --runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SimulatedWindowsNode } from '../lab/windows/model.js';
import { callNode } from '../lab/windows/powershell/call.js';
import { PowerShellHost, sharedPowerShellHost } from '../lab/windows/powershell/host.js';
import { startSimulatedWindowsNode } from '../lab/windows/start.js';
import { psCall } from '../runner/core/ps-call.js';
import { Secret } from '../runner/core/secret.js';
import { EnvRef, type Host } from '../runner/inventory/model.js';
import { HostSession } from '../runner/run/host-session.js';
import { ConnectionPool } from '../runner/transport/pool.js';
import { PLAY_FUNCTIONS } from '../tasks/windows/remote/functions.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(values.runs);

function stats(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms`;
}

async function time(n: number, f: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await f(); // warm the JIT
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return out;
}

const PASSWORD = 'bench-only';
const one = [psCall(PLAY_FUNCTIONS['Get-PlayTimeZone'], {})];
const probes = [
  psCall(PLAY_FUNCTIONS['Get-PlayOsInfo'], {}),
  psCall(PLAY_FUNCTIONS['Get-PlayHotfix'], { kb: 'KB4534273' }),
  psCall(PLAY_FUNCTIONS['Get-PlayService'], { name: 'W32Time' }),
  psCall(PLAY_FUNCTIONS['Get-PlayRegistryValue'], {
    path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion',
    name: 'UBR',
  }),
  psCall(PLAY_FUNCTIONS['Get-PlayWindowsFeature'], { name: 'Containers' }),
  psCall(PLAY_FUNCTIONS['Get-PlayFirewallRule'], { name: 'WINRM-HTTP-In-TCP' }),
  psCall(PLAY_FUNCTIONS['Get-PlayNtp'], {}),
  psCall(PLAY_FUNCTIONS['Get-PlayTimeZone'], {}),
  psCall(PLAY_FUNCTIONS['Get-PlayHnsNetwork'], { name: 'cbr0' }),
  psCall(PLAY_FUNCTIONS['Get-PlayDnsClient'], {}),
];

const started = performance.now();
const cold = await PowerShellHost.start();
const coldMs = performance.now() - started;
await cold.close();

const node = SimulatedWindowsNode.open({ name: 'node009' });
await sharedPowerShellHost();
const inOne = await time(runs, () => callNode(node, one));
const inBatch = await time(Math.ceil(runs / 4), () => callNode(node, probes));

const dir = mkdtempSync(join(tmpdir(), 'play-bench-win-'));
const sim = await startSimulatedWindowsNode({
  name: 'node009',
  stateFile: join(dir, 'state.json'),
  hostKeyFile: join(dir, 'host_key'),
  listen: { host: '127.0.0.1', port: 0 },
  password: PASSWORD,
});
const pool = new ConnectionPool({
  knownHostsFile: join(dir, 'known_hosts'),
  acceptNew: true,
  agentSocket: null,
  defaultKeyFiles: [],
});
const host: Host = {
  name: 'node009',
  vars: {},
  groups: ['all', 'windows'],
  connection: { address: '127.0.0.1', port: sim.port, user: 'Administrator', os: 'windows', password: new EnvRef('X') },
};
const session = new HostSession(host, (h) => pool.get(h, { password: new Secret(PASSWORD, 'env:X') }));
const sshOne = await time(runs, () => session.callPowerShell(one));
const sshBatch = await time(Math.ceil(runs / 4), () => session.callPowerShell(probes));
await pool.closeAll();
await sim.close();
node.close();
rmSync(dir, { recursive: true, force: true });

const rows = [
  ['PowerShell host start to ready (every mock module loaded)', `${coldMs.toFixed(0)} ms`],
  ['one probe, in process', stats(inOne)],
  [`${probes.length} probes in one program, in process`, stats(inBatch)],
  ['one probe over SSH (open connection)', stats(sshOne)],
  [`${probes.length} probes in one program over SSH`, stats(sshBatch)],
];
process.stdout.write(
  `PowerShell ${(await sharedPowerShellHost()).version}, ${runs} runs\n\n| what | time |\n|---|---|\n`,
);
for (const [what, t] of rows) process.stdout.write(`| ${what} | ${t} |\n`);
process.exit(0);
