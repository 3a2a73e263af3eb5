// Runs one simulated Windows node (a TEST DOUBLE) as its own process, e.g. inside a lab network
// namespace:
//   node --import tsx lab/windows/main.ts --name win1 --state DIR/state.json --host-key DIR/host_key \
//     --listen 198.18.0.21:22 --authorized-key ~/.ssh/id_ed25519.pub [--reboot-seconds 3] \
//     [--faults-file DIR/faults.json] [--pidfile DIR/sim.pid] [--cluster-state LAB/cluster-state.json]
// The password comes from the environment (PLAY_LAB_WINDOWS_PASSWORD, or --password-env NAME), never
// from the command line. Faults are read from --faults-file at start and again on SIGHUP.
// It listens only on loopback or lab addresses (198.18.0.0/15). With --cluster-state its kubelet service
// registers the node in the simulated cluster (cluster-registration.ts) once that file exists.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { inLabRange } from '../hosts/topology.js';
import type { WindowsNodeFaults } from './faults.js';
import { startSimulatedWindowsNode } from './start.js';

function fail(message: string): never {
  process.stderr.write(`simulated Windows node: ${message}\n`);
  process.exit(64);
}

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    state: { type: 'string' },
    'host-key': { type: 'string' },
    listen: { type: 'string', default: '127.0.0.1:0' },
    'authorized-key': { type: 'string' },
    'password-env': { type: 'string', default: 'PLAY_LAB_WINDOWS_PASSWORD' },
    user: { type: 'string', default: 'Administrator' },
    'reboot-seconds': { type: 'string', default: '3' },
    'faults-file': { type: 'string' },
    pidfile: { type: 'string' },
    'cluster-state': { type: 'string' },
  },
});

const name = values.name ?? fail('--name is required');
const stateFile = values.state ?? fail('--state is required');
const hostKeyFile = values['host-key'] ?? fail('--host-key is required');
const listen = /^(\d+\.\d+\.\d+\.\d+):(\d+)$/.exec(values.listen);
if (!listen) fail(`--listen ${values.listen}: expected ADDRESS:PORT`);
const host = listen[1]!;
if (!host.startsWith('127.') && !inLabRange(host))
  fail(`--listen ${host}: only loopback and lab addresses (198.18.0.0/15) are allowed`);
const rebootSeconds = Number(values['reboot-seconds']);
if (!Number.isFinite(rebootSeconds) || rebootSeconds < 0)
  fail(`--reboot-seconds ${values['reboot-seconds']}: not a number of seconds`);
const password = process.env[values['password-env']] || undefined;
const authorizedKey = values['authorized-key']
  ? readFileSync(values['authorized-key'], 'utf8').trim().split('\n')[0]
  : undefined;

function readFaults(): Partial<WindowsNodeFaults> {
  const file = values['faults-file'];
  if (!file) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowsNodeFaults>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
const running = await startSimulatedWindowsNode({
  name,
  stateFile,
  hostKeyFile,
  listen: { host, port: Number(listen[2]) },
  password,
  authorizedKey,
  user: values.user,
  rebootSeconds,
  faults: readFaults(),
  log,
  clusterState: values['cluster-state'],
}).catch((e: Error) => fail(e.message));

if (values.pidfile) writeFileSync(values.pidfile, `${process.pid}\n`);
log(`${name}: simulated Windows node up on ${running.host}:${running.port} (host key ${running.hostKey})`);

process.on('SIGHUP', () => {
  try {
    running.setFault({
      latencyMs: 0,
      dropConnectionOnCommand: null,
      hangFunction: null,
      authFailure: false,
      badKb: null,
      ...readFaults(),
    });
    log(`${name}: faults now ${JSON.stringify(running.server.faults)}`);
  } catch (e) {
    log(`${name}: faults not changed: ${(e as Error).message}`);
  }
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void running.close().finally(() => {
      if (values.pidfile) rmSync(values.pidfile, { force: true });
      process.exit(0);
    });
  });
}
