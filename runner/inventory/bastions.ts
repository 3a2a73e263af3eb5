// The connections of inventory hosts named as jump hosts (runner/inventory/jump.ts), each worked out
// on first use and kept. A bastion's own jump is read without this lookup, so a chain of jump hosts is
// seen (and refused) without recursion.
import type { SshConfig } from '../ssh-config/config.js';
import { connectionSpec } from './connection.js';
import type { InventoryGraph } from './graph.js';
import type { BastionLookup } from './jump.js';
import type { ConnectionSpec } from './model.js';
import { hostVarDefs } from './precedence.js';
import type { Origin, Reporter } from './source.js';
import type { VarsDir } from './vars-files.js';

export function inventoryBastions(
  graph: InventoryGraph,
  dirs: readonly VarsDir[],
  report: Reporter,
  baseDir: (origin: Origin) => string,
  sshConfig?: SshConfig,
): BastionLookup {
  const known = new Map<string, ConnectionSpec | undefined>();
  return (name) => {
    if (!known.has(name)) {
      const node = graph.hosts.get(name);
      const vars = node && hostVarDefs(graph, node, dirs).vars;
      known.set(name, node && vars && connectionSpec(report, name, node.origin, vars, baseDir, undefined, sshConfig));
    }
    return known.get(name);
  };
}
