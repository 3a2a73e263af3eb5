// `play lab status` and `play lab inventory`: what the lab is and whether each host answers.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { UsageError } from '../runner/index.js';
import { checkPreconditions } from './exec.js';
import { bridgeExists, namespaceExists } from './hosts/netns.js';
import { hostPaths, labPaths, resolveLabDir, windowsNodePaths } from './paths.js';
import type { LabOptions } from './paths.js';
import { reachableFrom } from './hosts/private-net.js';
import { readPid, runningSshd } from './hosts/sshd.js';
import { readState } from './lab-state.js';
import { inLabRange } from './hosts/topology.js';
import type { LabGroup } from './hosts/topology.js';
import { runningSimulator } from './windows-simulators.js';
import { API_PORT, type ApiProcess, labApiProcess, runningApi } from './cluster/api-process.js';

export interface LabHostStatus {
  name: string;
  group: LabGroup;
  address: string;
  /** The network namespace exists. */
  namespace: boolean;
  /** What answers SSH: sshd, or (windows group) the simulated Windows node. */
  server: 'sshd' | 'simulator';
  /** The pid in the host's sshd (or simulator) pidfile, if any (alive or not). */
  sshdPid: number | null;
  /** That pid is alive, is sshd (or node running the node's simulator), and is in the host's namespace. */
  sshdAlive: boolean;
  /** Port 22 accepted a TCP connection within 1 s (for a host behind a bastion: from the bastion). */
  reachable: boolean;
}

/** The simulated cluster's Kubernetes API double (lab/cluster/api/, a test double) on control1. */
export interface ClusterApiStatus {
  /** The pid in its pidfile, if any (alive or not). */
  pid: number | null;
  /** That pid is alive, is the API double with this lab's state and address, in control1's namespace. */
  alive: boolean;
  /** Its port (6443 on control1's address) accepted a TCP connection within 1 s. */
  reachable: boolean;
}

export interface LabStatus {
  dir: string;
  /** state.json exists, the bridge exists, every host is alive and reachable, and so is the API double. */
  up: boolean;
  bridge: boolean;
  inventoryPath: string | null;
  hosts: LabHostStatus[];
  /** null: the lab has no control host, so no cluster. */
  clusterApi: ClusterApiStatus | null;
}

export async function labStatus(options: LabOptions = {}): Promise<LabStatus> {
  checkPreconditions(); // reading another root process's /proc/PID/exe needs root
  const dir = resolveLabDir(options);
  const paths = labPaths(dir);
  const state = readState(paths.state);
  // Hosts behind a bastion answer only there: they are checked from inside its namespace.
  const bastion = state?.hosts.find((h) => h.group === 'bastion');
  const reachable = (h: { group: LabGroup; address: string }) =>
    h.group !== 'private'
      ? tcpReachable(h.address, 22, 1000)
      : bastion
        ? reachableFrom(bastion.namespace, h.address, 22, 1000)
        : Promise.resolve(false);
  // Every host's local facts first (synchronous reads of /proc and files), then the network checks:
  // a connect's 1 s must not be spent waiting for the other hosts' reads.
  const local = (state?.hosts ?? []).map((h) => {
    const windows = h.group === 'windows';
    const hp = hostPaths(dir, h.name);
    const wp = windowsNodePaths(dir, h.name);
    return {
      name: h.name,
      group: h.group,
      address: h.address,
      namespace: namespaceExists(h.namespace),
      server: windows ? ('simulator' as const) : ('sshd' as const),
      sshdPid: readPid(windows ? wp.pidFile : hp.pidFile) ?? null,
      sshdAlive: (windows ? runningSimulator(wp, h.namespace) : runningSshd(hp, h.namespace)) !== undefined,
    };
  });
  const hosts: LabHostStatus[] = await Promise.all(local.map(async (h) => ({ ...h, reachable: await reachable(h) })));
  const bridge = bridgeExists();
  const control = state?.hosts.find((h) => h.group === 'control');
  const clusterApi = control ? await apiStatus(labApiProcess(dir, paths.clusterState, control), control.address) : null;
  return {
    dir,
    up:
      state !== undefined &&
      bridge &&
      hosts.every((h) => h.namespace && h.sshdAlive && h.reachable) &&
      (clusterApi === null || (clusterApi.alive && clusterApi.reachable)),
    bridge,
    inventoryPath: state && existsSync(paths.inventory) ? paths.inventory : null,
    hosts,
    clusterApi,
  };
}

async function apiStatus(api: ApiProcess, address: string): Promise<ClusterApiStatus> {
  return {
    pid: readPid(api.pidFile) ?? null,
    alive: runningApi(api) !== undefined,
    reachable: await tcpReachable(address, API_PORT, 1000),
  };
}

/** Connects and closes; true when the connection was accepted within timeoutMs. */
export function tcpReachable(address: string, port: number, timeoutMs: number): Promise<boolean> {
  // The lab never sends anywhere but its own range.
  if (!inLabRange(address)) return Promise.resolve(false);
  return new Promise((resolvePromise) => {
    const socket = connect({ host: address, port });
    // A busy event loop can find the timer and the connect both due: timers run first in a loop turn,
    // I/O after, so the verdict waits one turn (setImmediate runs after I/O) to let a connect that is
    // already there count.
    const timer = setTimeout(() => setImmediate(() => done(false)), timeoutMs);
    let settled = false;
    function done(ok: boolean) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolvePromise(ok);
    }
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The lab's inventory file; a UsageError when the lab is not up. */
export function labInventoryPath(options: LabOptions = {}): string {
  const paths = labPaths(resolveLabDir(options));
  if (!existsSync(paths.state) || !existsSync(paths.inventory)) {
    throw new UsageError(`the lab is not up (no ${paths.inventory}): run \`play lab up\` first`);
  }
  return paths.inventory;
}
