// `play lab up`: builds the lab or brings it back to health, leaving healthy hosts alone.
// Idempotent and serialized machine-wide; hosts are only ever added (down removes them).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { UsageError } from '../runner/core/errors.js';
import { checkPreconditions, mapLimit } from './exec.js';
import { ensureClientKey, ensureHostFiles, hostPublicKey } from './host-files.js';
import { inventoryYaml, knownHostsText } from './inventory.js';
import { withLabLock } from './lock.js';
import { bridgePorts, ensureBridge, ensureHostNetwork, hostNetworkLooksUp } from './netns.js';
import { ETC_NETNS, LOCK_FILE, OWNER_FILE, hostPaths, labPaths, resolveLabDir, windowsNodePaths } from './paths.js';
import type { HostPaths, LabOptions } from './paths.js';
import { readPid, runningSshd, startSshd, strayListeners, terminate, waitExited } from './sshd.js';
import { readState, writeState } from './state.js';
import { writeIfChanged } from './write.js';
import type { LabHostState, LabState } from './state.js';
import {
  BRIDGE, BRIDGE_ADDRESS, LAB_ROUTE, hostOfVeth, mergeCounts, parseHostName, planTopology, validateCounts,
} from './topology.js';
import type { HostPlan, LabCounts } from './topology.js';
import { ensureCluster } from './cluster/install.js';
import { ensureWindowsNodeFiles, ensureWindowsPassword, runningSimulator, startSimulator, stopSimulator } from './windows-node.js';

export interface LabUpOptions extends LabOptions {
  /** At least this many linux hosts (default 3, or 0 when tor, windows or control is given). */
  linux?: number;
  /** At least this many tor hosts (default 0). */
  tor?: number;
  /** At least this many simulated Windows nodes node009, node010, ... (default 0). */
  windows?: number;
  /** The cluster's control host control1 (0 or 1, default 0): a Linux host with the kubectl stand-in
   *  of the simulated cluster (lab/cluster/, a test double). */
  control?: number;
}

/** Hosts set up at once: each is a handful of short `ip` and ssh-keygen runs plus an sshd start. */
const PARALLEL = 8;

export async function labUp(options: LabUpOptions = {}): Promise<LabState> {
  checkPreconditions();
  const dir = resolveLabDir(options);
  const requested: LabCounts = {
    linux: options.linux ?? (options.tor || options.windows || options.control ? 0 : 3),
    tor: options.tor ?? 0,
    windows: options.windows ?? 0,
    control: options.control ?? 0,
  };
  validateCounts(requested);
  return withLabLock(LOCK_FILE, () => up(dir, requested));
}

/** Namespaces are machine-wide: a second lab dir would fight the first over linux1 and friends. */
function claimOwnership(dir: string): void {
  let owner: string | undefined;
  try {
    owner = readFileSync(OWNER_FILE, 'utf8').trim();
  } catch { /* no lab up */ }
  if (owner && owner !== dir && existsSync(labPaths(owner).state)) {
    throw new UsageError(`a lab is already up with its files in ${owner}: use that (PLAY_LAB_DIR=${owner}), or remove it first with \`PLAY_LAB_DIR=${owner} play lab down\``);
  }
  writeFileSync(OWNER_FILE, `${dir}\n`);
}

/** Host counts implied by bridge ports, so hosts built by a lab whose state.json was lost are not forgotten. */
function countsOnBridge(): LabCounts {
  const counts: LabCounts = { linux: 0, tor: 0, windows: 0, control: 0 };
  for (const port of bridgePorts()) {
    const host = hostOfVeth(port);
    const parsed = host ? parseHostName(host) : undefined;
    if (parsed) counts[parsed.group] = Math.max(counts[parsed.group], parsed.index);
  }
  return counts;
}

