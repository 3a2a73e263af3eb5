// Hosts and groups while an inventory is being read, with the rules of ansible-core's InventoryData,
// Group and Host: `all` and `ungrouped` always exist; a group without a parent becomes a child of
// `all`; a host only in `all` is in `ungrouped`; a group's hosts are its own, then its descendants'
// level by level. Keeping these rules in one place is what makes `play hosts` agree with Ansible.
import type { Origin } from './source.js';

/** Host names all the ranges of one inventory may expand to together (README.md, Limits). */
export const MAX_INVENTORY_RANGE_HOSTS = 1_000_000;

/** A variable as written: its value and where, for error messages about it later. */
export interface VarDef {
  readonly value: unknown;
  readonly origin: Origin;
}

export class GroupNode {
  readonly vars = new Map<string, VarDef>();
  /** ansible_group_priority: orders groups of the same depth for variable precedence. */
  priority = 1;
  readonly hosts: HostNode[] = [];
  readonly children: GroupNode[] = [];
  readonly parents: GroupNode[] = [];
  /** `children` as a set: a test of membership must not scan the thousands of children of `all`. */
  readonly childSet = new Set<GroupNode>();
  constructor(
    readonly name: string,
    readonly origin: Origin,
  ) {}
}

export class HostNode {
  readonly vars = new Map<string, VarDef>();
  /** Groups that list the host directly. */
  readonly groups = new Set<GroupNode>();
  constructor(
    readonly name: string,
    readonly origin: Origin,
  ) {}
}

export class InventoryGraph {
  /** In order of first mention, like ansible's dict: `all`, `ungrouped`, then as the file goes. */
  readonly groups = new Map<string, GroupNode>();
  readonly hosts = new Map<string, HostNode>();
  readonly all: GroupNode;
  readonly ungrouped: GroupNode;
  /** How many more host names ranges (`web[01:20]`) may add: a file of ranges cannot exhaust memory. */
  rangeHostsLeft = MAX_INVENTORY_RANGE_HOSTS;
  #depth: Map<GroupNode, number> | null = null;

  constructor() {
    this.all = this.group('all', { path: '' });
    this.ungrouped = this.group('ungrouped', { path: '' });
    this.addChild(this.all, this.ungrouped);
  }

  group(name: string, origin: Origin): GroupNode {
    let g = this.groups.get(name);
    if (!g) this.groups.set(name, (g = new GroupNode(name, origin)));
    return g;
  }

  /** The host, created on first mention; `created` says whether this call made it. */
  host(name: string, origin: Origin): { host: HostNode; created: boolean } {
    const found = this.hosts.get(name);
    if (found) return { host: found, created: false };
    const host = new HostNode(name, origin);
    this.hosts.set(name, host);
    return { host, created: true };
  }

  addHost(group: GroupNode, host: HostNode): void {
    if (host.groups.has(group)) return;
    group.hosts.push(host);
    host.groups.add(group);
  }

  /**
   * Makes `child` a child group of `parent`. Returns the cycle (`a -> b -> a`) instead when `child`
   * is `parent` or one of its ancestors: ansible refuses that edge as a "recursive dependency loop".
   */
  addChild(parent: GroupNode, child: GroupNode): string | null {
    if (parent.childSet.has(child)) return null;
    if (child === parent || this.ancestors(parent).has(child)) {
      return [parent, ...this.#pathDown(child, parent)].map((g) => g.name).join(' -> ');
    }
    parent.children.push(child);
    parent.childSet.add(child);
    child.parents.push(parent);
    this.#depth = null;
    return null;
  }

  ancestors(group: GroupNode): Set<GroupNode> {
    const seen = new Set<GroupNode>();
    const todo = [...group.parents];
    for (let g = todo.pop(); g; g = todo.pop()) {
      if (seen.has(g)) continue;
      seen.add(g);
      todo.push(...g.parents);
    }
    return seen;
  }

  /** Group path from `from` down to `to` (inclusive), following children. */
  #pathDown(from: GroupNode, to: GroupNode, seen = new Set<GroupNode>()): GroupNode[] {
    if (from === to) return [from];
    seen.add(from);
    for (const c of from.children) {
      if (seen.has(c)) continue;
      const rest = this.#pathDown(c, to, seen);
      if (rest.length) return [from, ...rest];
    }
    return [];
  }

  /** ansible's reconcile_inventory, run once the whole file is read. */
  reconcile(): void {
    for (const g of this.groups.values()) {
      if (g !== this.all && g.parents.length === 0) this.addChild(this.all, g);
    }
    const leaving = new Set<HostNode>();
    for (const h of this.hosts.values()) {
      const others = [...this.groupsOf(h)].filter((g) => g !== this.all && g !== this.ungrouped);
      if (h.groups.has(this.ungrouped) && others.length > 0) {
        leaving.add(h);
        h.groups.delete(this.ungrouped);
      } else if (others.length === 0) {
        // ansible's add_child('ungrouped', name) looks the name up as a group first: a host that
        // shares its name with a group puts that group under `ungrouped`, not itself.
        const namesake = this.groups.get(h.name);
        if (namesake) this.addChild(this.ungrouped, namesake);
        else this.addHost(this.ungrouped, h);
      }
    }
    // Removed in one pass: a splice per host would move the rest of the list each time.
    if (leaving.size > 0) {
      const staying = this.ungrouped.hosts.filter((h) => !leaving.has(h));
      this.ungrouped.hosts.length = 0;
      for (const h of staying) this.ungrouped.hosts.push(h);
    }
  }

  /** Every group the host is in, directly or through a parent group. */
  groupsOf(host: HostNode): Set<GroupNode> {
    const out = new Set<GroupNode>();
    for (const g of host.groups) {
      out.add(g);
      for (const a of this.ancestors(g)) out.add(a);
    }
    return out;
  }

  /**
   * ansible's Group._get_hosts: the group's own hosts, then its children's, then theirs, level by
   * level, first occurrence kept. Ansible walks each level as a Python set, so when two groups of one
   * level both have children the order of the next level varies from run to run there; we take the
   * order the groups were met in, which is one of the orders Ansible produces.
   */
  hostsOf(group: GroupNode): HostNode[] {
    const ordered: GroupNode[] = [group, ...group.children];
    const seen = new Set<GroupNode>(ordered);
    let level = [...group.children];
    while (level.length > 0) {
      const next: GroupNode[] = [];
      for (const g of level) {
        for (const c of g.children) {
          if (seen.has(c)) continue;
          seen.add(c);
          next.push(c);
          ordered.push(c);
        }
      }
      level = next;
    }
    const hosts: HostNode[] = [];
    const taken = new Set<HostNode>();
    for (const g of ordered) {
      for (const h of g.hosts)
        if (!taken.has(h)) {
          taken.add(h);
          hosts.push(h);
        }
    }
    return hosts;
  }

  /** ansible's Group.depth: the longest path from `all` (`all` is 0). */
  depth(group: GroupNode): number {
    if (!this.#depth) this.#depth = new Map();
    const memo = this.#depth;
    const walk = (g: GroupNode): number => {
      let d = memo.get(g);
      if (d === undefined) {
        d = 0;
        for (const p of g.parents) d = Math.max(d, walk(p) + 1);
        memo.set(g, d);
      }
      return d;
    };
    return walk(group);
  }

  /** ansible's sort_groups: by depth, then ansible_group_priority, then name; later wins for variables. */
  sortGroups(groups: Iterable<GroupNode>): GroupNode[] {
    return [...groups].sort(
      (a, b) =>
        this.depth(a) - this.depth(b) || a.priority - b.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
  }
}
