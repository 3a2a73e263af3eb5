// loadInventory: an Ansible YAML inventory file in, a validated, frozen Inventory out. Every problem
// is found before any host is touched, and reported with the file, line and YAML path.
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InventoryError, UsageError } from '../core/errors.js';
import { connectionSpec } from './connection.js';
import type { InventoryGraph } from './graph.js';
import type { Group, Host, Inventory } from './model.js';
import { parseInventory } from './parse.js';
import { hostVarDefs } from './precedence.js';
import { rememberFile } from './secrets.js';
import { readSource } from './source.js';

export { resolveSecrets, resolveVars } from './secrets.js';

/**
 * What is at `path`, when it cannot be an inventory file, as a clear error: a directory (inventory
 * directories are not supported yet), a symbolic link loop (65), a link to nothing (64, like a
 * missing file). A missing path is left to the caller.
 */
export function checkInventoryPath(path: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new InventoryError(
        path,
        '',
        'is a symbolic link loop (a link that leads back to itself): point it at a YAML inventory file',
      );
    if (code === 'ENOENT' && lstatSafe(path)?.isSymbolicLink())
      throw new UsageError(`inventory ${path} is a symbolic link to ${readlinkSync(path)}, which does not exist`);
    return;
  }
  if (isDirectory) {
    throw new InventoryError(
      path,
      '',
      'is a directory: inventory directories are not supported yet; pass one YAML inventory file',
    );
  }
}

const lstatSafe = (path: string) => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

export function loadInventory(file: string): Inventory {
  const path = resolve(file);
  checkInventoryPath(path);
  const src = readSource(path);
  const graph = parseInventory(src);
  for (const name of graph.hosts.keys()) {
    const group = graph.groups.get(name);
    if (group)
      src.warn(
        group.origin,
        `'${name}' is both a group and a host: a pattern '${name}' selects the host only (as in ansible)`,
      );
  }
  const baseDir = dirname(path);

  const byName = new Map<string, Host>();
  for (const node of graph.hosts.values()) {
    const { vars, groups } = hostVarDefs(graph, node);
    const host: Host = Object.freeze({
      name: node.name,
      vars: deepFreeze(Object.fromEntries([...vars].map(([k, v]) => [k, v.value]))),
      groups: Object.freeze(groups.map((g) => g.name)),
      connection: Object.freeze(connectionSpec(src, node.name, node.origin, vars, baseDir)),
    });
    rememberFile(host, path);
    byName.set(node.name, host);
  }
  src.throwIfProblems();

  const groups = buildGroups(graph);
  // Inventory order is what `ansible all --list-hosts` prints, not the order hosts first appear.
  const hosts = Object.freeze(groups.get('all')!.hosts.map((n) => byName.get(n)!));
  return Object.freeze({
    file: path,
    hosts,
    fileOrder: Object.freeze([...graph.hosts.keys()]),
    warnings: Object.freeze([...src.warnings]),
    groups,
    host: (name: string) => byName.get(name),
  });
}

function buildGroups(graph: InventoryGraph): ReadonlyMap<string, Group> {
  const groups = new Map<string, Group>();
  for (const g of graph.groups.values()) {
    groups.set(
      g.name,
      Object.freeze({
        name: g.name,
        hosts: Object.freeze(graph.hostsOf(g).map((h) => h.name)),
        children: Object.freeze(g.children.map((c) => c.name)),
        vars: deepFreeze(Object.fromEntries([...g.vars].map(([k, v]) => [k, v.value]))),
      }),
    );
  }
  return groups;
}

/** Freezes a variable value all the way down: hosts share group values, so no step may change one. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
