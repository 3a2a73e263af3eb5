// Faults of the simulated Windows node (a TEST DOUBLE) that fire at its next boot, once: what field
// reports show a patch and its reboot can leave behind on a node that still turns Ready.
// - hnsNetworkMissing: the node comes back without its L2Bridge HNS networks (and their endpoints):
//   Windows-Containers#516, "HNS network gone after reboot".
// - kubeProxyFails: kube-proxy's service does not start at boot (it stays Stopped, exit 1067, "the
//   process terminated unexpectedly"): acs-engine#4001. The lab's cluster reports a node Ready only
//   while kubelet and kube-proxy run (cluster-registration.ts), so such a node is NotReady there.
// Armed in the model (state.bootFaults, kept in the state file across a simulator restart), either in
// process (`armBootFaults(node.state, {...})`, then node.save()) or, for a lab node, through its
// faults file (faults.ts: hnsNetworkMissingAfterReboot, kubeProxyFailsAfterReboot), and cleared when
// they fire.
import { deleteNetwork } from './hns-store.js';
import type { WindowsNodeFaults } from './faults.js';
import type { BootFaults, NodeState } from './node-state.js';
import { executableOf } from './services.js';

/** Arms the given faults for the next boot (false leaves an armed one as it is). */
export function armBootFaults(s: NodeState, patch: Partial<BootFaults>): void {
  const now = s.bootFaults ?? { hnsNetworkMissing: false, kubeProxyFails: false };
  s.bootFaults = {
    hnsNetworkMissing: now.hnsNetworkMissing || patch.hnsNetworkMissing === true,
    kubeProxyFails: now.kubeProxyFails || patch.kubeProxyFails === true,
  };
}

const isKubeProxy = (binPath: string) => /(^|\\)kube-proxy\.exe$/i.test(executableOf(binPath).replace(/\//g, '\\'));

/** At boot, after the Auto services started: the armed faults act, then are cleared. */
export function applyBootFaults(s: NodeState): void {
  const f = s.bootFaults;
  if (!f) return;
  if (f.hnsNetworkMissing)
    for (const n of s.hns.networks.filter((x) => x.type.toLowerCase() === 'l2bridge')) deleteNetwork(s, n);
  if (f.kubeProxyFails)
    for (const svc of Object.values(s.services).filter((x) => isKubeProxy(x.binPath))) {
      svc.state = 'Stopped';
      svc.pid = 0;
      svc.win32ExitCode = 1067;
    }
  delete s.bootFaults;
}

/** The faults of a faults file or setFault that are the model's: armed in `s`, and cleared in what is returned. */
export function handOverBootFaults(
  s: NodeState,
  faults: WindowsNodeFaults,
): { faults: WindowsNodeFaults; armed: boolean } {
  const armed = faults.hnsNetworkMissingAfterReboot || faults.kubeProxyFailsAfterReboot;
  if (armed)
    armBootFaults(s, {
      hnsNetworkMissing: faults.hnsNetworkMissingAfterReboot,
      kubeProxyFails: faults.kubeProxyFailsAfterReboot,
    });
  return { faults: { ...faults, hnsNetworkMissingAfterReboot: false, kubeProxyFailsAfterReboot: false }, armed };
}
