// Walks an Ansible YAML inventory the way ansible-core's yaml inventory plugin does (keys in file
// order; `hosts`, `vars`, `children` per group; a string where a mapping is expected means one
// entry), but where Ansible only warns and skips something, we stop with an error that says where
// and what was expected: a skipped host or group is a run against the wrong machines.
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import { countText, expandHostKey, HostRangeTooLarge, MAX_RANGE_HOSTS, parseAddress } from './host-range.js';
import { InventoryGraph, MAX_INVENTORY_RANGE_HOSTS, type GroupNode } from './graph.js';
import { joinPath, type Origin, type Reporter, type Source } from './source.js';
import { closeNames } from './suggest.js';
import { defineVar, describe, varValue } from './vars.js';
import { mapPairs } from './yaml-merge.js';

const SECTIONS = ['hosts', 'vars', 'children'] as const;

/** Adds the groups and hosts of one YAML file to `graph` (the caller reconciles once all are read). */
export function parseInventory(src: Source, graph: InventoryGraph = new InventoryGraph()): InventoryGraph {
  const root = src.doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    throw src.error(
      src.at(''),
      'the file is empty: expected a mapping of groups, such as `all:` with `hosts:` and `children:`',
    );
  }
  if (!isMap(root)) {
    // A decrypted file's text is not shown, not even in an error.
    const got = src.fromVault && isScalar(root) ? 'a scalar (not shown: the file is vault-encrypted)' : describe(root);
    throw src.error(src.at('', root), `expected a mapping of groups at the top level (such as \`all:\`), got ${got}`);
  }
  const top = mapPairs(src, root);
  if (top.some((p) => isScalar(p.key) && p.key.value === 'plugin')) {
    throw src.error(
      src.at('plugin'),
      'this is an inventory plugin configuration; play reads static inventories only (YAML and INI): ' +
        `export this one with \`ansible-inventory -i ${src.file} --list --yaml\``,
    );
  }
  for (const pair of top) {
    const name = groupName(src, pair, '');
    if (name !== null) parseGroup(src, graph, name, deref(src, pair.value), joinPath('', name), pair);
  }
  return graph;
}

function deref(src: Source, node: unknown): Node | null {
  if (isAlias(node)) return src.resolveAlias(node);
  return (node as Node | null | undefined) ?? null;
}

function keyOf(pair: Pair): unknown {
  return isScalar(pair.key) ? pair.key.value : pair.key;
}

/** Ansible's rule for group names (a warning there): letters, digits, underscores, no leading digit. */
const ANSIBLE_GROUP_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function groupName(src: Source, pair: Pair, base: string): string | null {
  const key = keyOf(pair);
  if (typeof key !== 'string') {
    src.problem(
      src.at(base || '(top level)', pair.key as Node),
      `a group name must be a string, got ${describe(pair.key)}: quote it`,
    );
    return null;
  }
  checkGroupName(src, src.at(joinPath(base, key), pair.key as Node), key);
  return key;
}

/** Ansible's group-name rules: what patterns could not name is a problem, the rest a warning as in ansible. */
export function checkGroupName(src: Reporter, origin: Origin, key: string): void {
  if (!key.trim()) src.problem(origin, 'a group name cannot be empty');
  else if (/[\s,:[\]*?]/.test(key) || /^[!&~@]/.test(key)) {
    src.problem(
      origin,
      `'${key}' cannot be a group name: host patterns could not name it ` +
        '(no spaces or , : [ ] * ?, and no leading ! & ~ @; use letters, digits and underscores)',
    );
  } else if (!ANSIBLE_GROUP_NAME.test(key)) {
    src.warn(
      origin,
      `'${key}' is not a valid Ansible group name (letters, digits and underscores, not starting with a digit); ansible warns about it too`,
    );
  }
}

