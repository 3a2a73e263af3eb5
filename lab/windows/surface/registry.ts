// The registry as [Microsoft.Win32.RegistryKey] (the host's shim) and the registry provider of
// mock/Items.psm1 see it: the model's stored keys (registry-store.ts) with the derived keys of
// registry-views.ts laid over them. Keys are named as RegistryKey names them: a hive
// (`HKEY_LOCAL_MACHINE`) and a subkey path (`SOFTWARE\...`, '' for the hive itself).
//
// Values cross as .NET holds them: DWord/QWord the raw SIGNED number (0xFFFFFFFF is -1), Binary as
// base64, MultiString a list, and the default value named ''. The model keeps the contract's form
// (unsigned numbers, hex bytes, the default value named '(default)').
import type { RegistryType } from '../../../runner/testing/index.js';
import { WindowsError } from '../errors.js';
import {
  coerceRegistryData,
  createKey,
  deleteStoredKeyTree,
  deleteValue,
  getKey,
  isAtOrBelow,
  isHiveRoot,
  setValue,
  storedSubKeyNames,
} from '../registry-store.js';
import type { NodeState, RegistryData, RegistryValue } from '../node-state.js';
import { registryPath, type WinPath } from '../win-paths.js';
import { ACCESS_DENIED, insideVirtualKey, removeVirtualKeys, virtualKeys } from './registry-views.js';
import { type Args, type Ops, str } from './types.js';

const HIVES: Record<string, string> = {
  HKEY_LOCAL_MACHINE: 'HKLM',
  HKEY_CURRENT_USER: 'HKCU',
  HKEY_CLASSES_ROOT: 'HKCR',
  HKEY_USERS: 'HKU',
};
const HIVE_NAMES = Object.fromEntries(Object.entries(HIVES).map(([k, v]) => [v, k]));

/** .NET's text for a key deleted while a program held it open. */
const DELETED_KEY = 'Illegal operation attempted on a registry key that has been marked for deletion.';

/** `{hive: 'HKEY_LOCAL_MACHINE', path: 'SOFTWARE\x'}` as the model's `HKLM:\SOFTWARE\x`. */
export function keyOf(a: Args): WinPath {
  const hive = HIVES[str(a, 'hive').toUpperCase()];
  if (!hive) throw new Error(`the simulated registry has no hive ${str(a, 'hive')}`);
  return registryPath(`${hive}:\\${str(a, 'path')}`);
}

/** The key as RegistryKey names it: `HKEY_LOCAL_MACHINE\SOFTWARE\x`. */
export function nativeName(p: WinPath): { hive: string; subKey: string; name: string } {
  const [drive, ...rest] = p.display.split('\\');
  const hive = HIVE_NAMES[drive!.slice(0, -1)]!;
  const subKey = rest.filter((x) => x !== '').join('\\');
  return { hive, subKey, name: subKey === '' ? hive : `${hive}\\${subKey}` };
}

export function keyExists(s: NodeState, p: WinPath): boolean {
  if (isHiveRoot(p) || getKey(s, p.display)) return true;
  for (const key of virtualKeys(s).keys()) if (isAtOrBelow(key, p)) return true;
  return false;
}

/** Subkey names, sorted as the registry returns them. */
export function subKeyNames(s: NodeState, p: WinPath): string[] {
  const names = new Map(storedSubKeyNames(s, p).map((n) => [n.toLowerCase(), n]));
  const base = p.key.endsWith('\\') ? p.key.length : p.key.length + 1;
  for (const k of virtualKeys(s).values()) {
    const q = registryPath(k.path);
    if (q.key !== p.key && isAtOrBelow(q.key, p)) {
      const name = q.display.slice(base).split('\\')[0]!;
      if (!names.has(name.toLowerCase())) names.set(name.toLowerCase(), name);
    }
  }
  return [...names.values()].sort((x, y) => x.toLowerCase().localeCompare(y.toLowerCase()));
}

/** The key's values in the model's form, stored ones first, the derived ones over them. */
function valuesOf(s: NodeState, p: WinPath): RegistryValue[] {
  const out = new Map<string, RegistryValue>();
  for (const v of Object.values(getKey(s, p.display)?.values ?? {})) out.set(v.name.toLowerCase(), v);
  for (const v of virtualKeys(s).get(p.key)?.values ?? []) out.set(v.name.toLowerCase(), v);
  return [...out.values()];
}

const toNativeName = (name: string) => (name === '(default)' ? '' : name);
const toModelName = (name: string) => (name === '' ? '(default)' : name);

