// Option schemas shared by the Windows steps: Windows paths, registry paths, names and lists of
// them. Values are data to the remote half (JSON arguments), so these checks are about meaning, not
// quoting: a name that PowerShell would read as a wildcard, a path that is not absolute, a line
// break where Windows allows none.
import { z } from 'zod';
import { nonEmpty } from '../../../runner/core/step-options.js';
import { accepted, checked, quoted, type Refuse } from './checked.js';

/** Characters Windows forbids in a path component (and the wildcards of -Path parameters). */
const ILLEGAL_IN_PATH = /[<>"|?*\u0000-\u001f]/;

/**
 * An absolute path on a drive, `C:\k\kubelet.exe` (forward slashes are turned into backslashes;
 * no `.` or `..` parts, no trailing separator). UNC and relative paths are refused: a step must
 * not depend on the session's current directory or on network shares being mounted.
 */
export function normalizeWindowsPath(value: string, refuse: Refuse): string {
  const path = value.replace(/\//g, '\\');
  const m = /^([A-Za-z]):\\(.*)$/.exec(path);
  if (!m) refuse(`must be an absolute Windows path such as C:\\k\\file.txt, got ${JSON.stringify(value)}`);
  const parts = m[2]!.split('\\');
  if (m[2] === '' || parts.some((p) => p === ''))
    refuse(
      `must name a file or directory below the drive, without empty parts or a trailing \\, got ${JSON.stringify(value)}`,
    );
  for (const p of parts) {
    if (p === '.' || p === '..') refuse(`must not contain '.' or '..' parts, got ${JSON.stringify(value)}`);
    if (ILLEGAL_IN_PATH.test(p) || p.includes(':'))
      refuse(
        `contains a character Windows does not allow in a path (< > : " | ? * or a control character): ${JSON.stringify(value)}`,
      );
    if (/[ .]$/.test(p))
      refuse(`has a part ending in a space or dot, which Windows silently drops: ${JSON.stringify(value)}`);
  }
  return `${m[1]!.toUpperCase()}:\\${parts.join('\\')}`;
}

/** An absolute Windows path, normalized (normalizeWindowsPath). */
export const windowsPath = () => checked(nonEmpty(), normalizeWindowsPath);

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
export const registryPath = () =>
  checked(nonEmpty(), (value: string, refuse: Refuse) => {
    const m = /^(?:Registry::)?([A-Za-z_]+):?\\(.+)$/.exec(value);
    const hive = m ? HIVES[m[1]!.toUpperCase()] : undefined;
    if (!m || !hive)
      refuse(`must be a registry key path such as HKLM:\\SOFTWARE\\Vendor, got ${JSON.stringify(value)}`);
    const parts = m[2]!.split('\\');
    if (parts.some((p) => p === '' || /[\u0000-\u001f]/.test(p)))
      refuse(`must not have empty parts or control characters, got ${JSON.stringify(value)}`);
    return `${hive}:\\${parts.join('\\')}`;
  });

/** A non-empty string matching `pattern`, described for the error message. */
export const textMatching = (pattern: RegExp, description: string) =>
  nonEmpty().refine((v) => pattern.test(v), { error: (iss) => `must be ${description}, got ${quoted(iss.input)}` });

/** One line of text: no line break or NUL (what sc.exe and nssm store does not survive them). Non-empty unless `base` allows it. */
export const oneLine = (base: z.ZodString = nonEmpty()) =>
  base.refine((v) => !/[\r\n\0]/.test(v), { error: 'must be one line (no line break or NUL)' });

/** A list of the values `each` accepts. */
export const listOf = <T extends z.ZodType>(each: T) =>
  z.array(each, {
    error: (iss) =>
      iss.code === 'invalid_type'
        ? `must be an array of strings, got ${iss.input === null ? 'null' : typeof iss.input}`
        : undefined,
  });

/** A Windows service name: letters, digits, `_ . -` (no spaces, wildcards or quotes). */
export const SERVICE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,255}$/;

/** A service name as a step's own name. */
export const serviceName = () => textMatching(SERVICE_NAME, 'a service name such as kubelet (letters, digits, _ . -)');

/** A service name in a list (dependencies, services to wait for). */
export const listedServiceName = () =>
  accepted<string>(
    (v) => typeof v === 'string' && SERVICE_NAME.test(v),
    (v) => `must be a service name, got ${JSON.stringify(v)}`,
  );

/** A KB number, upper-cased: KB4549949. */
export const kbNumber = () =>
  checked(nonEmpty(), (value: string, refuse: Refuse) => {
    const kb = value.toUpperCase();
    if (!/^KB[0-9]{6,8}$/.test(kb)) refuse(`must be a KB number such as KB4549949, got ${JSON.stringify(value)}`);
    return kb;
  });

/** The path of an .msu file on the host. */
export const msuPath = () =>
  windowsPath().refine((v) => /\.msu$/i.test(v), {
    error: (iss) => `must name an .msu file, got ${JSON.stringify(iss.input)}`,
  });
