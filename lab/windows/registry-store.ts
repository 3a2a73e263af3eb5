// The registry of the simulated Windows node (a test double): keys and values are case-insensitive;
// values read back as the contract says: DWord/QWord unsigned, Binary lowercase hex, MultiString a list.
import type { RegistryType } from '../../runner/testing/index.js';
import { WindowsError } from './errors.js';
import type { NodeState, RegistryData, RegistryKey, RegistryValue } from './node-state.js';
import { registryPath, type WinPath } from './win-paths.js';

const TYPES: readonly RegistryType[] = ['String', 'ExpandString', 'DWord', 'QWord', 'MultiString', 'Binary'];

function cannotConvert(data: unknown, type: string, why = ''): WindowsError {
  return new WindowsError(
    `Cannot convert value "${Array.isArray(data) ? data.join(' ') : String(data)}" to type "${type}".${why}`,
  );
}

const RANGE = (t: string) => ` Error: "Value was either too large or too small for a ${t}."`;

/** Checks data against its type and returns it as it would read back. */
export function coerceRegistryData(type: RegistryType, data: unknown): RegistryData {
  if (!TYPES.includes(type)) {
    throw new WindowsError(
      `Cannot convert value "${String(type)}" to type "Microsoft.Win32.RegistryValueKind". Error: "Unable to match the identifier name ${String(type)} to a valid enumerator name. Specify one of the following enumerator names and try again:\nUnknown, String, ExpandString, Binary, DWord, MultiString, QWord, None"`,
    );
  }
  switch (type) {
    case 'String':
    case 'ExpandString':
      // [string]$a.data: a number as text, a list joined with spaces.
      return Array.isArray(data) ? data.join(' ') : String(data);
    case 'DWord': {
      const n = typeof data === 'string' && /^-?\d+$/.test(data.trim()) ? Number(data) : data;
      // [uint32]$a.data, as the steps' Set-PlayRegistryValue converts it.
      if (typeof n !== 'number' || !Number.isInteger(n)) throw cannotConvert(data, 'System.UInt32');
      if (n < 0 || n > 0xffffffff) throw cannotConvert(data, 'System.UInt32', RANGE('UInt32'));
      return n;
    }
    case 'QWord': {
      const n = typeof data === 'string' && /^-?\d+$/.test(data.trim()) ? Number(data) : data;
      if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw cannotConvert(data, 'System.UInt64');
      if (n < 0) throw cannotConvert(data, 'System.UInt64', RANGE('UInt64'));
      return n;
    }
    case 'MultiString':
      if (typeof data === 'string') return [data];
      if (Array.isArray(data) && data.every((x) => typeof x === 'string')) return [...data];
      throw cannotConvert(data, 'System.String[]');
    case 'Binary':
      // Bytes travel as hex in the JSON contract ('' for none).
      if (typeof data === 'string' && /^([0-9A-Fa-f]{2})*$/.test(data)) return data.toLowerCase();
      throw cannotConvert(data, 'System.Byte[]');
  }
}

export function getKey(s: NodeState, raw: string): RegistryKey | undefined {
  return s.registry[registryPath(raw).key];
}

export function getValue(s: NodeState, raw: string, name: string): RegistryValue | null {
  return getKey(s, raw)?.values[name.toLowerCase()] ?? null;
}

/** Creates the key and its parents (New-Item -Force), then sets the value. */
export function setValue(s: NodeState, raw: string, name: string, type: RegistryType, data: unknown): void {
  const p = registryPath(raw);
  const coerced = coerceRegistryData(type, data);
  const segments = p.display.split('\\');
  for (let i = 2; i <= segments.length; i++) {
    const display = segments.slice(0, i).join('\\');
    s.registry[display.toLowerCase()] ??= { path: display, values: {} };
  }
  const key = s.registry[p.key]!;
  const existing = key.values[name.toLowerCase()];
  key.values[name.toLowerCase()] = { name: existing?.name ?? name, type, data: coerced };
}

export function deleteValue(s: NodeState, raw: string, name: string): void {
  const key = getKey(s, raw);
  if (key) delete key.values[name.toLowerCase()];
}

// --- keys as a tree (what RegistryKey and the registry provider see) --------------------------

/** A hive's root (`HKLM:\`) always exists; it is no entry of the model. */
export function isHiveRoot(p: WinPath): boolean {
  return p.display.endsWith(':\\');
}

/** The key and its parents up to the hive, as New-Item -Force and RegistryKey.CreateSubKey make them. */
export function createKey(s: NodeState, raw: string): WinPath {
  const p = registryPath(raw);
  const segments = p.display.split('\\');
  for (let i = 2; i <= segments.length; i++) {
    const display = segments.slice(0, i).join('\\');
    if (display.endsWith(':')) continue;
    s.registry[display.toLowerCase()] ??= { path: display, values: {} };
  }
  return p;
}

/** True for the key itself or any key below it. */
export function isAtOrBelow(key: string, p: WinPath): boolean {
  const base = p.key.endsWith('\\') ? p.key : `${p.key}\\`;
  return key === p.key || key.startsWith(base);
}

/** Stored keys below `p`, one level down, by their display names. */
export function storedSubKeyNames(s: NodeState, p: WinPath): string[] {
  const base = p.key.endsWith('\\') ? p.key : `${p.key}\\`;
  const names = new Map<string, string>();
  for (const k of Object.values(s.registry)) {
    const key = k.path.toLowerCase();
    if (!key.startsWith(base)) continue;
    const name = k.path.slice(base.length).split('\\')[0]!;
    if (name !== '') names.set(name.toLowerCase(), name);
  }
  return [...names.values()];
}

/** Deletes the stored key and everything below it (RegistryKey.DeleteSubKeyTree). */
export function deleteStoredKeyTree(s: NodeState, p: WinPath): void {
  for (const key of Object.keys(s.registry)) if (isAtOrBelow(key, p)) delete s.registry[key];
}