/** A value as .NET's RegistryKey.GetValue holds it. */
function toNative(v: RegistryValue): { name: string; type: RegistryType; data: unknown } {
  const name = toNativeName(v.name);
  switch (v.type) {
    case 'DWord':
      return { name, type: v.type, data: (v.data as number) | 0 };
    case 'QWord':
      return { name, type: v.type, data: Number(BigInt.asIntN(64, BigInt(v.data as number))) };
    case 'Binary':
      return { name, type: v.type, data: Buffer.from(v.data as string, 'hex').toString('base64') };
    case 'MultiString':
      return { name, type: v.type, data: [...(v.data as string[])] };
    default:
      return { name, type: v.type, data: String(v.data) };
  }
}

/** Data as RegistryKey.SetValue received it, in the model's form. */
function fromNative(type: RegistryType, data: unknown): RegistryData {
  switch (type) {
    case 'DWord':
      if (typeof data !== 'number' || !Number.isInteger(data)) throw new Error(`DWord data ${JSON.stringify(data)}`);
      return data >>> 0;
    case 'QWord': {
      if (typeof data !== 'number' || !Number.isInteger(data)) throw new Error(`QWord data ${JSON.stringify(data)}`);
      const unsigned = BigInt.asUintN(64, BigInt(data));
      if (unsigned > BigInt(Number.MAX_SAFE_INTEGER))
        throw new Error(`the simulated registry holds QWord values up to 2^53, not ${unsigned}`);
      return Number(unsigned);
    }
    case 'Binary':
      return Buffer.from(String(data), 'base64').toString('hex');
    default:
      return coerceRegistryData(type, data);
  }
}

function mustExist(s: NodeState, p: WinPath): void {
  if (!keyExists(s, p)) throw new WindowsError(DELETED_KEY);
}

function mustBeWritable(s: NodeState, p: WinPath): void {
  if (insideVirtualKey(s, p)) throw new WindowsError(ACCESS_DENIED);
}

/** RegistryKey.DeleteSubKeyTree: the stored keys go, and the views change the model for theirs. */
export function deleteKeyTree(s: NodeState, p: WinPath): void {
  if (isHiveRoot(p)) throw new WindowsError("Cannot delete a registry hive's subtree.");
  removeVirtualKeys(s, p);
  deleteStoredKeyTree(s, p);
}

export const registryOps: Ops = {
  'Registry.KeyExists': (node, a) => keyExists(node.state, keyOf(a)),

  /** CreateSubKey: opens the key if it exists, else creates it and its parents. */
  'Registry.CreateKey': (node, a) => {
    const p = keyOf(a);
    if (keyExists(node.state, p)) return null;
    mustBeWritable(node.state, p);
    createKey(node.state, p.display);
    return null;
  },

  'Registry.ValueNames': (node, a) => {
    const p = keyOf(a);
    mustExist(node.state, p);
    return valuesOf(node.state, p).map((v) => toNativeName(v.name));
  },

  'Registry.SubKeyNames': (node, a) => {
    const p = keyOf(a);
    mustExist(node.state, p);
    return subKeyNames(node.state, p);
  },

  /** Every value of the key with its kind and data (what Get-ItemProperty lists). */
  'Registry.Values': (node, a) => {
    const p = keyOf(a);
    mustExist(node.state, p);
    return valuesOf(node.state, p).map(toNative);
  },

  'Registry.GetValue': (node, a) => {
    const p = keyOf(a);
    mustExist(node.state, p);
    const name = toModelName(str(a, 'name')).toLowerCase();
    const v = valuesOf(node.state, p).find((x) => x.name.toLowerCase() === name);
    return v ? { type: v.type, data: toNative(v).data } : null;
  },

  'Registry.SetValue': (node, a) => {
    const p = keyOf(a);
    mustExist(node.state, p);
    mustBeWritable(node.state, p);
    const type = str(a, 'type') as RegistryType;
    setValue(node.state, p.display, toModelName(str(a, 'name')), type, fromNative(type, a.data));
    return null;
  },

  /** RegistryKey.DeleteValue(name): a missing value is an error. */
  'Registry.DeleteValue': (node, a) => {
    const p = keyOf(a);
    mustExist(node.state, p);
    mustBeWritable(node.state, p);
    const name = toModelName(str(a, 'name'));
    if (!valuesOf(node.state, p).some((v) => v.name.toLowerCase() === name.toLowerCase()))
      throw new WindowsError('No value exists with that name.');
    deleteValue(node.state, p.display, name);
    return null;
  },

  /** RegistryKey.DeleteSubKeyTree (Remove-Item -Recurse, New-Item -Force over an existing key). */
  'Registry.DeleteKey': (node, a) => {
    const p = keyOf(a);
    if (!keyExists(node.state, p)) throw new WindowsError('The specified registry key does not exist.');
    deleteKeyTree(node.state, p);
    return null;
  },
};
