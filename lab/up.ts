// `play lab up`: builds the lab or brings it back to health, leaving healthy hosts alone.
// Idempotent and serialized machine-wide; hosts are only ever added (down removes them).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { UsageError } from '../runner/index.js';
import { checkPreconditions, mapLimit } from './exec.js';
import { ensureClientKey, ensureHostFiles, hostPublicKey } from './hosts/host-files.js';
import { inventoryYaml, knownHostsText } from './inventory.js';
import { inPart, labParts, runLabAction } from './lab-failure.js';
import {
  bridgePorts,
  configureNamespaces,
  ensureBridge,
  ensureRootNetworks,
  hostNetworkLooksUp,
  namespaceBatch,
  raiseNeighbourThresholds,
  routesPresent,
} from './hosts/netns.js';
import { ETC_NETNS, OWNER_FILE, hostPaths, labPaths, resolveLabDir, windowsNodePaths } from './paths.js';
import type { HostPaths, LabOptions } from './paths.js';
import {
  pidsInNamespaces,
  readPid,
  runningSshd,
  startSshd,
  strayListeners,
  terminate,
  waitExited,
} from './hosts/sshd.js';
import { readState, writeState } from './lab-state.js';
import { ensurePrivateBridge, ensurePrivateLegs, privateBridgePorts } from './hosts/private-net.js';
import { writeIfChanged } from './write.js';
import type { LabHostState, LabState } from './lab-state.js';
import {
  BRIDGE,
  BRIDGE_ADDRESS,
  LAB_ROUTE,
  hostOfVeth,
  mergeCounts,
  parseHostName,
  planTopology,
  validateCounts,
} from './hosts/topology.js';
import type { HostPlan, LabCounts } from './hosts/topology.js';
import { ensureCluster } from './cluster/install.js';
import { onboardVars } from './onboard-vars.js';
import { WINDOWS_PASSWORD_ENV, ensureLabSecrets } from './secrets.js';
import { ensureSudoUsers } from './hosts/sudo-users.js';
import { ensureWindowsNodeFiles, runningSimulator, startSimulator, stopSimulator } from './windows-simulators.js';

export interface LabUpOptions extends LabOptions {
  /** At least this many linux hosts (default 3, or 0 when tor, windows or control is given). */
  linux?: number;
  /** At least this many tor hosts (default 0). */
  tor?: number;
  /** At least this many simulated Windows nodes node009, node010, ... (default 0). */
  windows?: number;
  /** The cluster's control host control1 (0 or 1, default 0): a Linux host with the real kubectl and
   *  the simulated cluster's Kubernetes API double (lab/cluster/, a test double). */
  control?: number;
  /** Jump hosts bastion1.. (default 0, or 1 when `private` is given). */
  bastion?: number;
  /** Hosts private1.. reachable only through a bastion (default 0). */
  private?: number;
}

/** Hosts whose files are made, or sshd started, at once: mostly waiting on the file system and on
 *  short-lived processes, so more than the cores. */
const PARALLEL = 16;
/** Simulated Windows nodes started at once: each is a node process that loads PowerShell and spends
 *  seconds of CPU doing so, so a start waits for a core. Fourteen started together on two cores each
 *  outlasted its 30 s start deadline, though none was broken. */
const SIMULATOR_PARALLEL = Math.max(1, availableParallelism());

export async function labUp(options: LabUpOptions = {}): Promise<LabState> {
  const dir = resolveLabDir(options);
  const others = options.tor || options.windows || options.control || options.bastion || options.private;
  const requested: LabCounts = {
    linux: options.linux ?? (others ? 0 : 3),
    tor: options.tor ?? 0,
    windows: options.windows ?? 0,
    control: options.control ?? 0,
    ...jumpCounts(options),
  };
  validateCounts(requested);
  checkPreconditions();
  // A part tags what it does; anything else that fails is "the lab", and the lock's own failure the lock.
  return runLabAction('up', dir, () => up(dir, requested));
}

/** Namespaces are machine-wide: a second lab dir would fight the first over linux1 and friends. */
function claimOwnership(dir: string): void {
  let owner: string | undefined;
  try {
    owner = readFileSync(OWNER_FILE, 'utf8').trim();
  } catch {
    /* no lab up */
  }
  if (owner && owner !== dir && existsSync(labPaths(owner).state)) {
    throw new UsageError(
      `a lab is already up with its files in ${owner}: use that (PLAY_LAB_DIR=${owner}), or remove it first with \`PLAY_LAB_DIR=${owner} play lab down\``,
    );
  }
  writeFileSync(OWNER_FILE, `${dir}\n`);
}

/** The jump host counts asked for, present only when asked for (a lab without them stays as it was). */
function jumpCounts(options: LabUpOptions): Pick<LabCounts, 'bastion' | 'private'> {
  const bastion = options.bastion ?? (options.private ? 1 : 0);
  return { ...(bastion ? { bastion } : {}), ...(options.private ? { private: options.private } : {}) };
}

