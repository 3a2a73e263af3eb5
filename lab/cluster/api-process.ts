// The lab's Kubernetes API double (lab/cluster/api/, a TEST DOUBLE) as a daemon inside control1's network
// namespace, listening on control1's address, port 6443 (kube-apiserver's; the onboarding's kubeconfig
// names it). Like the simulated Windows nodes: started detached (`ip netns exec control1 setsid -f node
// ...`) with a pidfile, and "running" means the pidfile's pid is alive, is node running api/main.ts with
// this lab's state file, address and credentials, and lives in control1's namespace. `play lab down`
// stops it with everything else in the namespace; `lab up` restarts it when it is not healthy or its
// certificate was remade.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { IP, SETSID } from '../exec.js';
import { logTail, namespacePath, netnsId, pidsInNamespace, readPid, terminate, waitExited } from '../hosts/sshd.js';
import { PROJECT_ROOT } from '../windows-simulators.js';

export const API_MAIN = join(PROJECT_ROOT, 'lab', 'cluster', 'api', 'main.ts');
export const API_PORT = 6443;
/** node with tsx takes about a second to start on a busy machine; be generous. */
const START_TIMEOUT_MS = 30_000;

/** The API double's files in the lab dir: its credentials (tls.ts), pidfile and log. */
export function clusterApiPaths(labDir: string) {
  const dir = join(labDir, 'cluster-api');
  return { dir, pidFile: join(dir, 'server.pid'), log: join(dir, 'server.log') };
}

export interface ApiProcess {
  namespace: string;
  listen: string;
  stateFile: string;
  tlsDir: string;
  pidFile: string;
  log: string;
}

/** The lab's API double: in control1's namespace, on its address. */
export function labApiProcess(
  labDir: string,
  stateFile: string,
  control: { namespace: string; address: string },
): ApiProcess {
  const paths = clusterApiPaths(labDir);
  return {
    namespace: control.namespace,
    listen: `${control.address}:${API_PORT}`,
    stateFile,
    tlsDir: paths.dir,
    pidFile: paths.pidFile,
    log: paths.log,
  };
}

function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

const isNode = (pid: number) => {
  try {
    return /^node/.test(basename(readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '')));
  } catch {
    return false;
  }
};

const argAfter = (args: string[], flag: string) => args[args.indexOf(flag) + 1];

function healthy(pid: number, p: ApiProcess): boolean {
  const args = cmdline(pid);
  return (
    isNode(pid) &&
    args.includes(API_MAIN) &&
    argAfter(args, '--state') === p.stateFile &&
    argAfter(args, '--listen') === p.listen &&
    argAfter(args, '--tls-dir') === p.tlsDir &&
    netnsId(`/proc/${pid}/ns/net`) === netnsId(namespacePath(p.namespace))
  );
}

/** The pidfile's API double when it is healthy. */
export function runningApi(p: ApiProcess): number | undefined {
  const pid = readPid(p.pidFile);
  return pid !== undefined && healthy(pid, p) ? pid : undefined;
}

/** An API double's process, started from this checkout or another one: the lab (its directory, its
 *  namespaces) is the machine's, so a double another checkout left running holds the same port. */
const isApiDouble = (pid: number) =>
  isNode(pid) && cmdline(pid).some((a) => /\/lab\/cluster\/api\/main\.[jt]s$/.test(a));

/** Stops the pidfile's API double and any other in the namespace (one holding the port would keep a
 *  new one from listening). */
export async function stopApi(p: ApiProcess): Promise<void> {
  const stale = new Set(pidsInNamespace(p.namespace).filter(isApiDouble));
  const pid = readPid(p.pidFile);
  if (pid !== undefined && isApiDouble(pid)) stale.add(pid);
  if (stale.size > 0) await terminate([...stale]);
  for (const s of stale) await waitExited(s);
  rmSync(p.pidFile, { force: true });
}

/** Stops the API double its pidfile names, if that pid is one (pids are reused). */
export async function stopApiByPidfile(pidFile: string): Promise<void> {
  const pid = readPid(pidFile);
  if (pid !== undefined && isApiDouble(pid)) {
    await terminate([pid]);
    await waitExited(pid);
  }
  rmSync(pidFile, { force: true });
}

function spawnDetached(p: ApiProcess): Promise<void> {
  const log = openSync(p.log, 'a', 0o600);
  try {
    const args = ['--state', p.stateFile, '--tls-dir', p.tlsDir, '--listen', p.listen, '--pidfile', p.pidFile];
    const child = spawn(
      IP,
      ['netns', 'exec', p.namespace, SETSID, '-f', process.execPath, '--import', 'tsx', API_MAIN, ...args],
      { cwd: PROJECT_ROOT, stdio: ['ignore', log, log] },
    );
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`ip netns exec ... exited ${code}`))));
    });
  } finally {
    closeSync(log);
  }
}

/** Starts the API double; resolves with its pid once the pidfile names a healthy one (main.ts writes it
 *  when it listens). */
export async function startApi(p: ApiProcess): Promise<number> {
  mkdirSync(p.tlsDir, { recursive: true, mode: 0o700 });
  rmSync(p.pidFile, { force: true });
  const logStart = existsSync(p.log) ? statSync(p.log).size : 0;
  await spawnDetached(p);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const pid = readPid(p.pidFile);
    if (pid !== undefined && healthy(pid, p)) return pid;
    if (readFileSync(p.log).subarray(logStart).toString('utf8').includes('kubernetes API double: ')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the lab's Kubernetes API double did not come up on ${p.listen}${logTail(p.log)}`);
}
