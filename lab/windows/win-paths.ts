// Windows paths in the simulated node (a test double): file system and registry paths are
// case-insensitive and take either separator; each normalizes to a display form (as written, with
// backslashes) and a key (lower case) the model indexes by.
import { WindowsError } from './errors.js';

export interface WinPath {
  /** `C:\k\kubelet.exe`: the drive upper-cased, the rest as first written. */
  readonly display: string;
  /** `c:\k\kubelet.exe`: what the model indexes by. */
  readonly key: string;
}

/** PowerShell's working directory in an OpenSSH session of Administrator. */
export const HOME = 'C:\\Users\\Administrator';

const ILLEGAL = /[<>"|?*\u0000-\u001f]/;

function fromSegments(drive: string, segments: readonly string[]): WinPath {
  const display = `${drive.toUpperCase()}:\\${segments.join('\\')}`;
  return { display, key: display.toLowerCase() };
}

/** Normalizes a file system path; a relative one is taken from the session's home directory. */
export function filePath(raw: string): WinPath {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new WindowsError("Cannot bind argument to parameter 'Path' because it is an empty string.");
  let rest = raw.replace(/\//g, '\\');
  let drive = HOME[0]!;
  const base: string[] = [];
  const m = /^([A-Za-z]):(.*)$/.exec(rest);
  if (m) {
    drive = m[1]!;
    rest = m[2]!;
    if (!rest.startsWith('\\')) base.push(...HOME.slice(3).split('\\')); // C:foo: relative to C:'s current directory
  } else if (!rest.startsWith('\\')) {
    base.push(...HOME.slice(3).split('\\'));
  }
  const segments = [...base];
  for (const part of rest.split('\\')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      segments.pop();
      continue;
    }
    if (ILLEGAL.test(part) || part.includes(':')) throw new WindowsError('Illegal characters in path.');
    segments.push(part);
  }
  return fromSegments(drive, segments);
}

/** The parent directory, or null for a drive root. */
export function parentOf(p: WinPath): WinPath | null {
  const i = p.display.lastIndexOf('\\');
  if (p.display.length <= 3 || i < 2) return null;
  const display = i === 2 ? p.display.slice(0, 3) : p.display.slice(0, i);
  return { display, key: display.toLowerCase() };
}

/** Every ancestor from the drive root down, without the path itself. */
export function ancestorsOf(p: WinPath): WinPath[] {
  const out: WinPath[] = [];
  for (let q = parentOf(p); q; q = parentOf(q)) out.unshift(q);
  return out;
}

export function baseName(p: WinPath): string {
  return p.display.slice(p.display.lastIndexOf('\\') + 1);
}

const HIVES: Record<string, string> = {
  hklm: 'HKLM',
  hkey_local_machine: 'HKLM',
  hkcu: 'HKCU',
  hkey_current_user: 'HKCU',
  hkcr: 'HKCR',
  hkey_classes_root: 'HKCR',
  hku: 'HKU',
  hkey_users: 'HKU',
};

/** Normalizes `HKLM:\SOFTWARE\x`, `HKEY_LOCAL_MACHINE\SOFTWARE\x` or `Registry::HKEY_LOCAL_MACHINE\SOFTWARE\x`. */
export function registryPath(raw: string): WinPath {
  if (typeof raw !== 'string' || raw.trim() === '')
    throw new WindowsError("Cannot bind argument to parameter 'Path' because it is an empty string.");
  const text = raw.replace(/^(Microsoft\.PowerShell\.Core\\)?Registry::/i, '').replace(/\//g, '\\');
  const m = /^([A-Za-z_]+):?(?:\\(.*))?$/.exec(text);
  const hive = m ? HIVES[m[1]!.toLowerCase()] : undefined;
  if (!m || !hive) {
    const name = text.split(/[:\\]/)[0] ?? text;
    throw new WindowsError(`Cannot find drive. A drive with the name '${name}' does not exist.`);
  }
  const segments = (m[2] ?? '').split('\\').filter((s) => s !== '');
  const display = `${hive}:\\${segments.join('\\')}`;
  return { display, key: display.toLowerCase() };
}

/** True for a path PowerShell would resolve in the registry provider (Test-Path HKLM:\...). */
export function isRegistryPath(raw: string): boolean {
  return /^(Microsoft\.PowerShell\.Core\\)?(Registry::|HKLM:|HKCU:|HKCR:|HKU:|HKEY_[A-Z_]+\\)/i.test(raw);
}
