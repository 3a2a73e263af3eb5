// Reading one connection variable among its aliases, as Ansible's ssh plugin does.
import type { VarDef } from './graph.js';

/** The definition of the first-set variable among aliases, ansible-style: the last alias wins. */
export function pick(vars: ReadonlyMap<string, VarDef>, ...names: string[]): (VarDef & { name: string }) | undefined {
  for (const name of [...names].reverse()) {
    const def = vars.get(name);
    if (def && def.value !== null && def.value !== undefined) return { ...def, name };
  }
  return undefined;
}
