// Where a PowerShell path leads, for the item cmdlets of mock/Items.psm1 (Get-Item, Test-Path,
// New-Item, Remove-Item): the FileSystem provider (C:\..., or relative to the session's home) or
// the Registry provider (HKLM:\ and HKCU:\, or Registry::HKEY_... for any hive). The rules of
// each live in files.ts and registry.ts; this file only routes, and names a drive the node lacks.
import { WindowsError } from '../errors.js';
import { createKey } from '../registry-store.js';
import type { NodeState } from '../node-state.js';
import { filePath, parentOf, registryPath, type WinPath } from '../win-paths.js';
import { driveExists, fileItem, newDirectory, newFile, removeFileItem } from './files.js';
import { deleteKeyTree, keyExists, nativeName, subKeyNames } from './registry.js';
import { ACCESS_DENIED, insideVirtualKey } from './registry-views.js';
import { type Ops, optStr, str } from './types.js';

type Located = { provider: 'FileSystem'; p: WinPath } | { provider: 'Registry'; p: WinPath };

/** Windows PowerShell 5.1 maps only these two hives to drives; HKCR and HKU are reached as Registry::HKEY_... */
const REGISTRY_DRIVES = new Set(['hklm', 'hkcu']);
/** Drives every PowerShell has that no program of ours uses: a gap of the simulator, said plainly. */
const UNMODELLED_DRIVES = new Set(['env', 'function', 'variable', 'alias', 'cert', 'wsman']);

const driveNotFound = (name: string) =>
  new WindowsError(`Cannot find drive. A drive with the name '${name}' does not exist.`);

export function locate(raw: string): Located {
  if (/^(Microsoft\.PowerShell\.Core\\)?Registry::/i.test(raw)) return { provider: 'Registry', p: registryPath(raw) };
  const qualified = /^(?:Microsoft\.PowerShell\.Core\\)?FileSystem::(.*)$/i.exec(raw);
  const text = qualified ? qualified[1]! : raw;
  const drive = /^([^:\\/]+):/.exec(text)?.[1];
  if (drive === undefined) return { provider: 'FileSystem', p: filePath(text) };
  const name = drive.toLowerCase();
  if (/^[a-z]$/.test(name)) {
    const p = filePath(text);
    if (!driveExists(p)) throw driveNotFound(drive);
    return { provider: 'FileSystem', p };
  }
  if (REGISTRY_DRIVES.has(name)) return { provider: 'Registry', p: registryPath(text) };
  if (UNMODELLED_DRIVES.has(name)) throw new Error(`the simulated node does not model the ${drive}: drive`);
  throw driveNotFound(drive);
}

/** A key as PowerShell names it: on its drive (`HKLM:\x`), or provider-qualified for a hive without one. */
function psPath(p: WinPath): string {
  const drive = p.display.slice(0, p.display.indexOf(':')).toLowerCase();
  return REGISTRY_DRIVES.has(drive) ? p.display : `Registry::${nativeName(p).name}`;
}

export function registryItem(s: NodeState, p: WinPath) {
  const { hive, subKey, name } = nativeName(p);
  const up = subKey.includes('\\') ? registryPath(p.display.slice(0, p.display.lastIndexOf('\\'))) : null;
  const parent = subKey === '' ? '' : psPath(up ?? registryPath(p.display.slice(0, p.display.indexOf(':') + 2)));
  const exists = keyExists(s, p);
  return {
    exists,
    provider: 'Registry',
    path: psPath(p),
    hive,
    subKey,
    providerPath: name,
    name: subKey === '' ? hive : subKey.slice(subKey.lastIndexOf('\\') + 1),
    parent,
    container: true,
    hasChildren: exists && subKeyNames(s, p).length > 0,
  };
}

export function fileSystemItem(s: NodeState, p: WinPath) {
  const item = fileItem(s, p);
  const parent = parentOf(p);
  return {
    exists: item !== null,
    provider: 'FileSystem',
    path: item?.path ?? p.display,
    name: item?.name ?? p.display.slice(p.display.lastIndexOf('\\') + 1),
    parent: parent ? parent.display : '',
    container: item?.container ?? false,
    length: item?.length ?? 0,
    hasChildren: item?.hasChildren ?? false,
  };
}

export const itemOps: Ops = {
  /** Where a path leads and what is there (exists false: nothing, with the path as PowerShell words it). */
  'Item.Get': (node, a) => {
    const at = locate(str(a, 'path'));
    return at.provider === 'Registry' ? registryItem(node.state, at.p) : fileSystemItem(node.state, at.p);
  },

  /** Remove-Item on an existing item, children included (the mock asks about -Recurse first). */
  'Item.Remove': (node, a) => {
    const at = locate(str(a, 'path'));
    if (at.provider === 'Registry') deleteKeyTree(node.state, at.p);
    else removeFileItem(node.state, at.p);
    return null;
  },

  /** New-Item -ItemType Directory (parents made too), or -ItemType File with optional text. */
  'Item.New': (node, a) => {
    const at = locate(str(a, 'path'));
    const type = str(a, 'type');
    if (at.provider === 'Registry') {
      if (insideVirtualKey(node.state, at.p)) throw new WindowsError(ACCESS_DENIED);
      createKey(node.state, at.p.display);
    } else if (type === 'Directory') newDirectory(node.state, at.p);
    else newFile(node.state, at.p, Buffer.from(optStr(a, 'text') ?? '', 'utf8'));
    return null;
  },
};
