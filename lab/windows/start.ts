// Starts a simulated Windows node (a TEST DOUBLE of a Windows Server 2019 Kubernetes node): the
// model with its state file, and its SSH server. In-process for tests (127.0.0.1, port 0), or as a
// separate process through main.ts.
import { attachClusterRegistration } from './cluster-registration.js';
import type { WindowsNodeFaults } from './faults.js';
import { loadOrCreateHostKey } from './host-key.js';
import { SimulatedWindowsNode } from './model.js';
import { type PowerShellHost, sharedPowerShellHost } from './powershell/host.js';
import { SimulatedWindowsSshServer, type ServerStats } from './server.js';
import type { NodeState } from './node-state.js';

export interface SimulatedWindowsNodeConfig {
  /** The node's hostname (for a new state). */
  name: string;
  stateFile: string;
  hostKeyFile: string;
  listen: { host: string; port: number };
  /** Password of `user` (default Administrator). */
  password?: string;
  /** A public key line allowed to log in. */
  authorizedKey?: string;
  user?: string;
  /** How long a reboot keeps the node away (default 3 s). */
  rebootSeconds?: number;
  faults?: Partial<WindowsNodeFaults>;
  /** Changes a new node's state before its first save. */
  seed?: (state: NodeState) => void;
  log?: (line: string) => void;
  /** The simulated cluster's state file (lab/cluster/): the node's kubelet service registers it there
   *  (cluster-registration.ts), once the file exists. */
  clusterState?: string;
  /** The PowerShell engine (default: this process's shared one, started on first use). */
  powershell?: PowerShellHost;
}

export interface RunningSimulatedWindowsNode {
  readonly port: number;
  readonly host: string;
  /** `ssh-ed25519 AAAA...`, for known_hosts. */
  readonly hostKey: string;
  /** The model, for tests to inspect or change (call node.save() after changing node.state by hand). */
  readonly node: SimulatedWindowsNode;
  readonly server: SimulatedWindowsSshServer;
  readonly stats: ServerStats;
  setFault(patch: Partial<WindowsNodeFaults>): void;
  close(): Promise<void>;
}

export async function startSimulatedWindowsNode(
  config: SimulatedWindowsNodeConfig,
): Promise<RunningSimulatedWindowsNode> {
  if (config.password === undefined && config.authorizedKey === undefined) {
    throw new Error(
      `simulated Windows node ${config.name}: give a password or an authorized key, or nobody can log in`,
    );
  }
  const powershell = config.powershell ?? (await sharedPowerShellHost());
  const hostKey = loadOrCreateHostKey(config.hostKeyFile);
  const node = SimulatedWindowsNode.open({
    name: config.name,
    stateFile: config.stateFile,
    rebootSeconds: config.rebootSeconds,
    seed: config.seed,
  });
  node.badKb = config.faults?.badKb ?? null;
  const loopback = config.listen.host.startsWith('127.');
  const detach = config.clusterState
    ? attachClusterRegistration(node, config.clusterState, {
        address: loopback ? undefined : config.listen.host,
        log: config.log,
      })
    : () => {};
  let server: SimulatedWindowsSshServer;
  try {
    server = await SimulatedWindowsSshServer.start(
      {
        node,
        powershell,
        hostKey: hostKey.private,
        user: config.user,
        password: config.password,
        authorizedKeys: config.authorizedKey ? [config.authorizedKey] : [],
        faults: config.faults,
        log: config.log,
      },
      config.listen,
    );
  } catch (e) {
    detach();
    node.close();
    throw e;
  }
  return {
    get port() {
      return server.port;
    },
    get host() {
      return server.host;
    },
    hostKey: hostKey.public,
    node,
    server,
    stats: server.stats,
    setFault: (patch) => {
      server.setFault(patch);
      node.badKb = server.faults.badKb;
      node.emit('state-changed');
    },
    async close() {
      detach();
      node.close();
      await server.close();
    },
  };
}
