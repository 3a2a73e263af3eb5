// group_vars/ and host_vars/ beside each inventory source, found as ansible-core 2.14's
// host_group_vars plugin and DataLoader.find_vars_files find them: for a group or host NAME, the
// first of NAME (a file or a directory), NAME.yml, NAME.yaml, NAME.json; a directory's files (no
// extension or one of those three, hidden and `~` files skipped) in sorted order, subdirectories
// included. Ansible passes over files that match no group or host without a word; we warn.
import { basename, dirname, extname, join, relative } from 'node:path';
import { isMap, isScalar } from 'yaml';
import { inputPathKind, VARS_FILE } from '../core/read-input-file.js';
import { enterDirectory, sortedNames } from './directory-walk.js';
import type { GroupNode, HostNode, InventoryGraph, VarDef } from './graph.js';
import { parseVar } from './parse.js';
import { parseYaml, readPlainText, type Problems } from './source.js';
import { defineVar, describe } from './vars.js';
import { mapPairs } from './yaml-merge.js';

const EXTENSIONS = ['.yml', '.yaml', '.json'];

/** The variables one inventory directory's group_vars/ and host_vars/ give each group and host. */
export interface VarsDir {
  readonly dir: string;
  readonly groups: ReadonlyMap<GroupNode, ReadonlyMap<string, VarDef>>;
  readonly hosts: ReadonlyMap<HostNode, ReadonlyMap<string, VarDef>>;
}

/** ansible's _get_dir_vars_files. */
function dirFiles(dir: string, skipped: string[], walking: ReadonlySet<string>): string[] {
  const inside = enterDirectory(dir, walking);
  const found: string[] = [];
  for (const name of sortedNames(dir)) {
    if (name.startsWith('.') || name.endsWith('~')) continue;
    const path = join(dir, name);
    const ext = extname(name);
    const kind = inputPathKind(path);
    if (kind === 'directory' && !ext) for (const f of dirFiles(path, skipped, inside)) found.push(f);
    else if (kind === 'file' && (!ext || EXTENSIONS.includes(ext))) found.push(path);
    else skipped.push(path);
  }
  return found;
}

/**
 * ansible's find_vars_files: the files that hold NAME's variables under `dir`, in load order.
 * `listed` is `dir`'s entries: one listing, not four lookups per group or host.
 */
function findVarsFiles(
  dir: string,
  listed: ReadonlySet<string>,
  name: string,
  skipped: string[],
  walking: ReadonlySet<string>,
): { entry?: string; files: string[] } {
  for (const ext of ['', ...EXTENSIONS]) {
    // A name with a '/' reaches into a subdirectory, which the listing does not show.
    if (!name.includes('/') && !listed.has(name + ext)) continue;
    const path = join(dir, name + ext);
    const kind = inputPathKind(path);
    if (kind === 'missing') continue;
    return { entry: path, files: kind === 'directory' ? dirFiles(path, skipped, walking) : [path] };
  }
  return { files: [] };
}

/**
 * One vars file's variables (decrypted first when it is vault-encrypted), set in order (ansible's
 * combine_vars: a later file replaces a key). False when the file holds nothing.
 */
export function loadVarsFile(file: string, vars: Map<string, VarDef>, report: Problems): boolean {
  const text = readPlainText(file, report, VARS_FILE);
  if (text === null) return true;
  const src = parseYaml(file, text, report);
  const root = src.doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) return false;
  if (!isMap(root)) {
    // A decrypted file's text is not shown, not even in an error.
    const got = src.fromVault && isScalar(root) ? 'a scalar (not shown: the file is vault-encrypted)' : describe(root);
    src.problem(src.at('', root), `expected a mapping of variables, got ${got}`);
    return true;
  }
  for (const pair of mapPairs(src, root)) {
    const v = parseVar(src, pair, '');
    if (v) defineVar(src, vars, v.name, v.value, v.origin);
  }
  return true;
}

/** The `subdir` (group_vars or host_vars) of `dir`: each entity's variables, and what was read. */
function loadSubdir<E extends { name: string }>(
  dir: string,
  subdir: string,
  entities: Iterable<E>,
  report: Problems,
): Map<E, Map<string, VarDef>> {
  const out = new Map<E, Map<string, VarDef>>();
  const root = join(dir, subdir);
  const kind = inputPathKind(root);
  if (kind === 'missing') return out;
  const where = { file: root, path: '' };
  if (kind !== 'directory') {
    report.warn(where, `is not a directory: not read (ansible skips it too)`);
    return out;
  }
  const names = sortedNames(root);
  const listed = new Set(names);
  const walking = enterDirectory(root);
  const used = new Set<string>();
  const skipped: string[] = [];
  for (const entity of entities) {
    if (entity.name.startsWith('/')) continue;
    const { entry, files } = findVarsFiles(root, listed, entity.name, skipped, walking);
    if (entry) used.add(basename(entry));
    const vars = new Map<string, VarDef>();
    for (const file of files) loadVarsFile(file, vars, report);
    if (vars.size) out.set(entity, vars);
  }
  const what = subdir === 'group_vars' ? 'group' : 'host';
  for (const name of names) {
    if (used.has(name) || name.startsWith('.') || name.endsWith('~')) continue;
    const stem = EXTENSIONS.includes(extname(name)) ? name.slice(0, -extname(name).length) : name;
    const shadow = ['', ...EXTENSIONS].map((e) => stem + e).find((n) => used.has(n));
    report.warn(
      { file: join(root, name), path: '' },
      shadow
        ? `not read: ${subdir}/${shadow} is read instead (ansible reads only the first of ${stem}, ${stem}.yml, ${stem}.yaml, ${stem}.json)`
        : `not read: there is no ${what} named '${stem}' in the inventory (ansible ignores it too)`,
    );
  }
  for (const path of skipped)
    report.warn(
      { file: path, path: '' },
      `not read: ${relative(dir, path)} is not a vars file (ansible reads files with no extension or .yml, .yaml, .json only)`,
    );
  return out;
}

/**
 * The group_vars/ and host_vars/ of every source, in source order (a directory source's own, a
 * file's directory's), each directory once per source naming it, as ansible's
 * get_vars_from_inventory_sources walks them.
 */
export function loadVarsDirs(sources: readonly string[], graph: InventoryGraph, report: Problems): VarsDir[] {
  const byDir = new Map<string, VarsDir>();
  return sources.map((source) => {
    const dir = inputPathKind(source) === 'directory' ? source : dirname(source);
    let found = byDir.get(dir);
    if (!found) {
      found = {
        dir,
        groups: loadSubdir(dir, 'group_vars', graph.groups.values(), report),
        hosts: loadSubdir(dir, 'host_vars', graph.hosts.values(), report),
      };
      byDir.set(dir, found);
    }
    return found;
  });
}