async function up(dir: string, requested: LabCounts): Promise<LabState> {
  claimOwnership(dir);
  const paths = labPaths(dir);
  mkdirSync(paths.hostsDir, { recursive: true, mode: 0o755 });
  const previous = readState(paths.state);
  const counts = mergeCounts(mergeCounts(previous?.counts ?? {}, countsOnBridge()), requested);
  const plan = planTopology(counts);
  const etcNetnsCreated = previous?.etcNetnsCreated ?? !existsSync(ETC_NETNS);

  await ensureClientKey(paths.key, paths.publicKey, paths.authorizedKeys);
  await ensureBridge();
  // The Windows nodes' password: made once; a new one means running simulators have the old one.
  const windows = plan.some((h) => h.group === 'windows') ? ensureWindowsPassword(paths.windowsEnv) : undefined;
  const started: string[] = [];
  const hosts = await mapLimit(plan, PARALLEL, async (host): Promise<LabHostState> => {
    const hp = hostPaths(dir, host.name);
    if (host.group === 'windows') {
      const wp = windowsNodePaths(dir, host.name);
      const hostKey = ensureWindowsNodeFiles(wp);
      if (!hostNetworkLooksUp(host)) await ensureHostNetwork(host);
      let pid = windows!.created ? undefined : runningSimulator(wp, host.namespace);
      if (pid === undefined) {
        await stopSimulator(host, wp);
        pid = await startSimulator(host, wp, windows!.password);
        started.push(host.name);
      }
      return {
        name: host.name, group: host.group, address: host.address, namespace: host.namespace, iface: host.iface,
        veth: host.veth, dir: wp.dir, server: 'simulator', sshdPid: pid, hostKey, etcDir: hp.etc, etcCreated: false,
      };
    }
    const etcCreatedNow = await ensureHostFiles(host, hp, paths.authorizedKeys);
    if (!hostNetworkLooksUp(host)) await ensureHostNetwork(host);
    let pid = runningSshd(hp, host.namespace);
    if (pid === undefined) {
      await stopStaleSshd(host, hp);
      pid = await startSshd(host, hp);
      started.push(host.name);
    }
    const before = previous?.hosts.find((h) => h.name === host.name);
    return {
      name: host.name,
      group: host.group,
      address: host.address,
      namespace: host.namespace,
      iface: host.iface,
      veth: host.veth,
      dir: hp.dir,
      server: 'sshd',
      sshdPid: pid,
      hostKey: await hostPublicKey(hp),
      etcDir: hp.etc,
      etcCreated: before?.etcCreated ?? etcCreatedNow,
    };
  });

  // The simulated cluster (a test double): its state file and control1's kubectl stand-in. The Windows
  // nodes' simulators are always given the file's path; they register once it exists.
  const control = plan.find((h) => h.group === 'control');
  if (control) ensureCluster(paths.clusterState, { name: control.name, address: control.address, optDir: hostPaths(dir, control.name).privateDirs['/opt'] });

  writeIfChanged(paths.knownHosts, knownHostsText(hosts));
  writeIfChanged(paths.inventory, inventoryYaml(hosts, { key: paths.key, knownHosts: paths.knownHosts, clusterState: paths.clusterState }));

  const wanted = new Set(planTopology(requested).map((h) => h.name));
  const kept = hosts.filter((h) => !wanted.has(h.name)).map((h) => h.name);
  const notes: string[] = [];
  if (kept.length > 0) {
    notes.push(`kept ${kept.length} existing host(s) beyond the ${requested.linux} linux, ${requested.tor} tor, ${requested.windows} windows and ${requested.control} control asked for: ${kept.join(', ')} (\`play lab down\` removes the lab)`);
  }
  const restarted = started.filter((name) => previous?.hosts.some((h) => h.name === name));
  const isWindows = (name: string) => parseHostName(name)?.group === 'windows';
  const restartedSshd = restarted.filter((name) => !isWindows(name));
  const restartedWindows = restarted.filter(isWindows);
  if (restartedSshd.length > 0) notes.push(`restarted sshd on ${restartedSshd.join(', ')}`);
  if (restartedWindows.length > 0) notes.push(`restarted the simulated Windows node on ${restartedWindows.join(', ')}`);
  if (windows?.created) notes.push(`new Windows password in ${paths.windowsEnv}`);

  const order = new Map(plan.map((h, i) => [h.name, i]));
  const state: LabState = {
    version: 1,
    dir,
    user: 'root',
    inventoryPath: paths.inventory,
    keyPath: paths.key,
    publicKeyPath: paths.publicKey,
    knownHostsPath: paths.knownHosts,
    bridge: BRIDGE,
    bridgeAddress: BRIDGE_ADDRESS,
    route: LAB_ROUTE,
    counts,
    requested,
    hosts,
    kept,
    started: started.sort((a, b) => order.get(a)! - order.get(b)!),
    notes,
    etcNetnsCreated,
    updatedAt: new Date().toISOString(),
  };
  writeState(paths.state, state);
  return state;
}

/** Before starting sshd: stop an old one that would hold the address, e.g. left in a namespace that
 *  was deleted and re-made, or whose pidfile was lost. Only sshds started with this host's config
 *  (pidfile) or sshd listeners inside the host's namespace, never session processes. */
async function stopStaleSshd(host: HostPlan, hp: HostPaths): Promise<void> {
  const stale = new Set(strayListeners(host.namespace));
  const pid = readPid(hp.pidFile);
  if (pid !== undefined && startedWithConfig(pid, hp.sshdConfig)) stale.add(pid);
  if (stale.size > 0) await terminate([...stale]);
  // Just killed (by someone else) and still exiting: its listening socket may not be closed yet.
  if (pid !== undefined && !existsSync(`/proc/${pid}/exe`)) await waitExited(pid);
}

function startedWithConfig(pid: number, config: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(config);
  } catch {
    return false;
  }
}