/** A section (`hosts`, `vars`, `children`) as a list of pairs, or null when it is not a mapping. */
function sectionPairs(src: Source, node: Node | null, path: string, section: string): Pair[] | null {
  if (node === null || (isScalar(node) && node.value === null)) return [];
  // Ansible accepts `hosts: web1` as `hosts: {web1: }`.
  if (isScalar(node) && typeof node.value === 'string') return [{ key: node, value: null } as unknown as Pair];
  if (isMap(node)) return mapPairs(src, node, path);
  const hint =
    isSeq(node) && section !== 'vars'
      ? `: write one \`name:\` per line, e.g.\n    ${section}:\n      ${firstItem(node) ?? 'name'}:`
      : '';
  src.problem(src.at(path, node), `'${section}' must be a mapping, got ${describe(node)}${hint}`);
  return null;
}

function firstItem(node: Node): string | undefined {
  const first = isSeq(node) ? node.items[0] : undefined;
  return isScalar(first) ? String(first.value) : undefined;
}

function parseGroup(
  src: Source,
  graph: InventoryGraph,
  name: string,
  node: Node | null,
  path: string,
  pair: Pair,
  visiting = new Set<Node>(),
): GroupNode | null {
  const origin = src.at(path, pair.key as Node);
  if (node !== null && !(isScalar(node) && node.value === null) && !isMap(node)) {
    src.problem(
      src.at(path, node),
      `expected a group definition (a mapping with hosts, vars or children) or nothing, got ${describe(node)}`,
    );
    return null;
  }
  const group = graph.group(name, origin);
  // The walk follows the YAML tree, which is finite unless an alias points back at an enclosing node.
  if (node && visiting.has(node)) {
    src.problem(origin, `group '${name}' is defined inside itself through a YAML alias`);
    return null;
  }
  if (node) visiting = new Set([...visiting, node]);
  for (const item of isMap(node) ? mapPairs(src, node, path) : []) {
    const key = keyOf(item);
    const keyPath = joinPath(path, String(key));
    const value = deref(src, item.value);
    if (key === 'vars') {
      for (const p of sectionPairs(src, value, keyPath, 'vars') ?? []) {
        const v = parseVar(src, p, keyPath);
        if (v) setGroupVar(src, group, v);
      }
    } else if (key === 'children') {
      for (const c of sectionPairs(src, value, keyPath, 'children') ?? []) {
        const childName = groupName(src, c, keyPath);
        if (childName === null) continue;
        const childPath = joinPath(keyPath, childName);
        const child = parseGroup(src, graph, childName, deref(src, c.value), childPath, c, visiting);
        if (!child) continue;
        const cycle = graph.addChild(group, child);
        if (cycle)
          src.problem(
            src.at(childPath, c.key as Node),
            `group '${name}' would be its own ancestor: ${cycle} (a group cannot contain itself)`,
          );
      }
    } else if (key === 'hosts') {
      for (const h of sectionPairs(src, value, keyPath, 'hosts') ?? []) parseHost(src, graph, group, h, keyPath);
    } else {
      src.problem(src.at(keyPath, item.key as Node), unknownKeyDetail(key, value));
    }
  }
  return group;
}

function unknownKeyDetail(key: unknown, value: Node | null): string {
  const shown = typeof key === 'string' ? `'${key}'` : describe(key);
  const close = typeof key === 'string' ? closeNames(key, SECTIONS, 1) : [];
  if (close.length)
    return `unknown key ${shown} in a group: did you mean '${close[0]}'? (a group holds only hosts, vars and children)`;
  const asHost = value === null || isMap(value) || (isScalar(value) && value.value === null);
  return (
    `unknown key ${shown} in a group: a group holds only hosts, vars and children` +
    (asHost && typeof key === 'string'
      ? `; if '${key}' is a host, list it under 'hosts:', if it is a group, under 'children:'`
      : '')
  );
}

export interface ParsedVar {
  name: string;
  value: unknown;
  origin: Origin;
}

export function parseVar(src: Source, pair: Pair, base: string): ParsedVar | null {
  const name = keyOf(pair);
  if (typeof name !== 'string' || !name) {
    src.problem(
      src.at(base, pair.key as Node),
      `a variable name must be a non-empty string, got ${describe(pair.key)}`,
    );
    return null;
  }
  const valueNode = deref(src, pair.value);
  const origin = src.at(joinPath(base, name), valueNode ?? (pair.key as Node));
  return { name, value: varValue(src, valueNode, origin), origin };
}

