// The simulated Kubernetes cluster's state (lab/cluster/, a TEST DOUBLE of a kubeadm cluster's API
// server and controllers, as far as node onboarding and rolling runs see them): one JSON file, written
// by the API double (lab/cluster/api/, which the real kubectl on the lab's control host talks to) and by
// the simulated Windows nodes when their kubelet registers. Several processes write it, so every change
// is read-modify-write under a lock file, and the file is replaced by rename (a reader never sees half
// of it). Every write stamps the objects it changed with a new resourceVersion (revision.ts).
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ClusterNode, ClusterState } from './cluster-model.js';
import { stampRevisions } from './revision.js';

export type { ClusterNode, ClusterNodeAddress, ClusterState } from './cluster-model.js';

/** The lab's values: everything inside the lab's routed 198.18.0.0/15, apart from the hosts (198.18.0-1.x). */
export const LAB_CLUSTER = Object.freeze({
  clusterCIDR: '198.19.0.0/16',
  serviceCIDR: '198.18.240.0/20',
  dnsServiceIP: '198.18.240.10',
});

export const KUBERNETES_VERSION = 'v1.18.20';

/** The labels a kubelet puts on its node (what a pod's nodeSelector matches). */
export function nodeLabels(n: ClusterNode): Record<string, string> {
  const os = n.os ?? 'linux';
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': os,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': os,
  };
  for (const role of n.roles ?? []) labels[`node-role.kubernetes.io/${role}`] = '';
  return labels;
}

// ---- addresses, pure ----

export function ipToInt(ip: string): number {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) throw new RangeError(`${ip}: not an IPv4 address`);
  const o = m.slice(1).map(Number);
  if (o.some((x) => x > 255)) throw new RangeError(`${ip}: not an IPv4 address`);
  return ((o[0]! << 24) >>> 0) + (o[1]! << 16) + (o[2]! << 8) + o[3]!;
}

export function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function parseCidr(cidr: string): { base: number; prefix: number } {
  const m = /^([0-9.]+)\/(\d{1,2})$/.exec(cidr);
  if (!m || Number(m[2]) > 32) throw new RangeError(`${cidr}: not an IPv4 CIDR`);
  const prefix = Number(m[2]);
  const base = ipToInt(m[1]!);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  if ((base & mask) >>> 0 !== base)
    throw new RangeError(`${cidr}: host bits set (the network is ${intToIp((base & mask) >>> 0)}/${prefix})`);
  return { base, prefix };
}

/**
 * The first /24 of `clusterCIDR` that no CIDR in `used` overlaps (kube-controller-manager's range
 * allocator with --node-cidr-mask-size=24). Throws when the cluster CIDR is smaller than a /24 or
 * every /24 is taken. Pure.
 */
export function allocatePodCidr(clusterCIDR: string, used: readonly string[], maskSize = 24): string {
  const cluster = parseCidr(clusterCIDR);
  if (cluster.prefix > maskSize) throw new RangeError(`cluster CIDR ${clusterCIDR} is smaller than one /${maskSize}`);
  const taken = used.map((u) => {
    const c = parseCidr(u);
    return { start: c.base, end: c.base + 2 ** (32 - c.prefix) - 1 };
  });
  const size = 2 ** (32 - maskSize);
  const count = 2 ** (maskSize - cluster.prefix);
  for (let i = 0; i < count; i++) {
    const start = cluster.base + i * size;
    const end = start + size - 1;
    if (!taken.some((t) => t.start <= end && start <= t.end)) return `${intToIp(start)}/${maskSize}`;
  }
  throw new RangeError(`no free /${maskSize} left in cluster CIDR ${clusterCIDR} (${count} allocated)`);
}

// ---- the file ----

export function newClusterState(
  values: { clusterCIDR: string; serviceCIDR: string; dnsServiceIP: string } = LAB_CLUSTER,
): ClusterState {
  return {
    version: 1,
    clusterCIDR: values.clusterCIDR,
    serviceCIDR: values.serviceCIDR,
    dnsServiceIP: values.dnsServiceIP,
    nodes: {},
  };
}

export function readClusterState(file: string): ClusterState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  const state = JSON.parse(text) as ClusterState;
  if (state.version !== 1 || typeof state.nodes !== 'object' || state.nodes === null)
    throw new Error(`${file}: not a simulated cluster state (version 1)`);
  return state;
}

function writeClusterState(file: string, state: ClusterState): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o644 });
  renameSync(tmp, file);
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
export function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs fn holding `FILE.lock` (O_EXCL create; holds the holder's pid). Synchronous, because the
 * simulated node's handlers are. A lock whose holder is dead is taken over (every writer runs on
 * this machine, in the root pid namespace).
 */
export function withClusterLock<T>(file: string, fn: () => T, timeoutMs = 10_000): T {
  const lock = `${file}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o644);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = NaN;
      try {
        holder = Number(readFileSync(lock, 'utf8').trim());
      } catch {
        /* just released */
      }
      if (Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock}: held by pid ${holder} for ${timeoutMs / 1000} s`);
      sleepSync(5);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/**
 * Read-modify-write under the lock. `change` edits the state in place and returns a result; the file is
 * written only when the state changed. `create`: a missing file starts from this state (otherwise a
 * missing file is an error: no cluster).
 */
export function updateClusterState<T>(file: string, change: (state: ClusterState) => T, create?: ClusterState): T {
  return withClusterLock(file, () => {
    const existing = readClusterState(file);
    const state = existing ?? (create ? structuredClone(create) : undefined);
    if (!state) throw new Error(`${file}: no cluster state`);
    const before = JSON.stringify(state);
    const result = change(state);
    if (existing === undefined || JSON.stringify(state) !== before) {
      stampRevisions(existing === undefined ? undefined : (JSON.parse(before) as ClusterState), state);
      writeClusterState(file, state);
    }
    return result;
  });
}

/** Registers (or re-registers) a node: a new node gets the first free /24; an existing one keeps its pod CIDR. */
export function registerNode(
  state: ClusterState,
  node: Omit<ClusterNode, 'podCIDR' | 'registeredAt' | 'unschedulable'> &
    Partial<Pick<ClusterNode, 'podCIDR' | 'unschedulable'>>,
  now = new Date(),
): ClusterNode {
  const existing = state.nodes[node.name];
  const podCIDR =
    existing?.podCIDR ??
    node.podCIDR ??
    allocatePodCidr(
      state.clusterCIDR,
      Object.values(state.nodes).map((n) => n.podCIDR),
    );
  const record: ClusterNode = {
    ...existing,
    ...node,
    podCIDR,
    unschedulable: existing?.unschedulable ?? node.unschedulable ?? false,
    registeredAt: existing?.registeredAt ?? now.toISOString(),
    updatedAt: now.toISOString(),
  };
  state.nodes[node.name] = record;
  return record;
}
