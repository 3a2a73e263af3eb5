// The simulated cluster's Ready knob (lab/cluster/, a TEST DOUBLE): `neverReady` on a node makes its
// kubelet never report Ready again, whatever its services do, so a test can have a node that does not
// come back after its reboot. The simulated Windows node's registration (lab/windows/cluster-registration.ts)
// asks reportedReady at its next status update (a service change, a reboot); setting the knob does not by
// itself change the node's current status. Clearing it lets the next update report Ready again.
import { type ClusterNode, updateClusterState } from './cluster-state.js';

/** What the node's kubelet reports: Ready when its services say so, unless the knob holds it back. */
export function reportedReady(node: Pick<ClusterNode, 'neverReady'> | undefined, servicesReady: boolean): boolean {
  return servicesReady && !node?.neverReady;
}

/** Sets or clears the knob on a registered node (throws for an unknown node). */
export function setNeverReady(stateFile: string, name: string, on: boolean): void {
  updateClusterState(stateFile, (s) => {
    const n = s.nodes[name];
    if (!n) throw new Error(`${stateFile}: no node ${name} in the simulated cluster`);
    if (on) n.neverReady = true;
    else delete n.neverReady;
  });
}
