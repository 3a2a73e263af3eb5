// The lab's simulated Windows nodes (lab/windows/, a TEST DOUBLE of a Windows Server 2019 node): one
// process per node inside the node's network namespace, listening on its address, port 22. Like the
// sshds: started detached (`setsid -f`) with a pidfile, and "running" means the pidfile's pid is alive,
// is node running lab/windows/main.ts with this node's state file, and lives in the node's namespace.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IP, SETSID } from './exec.js';
import type { WindowsNodePaths } from './paths.js';
import { logTail, namespacePath, netnsId, pidsInNamespace, readPid, terminate, waitExited } from './hosts/sshd.js';
import type { HostPlan } from './hosts/topology.js';
import { WINDOWS_PASSWORD_ENV } from './secrets.js';
import { loadOrCreateHostKey } from './windows/host-key.js';

/** The project root: `--import tsx` resolves from the cwd's node_modules. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SIMULATOR_MAIN = join(PROJECT_ROOT, 'lab', 'windows', 'main.ts');
/** Node (with tsx) takes about a second to start on a busy machine; be generous. */
const START_TIMEOUT_MS = 30_000;

/** The node's folder and its persistent host key (made once, the simulator's own way); returns
 *  `ssh-ed25519 AAAA...` for known_hosts. */
export function ensureWindowsNodeFiles(paths: WindowsNodePaths): string {
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  return loadOrCreateHostKey(paths.hostKey).public;
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

function isNode(pid: number): boolean {
  try {
    return /^node/.test(basename(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '')));
  } catch {
    return false;
  }
}

function isSimulator(pid: number): boolean {
  return cmdline(pid).includes(SIMULATOR_MAIN);
}

/** pid is alive, is node running this node's simulator (its state file), and is in namespace `ns`. */
export function simulatorHealthy(pid: number, ns: string, paths: WindowsNodePaths): boolean {
  const want = netnsId(namespacePath(ns));
  if (want === undefined || !isNode(pid)) return false;
  const args = cmdline(pid);
  const state = args.indexOf('--state');
  // Started with the lab's cluster state (older simulators, started without it, are restarted by up).
  const cluster = args.indexOf('--cluster-state');
  return (
    args.includes(SIMULATOR_MAIN) &&
    state >= 0 &&
    args[state + 1] === paths.state &&
    cluster >= 0 &&
    args[cluster + 1] === paths.clusterState &&
    netnsId(`/proc/${pid}/ns/net`) === want
  );
}

/** The pidfile's simulator when it is healthy. */
export function runningSimulator(paths: WindowsNodePaths, ns: string): number | undefined {
  const pid = readPid(paths.pidFile);
  return pid !== undefined && simulatorHealthy(pid, ns, paths) ? pid : undefined;
}

/** Stops the node's simulator, the pidfile's and any other simulator in its namespace (pidfile lost,
 *  namespace re-made): a new one could not bind the address. */
export async function stopSimulator(host: HostPlan, paths: WindowsNodePaths): Promise<void> {
  const stale = new Set(pidsInNamespace(host.namespace).filter((pid) => isNode(pid) && isSimulator(pid)));
  const pid = readPid(paths.pidFile);
  if (pid !== undefined && isNode(pid) && cmdline(pid).includes(paths.state)) stale.add(pid);
  if (stale.size > 0) await terminate([...stale]);
  for (const p of stale) await waitExited(p);
  rmSync(paths.pidFile, { force: true });
}

/** Runs `ip netns exec NS setsid -f node --import tsx lab/windows/main.ts ...` with stdin from
 *  /dev/null and output appended to the node's log; resolves when `setsid -f` has forked and exited. */
function spawnDetached(host: HostPlan, paths: WindowsNodePaths, password: string): Promise<void> {
  const log = openSync(paths.log, 'a', 0o600);
  try {
    const child = spawn(
      IP,
      [
        'netns',
        'exec',
        host.namespace,
        SETSID,
        '-f',
        process.execPath,
        '--import',
        'tsx',
        SIMULATOR_MAIN,
        '--name',
        host.name,
        '--state',
        paths.state,
        '--host-key',
        paths.hostKey,
        '--listen',
        `${host.address}:22`,
        '--pidfile',
        paths.pidFile,
        '--cluster-state',
        paths.clusterState,
        '--faults-file',
        paths.faults,
      ],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, [WINDOWS_PASSWORD_ENV]: password },
        stdio: ['ignore', log, log],
      },
    );
    return new Promise((resolveP, reject) => {
      child.once('error', reject);
      child.once('close', (code) =>
        code === 0
          ? resolveP()
          : reject(new Error(`ip netns exec ${host.namespace} setsid -f node ... exited ${code}`)),
      );
    });
  } finally {
    closeSync(log);
  }
}

function newLogText(log: string, from: number): string {
  try {
    return readFileSync(log).subarray(from).toString('utf8');
  } catch {
    return '';
  }
}

/** Starts the node's simulator; resolves with its pid once the pidfile names a healthy one (main.ts
 *  writes it after it listens, so the node then accepts connections). */
export async function startSimulator(host: HostPlan, paths: WindowsNodePaths, password: string): Promise<number> {
  if (!existsSync(dirname(paths.pidFile))) mkdirSync(dirname(paths.pidFile), { recursive: true });
  rmSync(paths.pidFile, { force: true });
  const logStart = existsSync(paths.log) ? statSync(paths.log).size : 0;
  try {
    await spawnDetached(host, paths, password);
  } catch (e) {
    throw new Error(
      `${host.name}: the simulated Windows node did not start: ${(e as Error).message}${logTail(paths.log)}`,
    );
  }
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const pid = readPid(paths.pidFile);
    if (pid !== undefined && simulatorHealthy(pid, host.namespace, paths)) return pid;
    // main.ts reports a failed start (say, the address in use) as `simulated Windows node: ...` and exits.
    if (newLogText(paths.log, logStart).includes('simulated Windows node: ')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${host.name}: the simulated Windows node did not come up${logTail(paths.log)}`);
}