export function setGroupVar(src: Reporter, group: GroupNode, v: ParsedVar): void {
  if (v.name === 'ansible_group_priority') {
    // Like ansible, the priority is a property of the group, not one of its variables.
    const n = typeof v.value === 'string' && /^\s*[+-]?\d+\s*$/.test(v.value) ? Number(v.value) : v.value;
    if (typeof n === 'number' && Number.isInteger(n)) group.priority = n;
    else src.problem(v.origin, `ansible_group_priority must be an integer, got ${describe(v.value)}`);
    return;
  }
  defineVar(src, group.vars, v.name, v.value, v.origin);
}

function parseHost(src: Source, graph: InventoryGraph, group: GroupNode, pair: Pair, base: string): void {
  const key = keyOf(pair);
  if (typeof key !== 'string') {
    const what = isSeq(pair.key) ? 'a list' : isMap(pair.key) ? 'a mapping' : describe(key);
    src.problem(
      src.at(base, pair.key as Node),
      `a host name must be a string, got ${what}` +
        (typeof key === 'number' || typeof key === 'boolean' ? ': enclose it in quotes' : ''),
    );
    return;
  }
  const path = joinPath(base, key);
  const origin = src.at(path, pair.key as Node);
  const expanded = hostNames(src, graph, origin, key, group.name);
  if (!expanded) return;
  const valueNode = deref(src, pair.value);
  const varPairs =
    valueNode === null || (isScalar(valueNode) && valueNode.value === null)
      ? []
      : isMap(valueNode)
        ? mapPairs(src, valueNode, path)
        : null;
  if (varPairs === null) {
    src.problem(
      src.at(path, valueNode),
      `expected the host's variables as a mapping (or nothing), got ${describe(valueNode)}`,
    );
    return;
  }
  const vars = varPairs.map((p) => parseVar(src, p, path)).filter((v) => v !== null);
  for (const name of expanded.names) {
    const { host, created } = graph.host(name, origin);
    // As in ansible, a port in the host key only applies where the host is first defined.
    if (created && expanded.port !== undefined) host.vars.set('ansible_port', { value: expanded.port, origin });
    graph.addHost(group, host);
    for (const v of vars) defineVar(src, host.vars, v.name, v.value, v.origin);
  }
}

/**
 * A host key (`node[01:10]`, `db1:2222`) of `group` expanded to valid host names, or null after
 * reporting why not. Ranges are counted before they are expanded, against the per-pattern limit
 * and what is left of the inventory's.
 */
export function hostNames(
  src: Reporter,
  graph: InventoryGraph,
  origin: Origin,
  key: string,
  group: string,
): { names: string[]; port?: number } | null {
  let expanded: { names: string[]; port?: number };
  try {
    expanded = expandHostKey(key, Math.min(MAX_RANGE_HOSTS, graph.rangeHostsLeft));
  } catch (e) {
    if (e instanceof HostRangeTooLarge) src.problem(origin, rangeTooLarge(e, group));
    else src.problem(origin, `invalid host range in '${key}': ${(e as Error).message}`);
    return null;
  }
  if (expanded.names.length === 0) {
    src.problem(origin, `host range '${key}' expands to no host (is begin greater than end?)`);
    return null;
  }
  if (key.includes('[')) graph.rangeHostsLeft -= expanded.names.length;
  const bad = expanded.names.find((n) => !parseAddress(n));
  if (bad !== undefined) {
    src.problem(
      origin,
      `'${bad}' is not a valid host name: expected a DNS-style name (letters, digits, '-', '_', dots), ` +
        'an IPv4 or IPv6 address, optionally with a :port or a range such as node[01:10]',
    );
    return null;
  }
  return expanded;
}

function rangeTooLarge(e: HostRangeTooLarge, group: string): string {
  const size = countText(e.size);
  if (e.size > MAX_RANGE_HOSTS)
    return (
      `host range '${e.pattern}' of group '${group}' expands to ${size} hosts, more than the ` +
      `${countText(MAX_RANGE_HOSTS)} play expands from one pattern: write a smaller range`
    );
  return (
    `host range '${e.pattern}' of group '${group}' (${size} hosts) would take the hosts named by ranges in this ` +
    `inventory past ${countText(MAX_INVENTORY_RANGE_HOSTS)}: write smaller ranges`
  );
}
