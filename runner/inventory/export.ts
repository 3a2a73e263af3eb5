// The inventory as `ansible-inventory --list` and `--host` print it (ansible-core 2.14's
// InventoryCLI.json_inventory): every group from `all` down with its own hosts and its children,
// empty keys and empty groups left out, and `_meta.hostvars` with each host's merged variables.
// Secrets stay lookups: an EnvRef prints as the `{{ lookup('env', ...) }}` text it was read from,
// which is also what ansible prints (it does not render templates there).
import type { Group, Host, Inventory } from './model.js';

export type InventoryJson = Record<string, unknown> & { _meta: { hostvars: Record<string, unknown> } };

/** One host's variables as `ansible-inventory --host NAME` gives them. */
export function hostVarsJson(host: Host): Record<string, unknown> {
  return JSON.parse(JSON.stringify(host.vars)) as Record<string, unknown>;
}

/** `ansible-inventory --list`. */
export function inventoryJson(inv: Inventory): InventoryJson {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  const visit = (group: Group) => {
    const entry: { hosts?: string[]; children?: string[] } = {};
    if (group.name !== 'all') entry.hosts = [...(group.ownHosts ?? group.hosts)];
    entry.children = [...group.children];
    for (const name of group.children) {
      // As ansible does: a group reached twice is written once.
      if (seen.has(name)) continue;
      visit(inv.groups.get(name)!);
      seen.add(name);
    }
    if (!entry.hosts?.length) delete entry.hosts;
    if (!entry.children.length) delete entry.children;
    if (Object.keys(entry).length) out[group.name] = entry;
  };
  visit(inv.groups.get('all')!);
  const hostvars: Record<string, unknown> = {};
  for (const host of inv.hosts) {
    const vars = hostVarsJson(host);
    if (Object.keys(vars).length) hostvars[host.name] = vars;
  }
  return { _meta: { hostvars }, ...out };
}

/** JSON text as ansible-inventory prints it: keys sorted at every level, four-space indents. */
export function ansibleJsonText(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v && typeof v === 'object')
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sorted((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sorted(JSON.parse(JSON.stringify(value))), null, 4);
}
