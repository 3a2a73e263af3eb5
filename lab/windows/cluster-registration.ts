// Node registration by the simulated Windows node (a TEST DOUBLE): the node's kubelet registers it in
// the simulated cluster (lab/cluster/, its state file) the way a real kubelet registers with the API
// server. After every change of the node's state (a call, going down, coming back up):
// - a service whose command runs kubelet.exe (its binPath, or nssm's Application for an nssm service)
//   is Running, its --kubeconfig file exists on the node and names a server (a `server:` line), and the
//   cluster state file exists (no file: no API server to reach): the node registers, as
//   --hostname-override's name (else the node's hostname), lower-cased. A new node gets the next free
//   /24 of the cluster CIDR; a known one keeps its pod CIDR, cordon and age;
// - a registered node is Ready while a kubelet and a kube-proxy (kube-proxy.exe) service both run and
//   the node is up, NotReady otherwise (a real node turns NotReady ~40 s later; here at once), and
//   never Ready while the cluster's `neverReady` knob is set on it (lab/cluster/ready.ts), nor while it runs
//   the KB of the badKb fault (faults.ts).
// A node deleted from the cluster registers again at the next change while its kubelet runs.
import { existsSync } from 'node:fs';
import { type ClusterNode, readClusterState, registerNode, updateClusterState } from '../cluster/cluster-state.js';
import { reportedReady } from '../cluster/ready.js';
import { readFile } from './file-store.js';
import type { SimulatedWindowsNode } from './model.js';
import { executableOf } from './services.js';
import type { NodeState, ServiceRecord } from './node-state.js';

/** The service's command line: its binPath, or for an nssm service the application and its parameters. */
function commandOf(s: NodeState, svc: ServiceRecord): string {
  const n = s.nssm[svc.name.toLowerCase()];
  if (n && /nssm(\.exe)?"?\s*$/i.test(svc.binPath)) return `${n.Application} ${n.AppParameters}`;
  return svc.binPath;
}

function runs(s: NodeState, svc: ServiceRecord, exe: string): boolean {
  const file = executableOf(commandOf(s, svc)).replace(/\//g, '\\');
  return file.slice(file.lastIndexOf('\\') + 1).toLowerCase() === exe;
}

/** `--name=value`, `--name value`, `--name="a b"`; undefined when absent. */
export function flagValue(command: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)--${name.replace(/[-]/g, '\\-')}(?:=|\\s+)(?:"([^"]*)"|(\\S+))`).exec(command);
  return m ? (m[1] ?? m[2]) : undefined;
}

function validKubeconfig(s: NodeState, path: string | undefined): boolean {
  if (!path) return false;
  try {
    const content = readFile(s, path)?.toString('utf8') ?? '';
    return content.trim() !== '' && /^\s*server:\s*\S+/m.test(content);
  } catch {
    return false; // a directory
  }
}

export interface RegistrationView {
  /** The node's name in the cluster; undefined without a kubelet service. */
  name?: string;
  /** kubelet can register now. */
  canRegister: boolean;
  ready: boolean;
  facts: Pick<ClusterNode, 'addresses' | 'os' | 'osImage' | 'kernelVersion' | 'containerRuntime'>;
}

/** What the node's services say about its registration, pure. */
export function registrationView(node: SimulatedWindowsNode, address?: string): RegistrationView {
  const s = node.state;
  const services = Object.values(s.services).sort((a, b) => a.name.localeCompare(b.name));
  const kubelets = services.filter((svc) => runs(s, svc, 'kubelet.exe'));
  const kubelet = kubelets.find((svc) => svc.state === 'Running') ?? kubelets[0];
  const kubeletRunning = node.isUp && kubelet?.state === 'Running';
  const proxyRunning = node.isUp && services.some((svc) => svc.state === 'Running' && runs(s, svc, 'kube-proxy.exe'));
  const command = kubelet ? commandOf(s, kubelet) : '';
  const name = kubelet ? (flagValue(command, 'hostname-override') ?? s.hostname).toLowerCase() : undefined;
  const ip = flagValue(command, 'node-ip') ?? address;
  return {
    name,
    canRegister: kubeletRunning && validKubeconfig(s, flagValue(command, 'kubeconfig')),
    ready: kubeletRunning && proxyRunning && !bootedInto(s, node.badKb),
    facts: {
      addresses: [
        ...(ip ? [{ type: 'InternalIP' as const, address: ip }] : []),
        { type: 'Hostname', address: name ?? s.hostname.toLowerCase() },
      ],
      os: 'windows',
      osImage: s.os.caption.replace(/^Microsoft /, ''),
      kernelVersion: `${s.os.version.split('.').slice(0, 2).join('.')}.${s.os.build}.${s.os.revision}`,
      containerRuntime: s.docker.version ? `docker://${s.docker.version}` : 'docker://19.3.5',
    },
  };
}

/** The badKb fault (faults.ts): the KB is installed and no reboot is pending for it (the node runs it). */
function bootedInto(s: NodeState, kb: string | null): boolean {
  if (kb === null) return false;
  const k = kb.toLowerCase();
  return (
    s.hotfixes.some((h) => h.kb.toLowerCase() === k) &&
    !s.pending.some((c) => c.kind === 'hotfix' && c.kb.toLowerCase() === k)
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Brings the node's record in the cluster in line with its services; writes only on a difference. */
export function syncRegistration(node: SimulatedWindowsNode, clusterState: string, address?: string): void {
  if (!existsSync(clusterState)) return;
  const view = registrationView(node, address);
  const name = view.name;
  if (!name) return;
  const needed = (current: ClusterNode | undefined) =>
    current
      ? current.ready !== reportedReady(current, view.ready) ||
        (view.canRegister &&
          !same(
            { ...view.facts },
            {
              addresses: current.addresses,
              os: current.os,
              osImage: current.osImage,
              kernelVersion: current.kernelVersion,
              containerRuntime: current.containerRuntime,
            },
          ))
      : view.canRegister;
  if (!needed(readClusterState(clusterState)?.nodes[name])) return;
  updateClusterState(clusterState, (st) => {
    const current = st.nodes[name];
    if (!needed(current)) return;
    if (view.canRegister) registerNode(st, { name, ready: reportedReady(current, view.ready), ...view.facts });
    else if (current) {
      current.ready = reportedReady(current, view.ready);
      current.updatedAt = new Date().toISOString();
    }
  });
}

/** Syncs now and after every change of the node's state; returns the detach function. A failure (a
 *  broken cluster file) is logged, never thrown into the node's calls. */
export function attachClusterRegistration(
  node: SimulatedWindowsNode,
  clusterState: string,
  o: { address?: string; log?: (line: string) => void } = {},
): () => void {
  const sync = () => {
    try {
      syncRegistration(node, clusterState, o.address);
    } catch (e) {
      (o.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(
        `${node.state.hostname}: cluster registration failed: ${(e as Error).message}`,
      );
    }
  };
  node.on('state-changed', sync);
  sync();
  return () => {
    node.off('state-changed', sync);
  };
}
