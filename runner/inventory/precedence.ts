// Variable precedence, as ansible-core 2.14's VariableManager.get_vars applies it for a host with
// the default VARIABLE_PRECEDENCE, lowest first:
//   1. `all`'s vars from the inventory files;
//   2. the host's other groups' inventory vars, groups sorted by (depth, ansible_group_priority, name);
//   3. group_vars/all of each source directory, in source order;
//   4. group_vars/GROUP of each source directory: source by source, each in the group order of 2
//      (so a later source's group_vars beat an earlier source's, whatever the groups' depths);
//   5. the host's own inventory vars;
//   6. host_vars/HOST of each source directory, in source order.
// Values replace, they do not deep-merge (ansible's default hash_behaviour=replace).
import type { GroupNode, HostNode, InventoryGraph, VarDef } from './graph.js';
import type { VarsDir } from './vars-files.js';

export interface HostVarDefs {
  /** Each variable with the definition that won, so errors can point at the line that set it. */
  readonly vars: ReadonlyMap<string, VarDef>;
  /** `all`, then the host's other groups in precedence order (lowest first). */
  readonly groups: readonly GroupNode[];
}

export function hostVarDefs(graph: InventoryGraph, host: HostNode, dirs: readonly VarsDir[] = []): HostVarDefs {
  const groups = graph.sortGroups([...graph.groupsOf(host)].filter((g) => g !== graph.all));
  const layers: (ReadonlyMap<string, VarDef> | undefined)[] = [graph.all.vars, ...groups.map((g) => g.vars)];
  for (const d of dirs) layers.push(d.groups.get(graph.all));
  for (const d of dirs) for (const g of groups) layers.push(d.groups.get(g));
  layers.push(host.vars);
  for (const d of dirs) layers.push(d.hosts.get(host));
  const vars = new Map<string, VarDef>();
  for (const layer of layers) for (const [k, v] of layer ?? []) vars.set(k, v);
  return { vars, groups: [graph.all, ...groups] };
}