/** Host counts implied by bridge ports, so hosts built by a lab whose state.json was lost are not forgotten. */
function countsOnBridge(): LabCounts {
  const counts: LabCounts = { linux: 0, tor: 0, windows: 0, control: 0 };
  for (const port of [...bridgePorts(), ...privateBridgePorts()]) {
    const host = hostOfVeth(port);
    const parsed = host ? parseHostName(host) : undefined;
    if (parsed) counts[parsed.group] = Math.max(counts[parsed.group] ?? 0, parsed.index);
  }
  return counts;
}

// Long because it is the lab's sequence, each line one call in the order they depend on (key, bridge,
// secrets, users, hosts, cluster, files, state): splitting it would hide the order, the one thing to read here.
async function up(dir: string, requested: LabCounts): Promise<LabState> {
  claimOwnership(dir);
  const paths = labPaths(dir);
  mkdirSync(paths.hostsDir, { recursive: true, mode: 0o755 });
  const previous = readState(paths.state);
  const counts = mergeCounts(mergeCounts(previous?.counts ?? {}, countsOnBridge()), requested);
  const plan = planTopology(counts);
  const etcNetnsCreated = previous?.etcNetnsCreated ?? !existsSync(ETC_NETNS);

  const files = labParts.files(dir);
  await inPart(files, () => ensureClientKey(paths.key, paths.publicKey, paths.authorizedKeys));
  const neighbourTable = await inPart(labParts.network(), async () => {
    await ensureBridge();
    await ensurePrivateBridge(plan);
    return raiseNeighbourThresholds(plan.length, previous?.neighbourTable);
  });
  // The lab's secrets (lab.env), made once; a new Windows password means running simulators have the old one.
  const secrets = await inPart(files, () => ensureLabSecrets(paths));
  const sudoNote = await inPart(labParts.users(), () => ensureSudoUsers(dir, secrets.values.PLAY_LAB_SUDO_PASSWORD));
  const hasWindows = plan.some((h) => h.group === 'windows');
  const windows = hasWindows
    ? { password: secrets.values[WINDOWS_PASSWORD_ENV], created: secrets.created.includes(WINDOWS_PASSWORD_ENV) }
    : undefined;
  const { hosts, started } = await ensureHosts(dir, plan, paths.authorizedKeys, previous, windows);

  // The simulated cluster: its state file, the Kubernetes API double (a test double) in control1's
  // namespace, and control1's real kubectl pointed at it. The Windows nodes' simulators are always given
  // the file's path; they register once it exists.
  const control = plan.find((h) => h.group === 'control');
  if (control)
    await inPart(labParts.api(dir), () =>
      ensureCluster(dir, paths.clusterState, {
        name: control.name,
        address: control.address,
        namespace: control.namespace,
        optDir: hostPaths(dir, control.name).privateDirs['/opt'],
      }),
    );

  writeIfChanged(paths.knownHosts, knownHostsText(hosts));
  writeIfChanged(
    paths.inventory,
    inventoryYaml(hosts, {
      key: paths.key,
      knownHosts: paths.knownHosts,
      clusterState: paths.clusterState,
      // onboard-windows' vars, naming local stand-in files, so it runs against the lab as it is.
      ...(hasWindows ? { windowsPlaybookVars: onboardVars(paths.filesDir) } : {}),
    }),
  );

  const wanted = new Set(planTopology(requested).map((h) => h.name));
  const kept = hosts.filter((h) => !wanted.has(h.name)).map((h) => h.name);
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
    notes: upNotes(
      requested,
      kept,
      started,
      previous,
      [secrets.created.length > 0 ? `new lab secrets (${secrets.created.join(', ')}) in ${paths.env}` : '', sudoNote]
        .filter(Boolean)
        .join('; ') || undefined,
    ),
    etcNetnsCreated,
    ...(neighbourTable ? { neighbourTable } : {}),
    updatedAt: new Date().toISOString(),
  };
  writeState(paths.state, state);
  return state;
}

function upNotes(
  requested: LabCounts,
  kept: string[],
  started: string[],
  previous: LabState | undefined,
  secretsNote: string | undefined,
): string[] {
  const notes: string[] = [];
  if (kept.length > 0) {
    notes.push(
      `kept ${kept.length} existing host(s) beyond the ${requested.linux} linux, ${requested.tor} tor, ${requested.windows} windows and ${requested.control} control asked for: ${kept.join(', ')} (\`play lab down\` removes the lab)`,
    );
  }
  const before = new Set(previous?.hosts.map((h) => h.name));
  const restarted = started.filter((name) => before.has(name));
  const isWindows = (name: string) => parseHostName(name)?.group === 'windows';
  const restartedSshd = restarted.filter((name) => !isWindows(name));
  const restartedWindows = restarted.filter(isWindows);
  if (restartedSshd.length > 0) notes.push(`restarted sshd on ${restartedSshd.join(', ')}`);
  if (restartedWindows.length > 0) notes.push(`restarted the simulated Windows node on ${restartedWindows.join(', ')}`);
  if (secretsNote) notes.push(secretsNote);
  return notes;
}

