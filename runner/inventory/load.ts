// loadInventory: Ansible inventory sources (YAML or INI files, directories) in, a validated, frozen
// Inventory out. Every problem is found before any host is touched, and reported with the file, the
// line and the YAML path (or INI section).
import { lstatSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { InventoryError, UsageError } from '../core/errors.js';
import { inventoryBastions } from './bastions.js';
import { connectionSpec } from './connection.js';
import { type ConnectionSettings, unbecomeWarning } from './connection-defaults.js';
import { InventoryGraph } from './graph.js';
import type { Group, Host, Inventory } from './model.js';
import { hostVarDefs } from './precedence.js';
import { rememberFile } from './secrets.js';
import { SshConfig } from '../ssh-config/config.js';
import { Problems, type Origin } from './source.js';
import { isHostList, readSources } from './sources.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { loadVarsDirs } from './vars-files.js';

export { resolveSecrets, resolveVars } from './secrets.js';

/**
 * What is at `path`, when it cannot be an inventory source, as a clear error: a symbolic link loop
 * (65), a link to nothing (64, like a missing file). A missing path is left to the caller.
 */
export function checkInventoryPath(path: string): void {
  try {
    statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new InventoryError(
        path,
        '',
        'is a symbolic link loop (a link that leads back to itself): point it at an inventory file or directory',
      );
    if (code === 'ENOENT' && lstatSafe(path)?.isSymbolicLink())
      throw new UsageError(`inventory ${path} is a symbolic link to ${readlinkSync(path)}, which does not exist`);
  }
}

const lstatSafe = (path: string) => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

export interface LoadOptions {
  /** The vault passwords that decrypt vault-encrypted files and `!vault` values (none: they are refused). */
  readonly vault?: VaultKeyring;
  /** The OpenSSH client configuration hosts are resolved through (the CLI's: the user's ~/.ssh/config and
   *  /etc/ssh/ssh_config); default none but a host's own `-F FILE`. */
  readonly sshConfig?: SshConfig;
  /** The command's connection settings (-u, --private-key, -b, -k, ...: connection-defaults.ts), under the vars. */
  readonly connectionDefaults?: ConnectionSettings;
}

/**
 * Loads one inventory from its sources (files or directories, in the order given, like several
 * `-i` to ansible; or lists of hosts, `h1,h2,`), with the group_vars/ and host_vars/ beside each.
 */
export function loadInventory(sources: string | readonly string[], options: LoadOptions = {}): Inventory {
  const given = typeof sources === 'string' ? [sources] : [...sources];
  const paths = given.map((p) => (isHostList(p) ? p : resolve(p)));
  if (paths.length === 0) throw new UsageError('no inventory source given');
  const pathSources = paths.filter((p) => !isHostList(p));
  for (const p of pathSources) checkInventoryPath(p);
  const report = new Problems(paths[0]!, options.vault);
  const graph = new InventoryGraph();
  const files = readSources(paths, graph, report);
  // ansible reconciles (ungrouped, parentless groups under all) once, after every source.
  graph.reconcile();
  // A host list has no group_vars: ansible's vars plugins skip sources that are not paths.
  const dirs = loadVarsDirs(pathSources, graph, report);
  for (const name of graph.hosts.keys()) {
    const group = graph.groups.get(name);
    if (group)
      report.warn(
        group.origin,
        `'${name}' is both a group and a host: a pattern '${name}' selects the host only (as in ansible)`,
      );
  }
  const sourceDirs = pathSources.map((p) => (statSync(p).isDirectory() ? p : dirname(p)));
  const baseDir = (origin: Origin) => baseDirOf(origin.file ?? paths[0]!, sourceDirs);

  const sshConfig = options.sshConfig ?? SshConfig.explicitOnly();
  const bastionOf = inventoryBastions(graph, dirs, report, baseDir, sshConfig);
  const byName = new Map<string, Host>();
  for (const node of graph.hosts.values()) {
    const { vars, groups } = hostVarDefs(graph, node, dirs);
    const host: Host = Object.freeze({
      name: node.name,
      vars: deepFreeze(Object.fromEntries([...vars].map(([k, v]) => [k, v.value]))),
      groups: Object.freeze(groups.map((g) => g.name)),
      connection: Object.freeze(
        connectionSpec(report, node.name, node.origin, vars, baseDir, bastionOf, sshConfig, options.connectionDefaults),
      ),
    });
    rememberFile(host, node.origin.file ?? paths[0]!);
    byName.set(node.name, host);
  }
  for (const w of sshConfig.unhonoured.warnings()) report.warn({ file: w.file, path: '' }, w.detail);
  const unbecome = unbecomeWarning([...byName.values()], options.connectionDefaults);
  if (unbecome) report.warn({ path: '' }, unbecome);
  report.throwIfProblems();

  const groups = buildGroups(graph);
  // Inventory order is what `ansible all --list-hosts` prints, not the order hosts first appear.
  const hosts = Object.freeze(groups.get('all')!.hosts.map((n) => byName.get(n)!));
  return Object.freeze({
    file: paths[0]!,
    sources: Object.freeze(paths),
    files: Object.freeze(files),
    hosts,
    fileOrder: Object.freeze([...graph.hosts.keys()]),
    warnings: Object.freeze([...report.warnings]),
    groups,
    host: (name: string) => byName.get(name),
  });
}

/** Relative paths in a file are taken from the source directory it belongs to (the deepest one). */
function baseDirOf(file: string, sourceDirs: readonly string[]): string {
  const owners = sourceDirs.filter((d) => file.startsWith(d.endsWith(sep) ? d : d + sep));
  return owners.sort((a, b) => b.length - a.length)[0] ?? dirname(file);
}

function buildGroups(graph: InventoryGraph): ReadonlyMap<string, Group> {
  const groups = new Map<string, Group>();
  for (const g of graph.groups.values()) {
    groups.set(
      g.name,
      Object.freeze({
        name: g.name,
        hosts: Object.freeze(graph.hostsOf(g).map((h) => h.name)),
        ownHosts: Object.freeze(g.hosts.map((h) => h.name)),
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
