// What is in a directory or key, and copying and moving files and directories, for Get-ChildItem,
// Copy-Item and Move-Item (mock/Children.psm1), over file-store.ts and the registry. .NET's rules and
// texts: the destination's directory must exist ("Could not find a part of the path 'X'."), a move
// never overwrites ("Cannot create a file when that file already exists."), a directory is copied
// with what is in it only with -Recurse. Registry keys are listed, not copied or moved (no step or
// operator task needs it: refused as not modelled).
import { WindowsError } from '../errors.js';
import { makeDirectory, writeFile } from '../file-store.js';
import type { NodeState } from '../node-state.js';
import { baseName, filePath, parentOf, registryPath, type WinPath } from '../win-paths.js';
import { isDir, isFile } from './files.js';
import { fileSystemItem, locate, registryItem } from './items.js';
import { subKeyNames } from './registry.js';
import { type Ops, str } from './types.js';

/** The paths directly inside a directory, directories first, each by name. */
function entries(s: NodeState, dir: WinPath): WinPath[] {
  const base = dir.key.endsWith('\\') ? dir.key : `${dir.key}\\`;
  const direct = (k: string) => k.startsWith(base) && !k.slice(base.length).includes('\\');
  const dirs = Object.entries(s.directories)
    .filter(([k]) => direct(k))
    .map(([, display]) => display);
  const files = Object.entries(s.files)
    .filter(([k]) => direct(k))
    .map(([, f]) => f.path);
  const byName = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase());
  return [...dirs.sort(byName), ...files.sort(byName)].map((d) => filePath(d));
}

function copyTree(s: NodeState, from: WinPath, to: WinPath, recurse: boolean): void {
  if (isFile(s, from)) {
    writeFile(s, to.display, Buffer.from(s.files[from.key]!.contentBase64, 'base64'));
    return;
  }
  makeDirectory(s, to);
  if (!recurse) return;
  for (const child of entries(s, from)) copyTree(s, child, filePath(`${to.display}\\${baseName(child)}`), true);
}

/** Where a copy or move lands: into an existing directory, else at the path (whose directory must exist). */
function landing(s: NodeState, from: WinPath, to: WinPath): WinPath {
  const target = isDir(s, to) ? filePath(`${to.display}\\${baseName(from)}`) : to;
  const parent = parentOf(target);
  if (parent === null || !isDir(s, parent))
    throw new WindowsError(`Could not find a part of the path '${target.display}'.`);
  return target;
}

function fileSystemPaths(a: Record<string, unknown>): { from: WinPath; to: WinPath } {
  const from = locate(str(a, 'source'));
  const to = locate(str(a, 'destination'));
  if (from.provider !== 'FileSystem' || to.provider !== 'FileSystem')
    throw new Error('the simulated node copies and moves files and directories only, not registry keys');
  return { from: from.p, to: to.p };
}

export const itemTreeOps: Ops = {
  /** Get-ChildItem of one container: its items as Item.Get describes them. */
  'Item.Children': (node, a) => {
    const s = node.state;
    const at = locate(str(a, 'path'));
    if (at.provider === 'Registry')
      return subKeyNames(s, at.p).map((n) => registryItem(s, registryPath(`${at.p.display}\\${n}`)));
    return entries(s, at.p).map((p) => fileSystemItem(s, p));
  },

  'Item.Copy': (node, a) => {
    const s = node.state;
    const { from, to } = fileSystemPaths(a);
    copyTree(s, from, landing(s, from, to), a.recurse === true);
    return null;
  },

  'Item.Move': (node, a) => {
    const s = node.state;
    const { from, to } = fileSystemPaths(a);
    const target = landing(s, from, to);
    if (isFile(s, target) || isDir(s, target))
      throw new WindowsError('Cannot create a file when that file already exists.');
    copyTree(s, from, target, true);
    const base = `${from.key}\\`;
    for (const k of Object.keys(s.files)) if (k === from.key || k.startsWith(base)) delete s.files[k];
    for (const k of Object.keys(s.directories)) if (k === from.key || k.startsWith(base)) delete s.directories[k];
    return null;
  },
};