/** Files, network and server of every host, in phases over all hosts (so the network is two `ip -batch`
 *  runs and one short one per host): healthy hosts are left alone. */
async function ensureHosts(
  dir: string,
  plan: HostPlan[],
  authorizedKeys: string,
  previous: LabState | undefined,
  windows: { password: string; created: boolean } | undefined,
): Promise<{ hosts: LabHostState[]; started: string[] }> {
  const etcCreatedNow = await mapLimit(plan, PARALLEL, (host) =>
    inPart(labParts.hostFiles(dir, host.name), async () => {
      if (host.group !== 'windows') return ensureHostFiles(host, hostPaths(dir, host.name), authorizedKeys);
      ensureWindowsNodeFiles(windowsNodePaths(dir, host.name));
      return false;
    }),
  );
  const running = plan.map((host) =>
    host.group === 'windows'
      ? windows!.created
        ? undefined
        : runningSimulator(windowsNodePaths(dir, host.name), host.namespace)
      : runningSshd(hostPaths(dir, host.name), host.namespace),
  );
  // The root namespace's part for every host (two `ip`/`bridge` batches: cheap, and it mends a lost
  // neighbour or forwarding entry); inside the namespaces, a host with a healthy server and its
  // network in place is left alone, the rest get it (again): by the sshd start, or here.
  const needsNetwork = plan.filter((host, i) => {
    const pid = running[i];
    return pid === undefined || !hostNetworkLooksUp(host) || !routesPresent(host, pid);
  });
  const sshdStarts = new Set(plan.filter((host, i) => running[i] === undefined && host.group !== 'windows'));
  await inPart(labParts.network(), async () => {
    await ensureRootNetworks(plan);
    await ensurePrivateLegs(plan);
    await configureNamespaces(needsNetwork.filter((host) => !sshdStarts.has(host)));
  });
  const toStart = plan.filter((_, i) => running[i] === undefined);
  const inNamespace = pidsInNamespaces(toStart.map((h) => h.namespace));
  const started: string[] = [];
  const indexed = plan.map((host, i) => ({ host, i }));
  const start = async ({ host, i }: { host: HostPlan; i: number }): Promise<number> => {
    if (running[i] !== undefined) return running[i]!;
    started.push(host.name);
    if (host.group === 'windows') {
      const wp = windowsNodePaths(dir, host.name);
      return inPart(labParts.windows(dir, host.name), async () => {
        await stopSimulator(host, wp);
        return startSimulator(host, wp, windows!.password);
      });
    }
    const hp = hostPaths(dir, host.name);
    return inPart(labParts.sshd(dir, host.name), async () => {
      await stopStaleSshd(host, hp, inNamespace.get(host.namespace) ?? []);
      return startSshd(host, hp, namespaceBatch(host));
    });
  };
  // The simulators at their own pace, beside the sshds.
  const pids = new Array<number>(plan.length);
  const isWindows = ({ host }: { host: HostPlan }) => host.group === 'windows';
  await Promise.all([
    mapLimit(
      indexed.filter((x) => !isWindows(x)),
      PARALLEL,
      async (x) => (pids[x.i] = await start(x)),
    ),
    mapLimit(indexed.filter(isWindows), SIMULATOR_PARALLEL, async (x) => (pids[x.i] = await start(x))),
  ]);
  const before = new Map(previous?.hosts.map((h) => [h.name, h]));
  const hosts = await mapLimit(indexed, PARALLEL, async ({ host, i }): Promise<LabHostState> => {
    const common = {
      name: host.name,
      group: host.group,
      address: host.address,
      namespace: host.namespace,
      iface: host.iface,
      veth: host.veth,
      sshdPid: pids[i]!,
    };
    if (host.group === 'windows') {
      const wp = windowsNodePaths(dir, host.name);
      return {
        ...common,
        dir: wp.dir,
        server: 'simulator',
        hostKey: ensureWindowsNodeFiles(wp),
        etcDir: hostPaths(dir, host.name).etc,
        etcCreated: false,
      };
    }
    const hp = hostPaths(dir, host.name);
    return {
      ...common,
      dir: hp.dir,
      server: 'sshd',
      hostKey: await inPart(labParts.hostFiles(dir, host.name), () => hostPublicKey(hp)),
      etcDir: hp.etc,
      etcCreated: before.get(host.name)?.etcCreated ?? etcCreatedNow[i]!,
    };
  });
  return { hosts, started };
}

/** Before starting sshd: stop an old one that would hold the address, e.g. left in a namespace that
 *  was deleted and re-made, or whose pidfile was lost. Only sshds started with this host's config
 *  (pidfile) or sshd listeners inside the host's namespace, never session processes. */
async function stopStaleSshd(host: HostPlan, hp: HostPaths, inNamespace: readonly number[]): Promise<void> {
  const stale = new Set(strayListeners(host.namespace, inNamespace));
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
