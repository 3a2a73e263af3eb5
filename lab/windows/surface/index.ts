// The simulated node's whole Windows surface: every op the mock modules and shims of the real
// PowerShell host may call back (lab/windows/pwsh-host), by name, one file per Windows area.
import type { SimulatedWindowsNode } from '../model.js';
import type { Surface } from '../powershell/host.js';
import { nativeOps } from './native.js';
import { registryOps } from './registry.js';
import { fileOps } from './files.js';
import { itemOps } from './items.js';
import { itemTreeOps } from './item-tree.js';
import { timeOps } from './time.js';
import { dnsClientOps } from './dns-client.js';
import { serviceOps } from './services.js';
import { osOps } from './os.js';
import { diskOps } from './disk.js';
import { commandOps } from './commands.js';
import { featureOps } from './features.js';
import { packageOps } from './packages.js';
import { dockerOps } from './docker.js';
import { firewallOps } from './firewall.js';
import { hnsOps } from './hns.js';
import { networkOps } from './network.js';
import type { Ops } from './types.js';

export const SURFACE: Ops = {
  ...hnsOps,
  ...networkOps,
  ...osOps,
  ...diskOps,
  ...commandOps,
  ...featureOps,
  ...packageOps,
  ...dockerOps,
  ...firewallOps,
  ...serviceOps,
  ...nativeOps,
  ...registryOps,
  ...fileOps,
  ...itemOps,
  ...itemTreeOps,
  ...timeOps,
  ...dnsClientOps,
};

/** The callback answerer for programs that run on this node; the state is saved after each change. */
export function surfaceOf(node: SimulatedWindowsNode): Surface {
  return (op, args) => {
    const f = SURFACE[op];
    if (!f) throw new Error(`the simulated node has no surface op ${op} (lab/windows/surface/)`);
    try {
      return f(node, args);
    } finally {
      node.changed();
    }
  };
}
