// Where the lab keeps its files. Pure: resolves the lab directory and names every file in it.
import { join, resolve } from 'node:path';
import { UsageError } from '../runner/index.js';

// The lab's state directory and the four files in it that play reads are a convention of two sides:
// `play` owns it (runner/cli/lab-state-dir.ts), because an installed play without the lab must still
// find the inventory of a lab a checkout brought up ("no -i: the lab's inventory"), and runner/ never
// imports the lab. The lab keeps this copy rather than widen play's public API with a detail of the
// lab; test/package/lab-boundary.test.ts fails when the two disagree.
export const DEFAULT_LAB_DIR = '/var/lib/play-lab';
/** Machine-wide, like the namespaces: the lock serializing lab changes, and which lab dir owns them. */
export const RUN_DIR = '/run/play-lab';
export const LOCK_FILE = join(RUN_DIR, 'lock');
export const OWNER_FILE = join(RUN_DIR, 'owner');
/** ip netns exec bind-mounts /etc/netns/NAME/ENTRY over /etc/ENTRY. */
export const ETC_NETNS = '/etc/netns';

/** Directories each host gets privately (bind mounts in its mount namespace). */
export const PRIVATE_DIRS = ['/tmp', '/srv', '/opt', '/var/tmp'] as const;

export interface LabOptions {
  /** The lab directory; default $PLAY_LAB_DIR, else /var/lib/play-lab. */
  dir?: string;
}

export interface LabPaths {
  dir: string;
  state: string;
  inventory: string;
  key: string;
  publicKey: string;
  authorizedKeys: string;
  knownHosts: string;
  hostsDir: string;
  /** `lab.env` (0600): every secret the lab's inventory reads from the environment (the simulated
   *  Windows nodes' password, the VRRP password), made once (lab/secrets.ts); `play` loads this file
   *  whenever it uses the lab's inventory, without overriding the environment. */
  env: string;
  /** `windows.env`, where labs made before lab.env kept the Windows password: read to keep it. */
  legacyWindowsEnv: string;
  /** Local files the lab's inventory names (stand-ins for the node binaries and the kubeconfig). */
  filesDir: string;
  /** The simulated cluster's state (lab/cluster/, a test double): written by the Kubernetes API double
   *  on control1 and by the simulated Windows nodes; made by `up` when the lab has a control host. */
  clusterState: string;
}

/** control1's kubectl (its private /opt): a wrapper running the real kubectl against the API double. */
export const KUBECTL_PATH = '/opt/play-lab/bin/kubectl';

/** A simulated Windows node's files, in its folder of the lab dir (kept across `up`: its state and
 *  host key must outlive restarts, or known_hosts would go stale). */
export interface WindowsNodePaths {
  dir: string;
  state: string;
  hostKey: string;
  pidFile: string;
  log: string;
  /** The simulator's faults (lab/windows/faults.ts), JSON; read at start and on SIGHUP (setWindowsNodeFaults). */
  faults: string;
  /** The lab's cluster state, which the node registers in (only once it exists: no control host, no cluster). */
  clusterState: string;
}

export interface HostPaths {
  dir: string;
  sshdConfig: string;
  hostKey: string;
  hostPublicKey: string;
  pidFile: string;
  log: string;
  bashrc: string;
  /** Source folder for each private directory, keyed by the directory it hides. */
  privateDirs: Record<(typeof PRIVATE_DIRS)[number], string>;
  /** This host's /etc overrides. */
  etc: string;
}

export function resolveLabDir(options: LabOptions = {}): string {
  const dir = resolve(options.dir ?? process.env.PLAY_LAB_DIR ?? DEFAULT_LAB_DIR);
  // The path goes into sshd_config and into ansible_ssh_common_args (split like a shell line):
  // keep it to characters that need no quoting in either.
  if (!/^[A-Za-z0-9_@%+=:,./-]+$/.test(dir)) {
    throw new UsageError(`lab directory ${JSON.stringify(dir)}: use only letters, digits and _@%+=:,./-`);
  }
  // Each host mounts its own /tmp etc. over the real ones, which would hide the lab's files
  // (authorized_keys is read at every login) from its sshd.
  for (const hidden of PRIVATE_DIRS) {
    if (dir === hidden || dir.startsWith(`${hidden}/`)) {
      throw new UsageError(
        `lab directory ${dir}: cannot be under ${hidden}, which each lab host replaces with its own`,
      );
    }
  }
  if (dir === '/') throw new UsageError('lab directory /: not a usable directory');
  return dir;
}

export function labPaths(dir: string): LabPaths {
  return {
    dir,
    state: join(dir, 'state.json'),
    inventory: join(dir, 'inventory.yaml'),
    env: join(dir, 'lab.env'),
    legacyWindowsEnv: join(dir, 'windows.env'),
    key: join(dir, 'id_ed25519'),
    publicKey: join(dir, 'id_ed25519.pub'),
    authorizedKeys: join(dir, 'authorized_keys'),
    knownHosts: join(dir, 'known_hosts'),
    hostsDir: join(dir, 'hosts'),
    filesDir: join(dir, 'files'),
    clusterState: join(dir, 'cluster-state.json'),
  };
}

export function windowsNodePaths(dir: string, host: string): WindowsNodePaths {
  const hostDir = join(dir, 'hosts', host);
  return {
    dir: hostDir,
    state: join(hostDir, 'node-state.json'),
    hostKey: join(hostDir, 'ssh_host_ed25519_key'),
    pidFile: join(hostDir, 'simulator.pid'),
    log: join(hostDir, 'simulator.log'),
    faults: join(hostDir, 'faults.json'),
    clusterState: join(dir, 'cluster-state.json'),
  };
}

export function hostPaths(dir: string, host: string): HostPaths {
  const hostDir = join(dir, 'hosts', host);
  const root = join(hostDir, 'root');
  return {
    dir: hostDir,
    sshdConfig: join(hostDir, 'sshd_config'),
    hostKey: join(hostDir, 'ssh_host_ed25519_key'),
    hostPublicKey: join(hostDir, 'ssh_host_ed25519_key.pub'),
    pidFile: join(hostDir, 'sshd.pid'),
    log: join(hostDir, 'sshd.log'),
    bashrc: join(hostDir, 'bashrc'),
    privateDirs: {
      '/tmp': join(root, 'tmp'),
      '/srv': join(root, 'srv'),
      '/opt': join(root, 'opt'),
      '/var/tmp': join(root, 'var-tmp'),
    },
    etc: join(ETC_NETNS, host),
  };
}
