// Variable precedence inside one inventory, as ansible-core's VariableManager applies it:
// `all`'s vars, then every other group of the host sorted by (depth, ansible_group_priority, name)
// with later groups winning, then the host's own vars. Values replace, they do not deep-merge
// (ansible's default hash_behaviour=replace).
import type { GroupNode, HostNode, InventoryGraph, VarDef } from './graph.js';

export interface HostVarDefs {
  /** Each variable with the definition that won, so errors can point at the line that set it. */
  readonly vars: ReadonlyMap<string, VarDef>;
  /** `all`, then the host's other groups in precedence order (lowest first). */
  readonly groups: readonly GroupNode[];
}

export function hostVarDefs(graph: InventoryGraph, host: HostNode): HostVarDefs {
  const groups = graph.sortGroups([...graph.groupsOf(host)].filter((g) => g !== graph.all));
  const vars = new Map<string, VarDef>();
  for (const source of [graph.all, ...groups]) for (const [k, v] of source.vars) vars.set(k, v);
  for (const [k, v] of host.vars) vars.set(k, v);
  return { vars, groups: [graph.all, ...groups] };
}
