// Option checks shared by the Windows steps: Windows paths, registry paths and names. Values are
// data to the remote half (JSON arguments), so these checks are about meaning, not quoting: a
// name that PowerShell would read as a wildcard, a path that is not absolute, a line break where
// Windows allows none.
import type { OptionReader } from '../../../runner/core/options.js';

/** Characters Windows forbids in a path component (and the wildcards of -Path parameters). */
const ILLEGAL_IN_PATH = /[<>"|?*\u0000-\u001f]/;

/**
 * An absolute path on a drive, `C:\k\kubelet.exe` (forward slashes are turned into backslashes;
 * no `.` or `..` parts, no trailing separator). UNC and relative paths are refused: a step must
 * not depend on the session's current directory or on network shares being mounted.
 */
export function windowsPath(r: OptionReader, field: string, value = r.nonEmpty(field)): string {
  const path = value.replace(/\//g, '\\');
  const m = /^([A-Za-z]):\\(.*)$/.exec(path);
  if (!m) r.fail(field, `must be an absolute Windows path such as C:\\k\\file.txt, got ${JSON.stringify(value)}`);
  const parts = m[2]!.split('\\');
  if (m[2] === '' || parts.some((p) => p === ''))
    r.fail(
      field,
      `must name a file or directory below the drive, without empty parts or a trailing \\, got ${JSON.stringify(value)}`,
    );
  for (const p of parts) {
    if (p === '.' || p === '..') r.fail(field, `must not contain '.' or '..' parts, got ${JSON.stringify(value)}`);
    if (ILLEGAL_IN_PATH.test(p) || p.includes(':'))
      r.fail(
        field,
        `contains a character Windows does not allow in a path (< > : " | ? * or a control character): ${JSON.stringify(value)}`,
      );
    if (/[ .]$/.test(p))
      r.fail(field, `has a part ending in a space or dot, which Windows silently drops: ${JSON.stringify(value)}`);
  }
  return `${m[1]!.toUpperCase()}:\\${parts.join('\\')}`;
}

const HIVES: Record<string, string> = {
  HKLM: 'HKLM',
  HKEY_LOCAL_MACHINE: 'HKLM',
  HKCU: 'HKCU',
  HKEY_CURRENT_USER: 'HKCU',
  HKCR: 'HKCR',
  HKEY_CLASSES_ROOT: 'HKCR',
  HKU: 'HKU',
  HKEY_USERS: 'HKU',
};

/** `HKLM:\SOFTWARE\...`, also written `HKLM\...` or `HKEY_LOCAL_MACHINE\...`; normalized to `HKLM:\...`. */
export function registryPath(r: OptionReader, field: string): string {
  const value = r.nonEmpty(field);
  const m = /^(?:Registry::)?([A-Za-z_]+):?\\(.+)$/.exec(value);
  const hive = m ? HIVES[m[1]!.toUpperCase()] : undefined;
  if (!m || !hive)
    r.fail(field, `must be a registry key path such as HKLM:\\SOFTWARE\\Vendor, got ${JSON.stringify(value)}`);
  const parts = m[2]!.split('\\');
  if (parts.some((p) => p === '' || /[\u0000-\u001f]/.test(p)))
    r.fail(field, `must not have empty parts or control characters, got ${JSON.stringify(value)}`);
  return `${hive}:\\${parts.join('\\')}`;
}

/** A string matching `pattern`, described for the error message. */
export function matching(r: OptionReader, field: string, pattern: RegExp, description: string): string {
  const v = r.nonEmpty(field);
  if (!pattern.test(v))
    r.fail(field, `must be ${description}, got ${JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v)}`);
  return v;
}

/** One line of text: no line break or NUL (what sc.exe and nssm store does not survive them). */
export function oneLine(r: OptionReader, field: string, optional?: 'optional'): string | undefined {
  const v = optional ? r.string(field, optional) : r.nonEmpty(field);
  if (v === undefined) return undefined;
  if (/[\r\n\0]/.test(v)) r.fail(field, 'must be one line (no line break or NUL)');
  return v;
}

/** A list of strings, each checked by `each`. */
export function stringList(
  r: OptionReader,
  field: string,
  each: (v: unknown, at: string) => string,
): string[] | undefined {
  const v = r.opts[field];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) r.fail(field, `must be an array of strings, got ${v === null ? 'null' : typeof v}`);
  return v.map((x, i) => each(x, `${field}[${i}]`));
}

/** A Windows service name: letters, digits, `_ . -` (no spaces, wildcards or quotes). */
export const SERVICE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,255}$/;
