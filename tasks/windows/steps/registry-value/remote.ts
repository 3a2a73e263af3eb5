// A registry value's remote functions, one .ps1 file each in this folder, with their nested helpers
// (registry-key.ps1) prepended: the .NET Microsoft.Win32 API on the 64-bit view, which keeps value
// kinds exact (Get-ItemProperty cannot tell String from ExpandString and returns DWords as signed numbers).
import { z } from 'zod';
import { powerShellFile, stepRemote } from '../step-remote.js';

export const REGISTRY_TYPE = z.enum(['String', 'ExpandString', 'DWord', 'QWord', 'MultiString', 'Binary']);
export type RegistryType = z.infer<typeof REGISTRY_TYPE>;

const REGISTRY_DATA = z.union([z.string(), z.number(), z.array(z.string())]);
const REGISTRY_KEY = powerShellFile(import.meta.url, './registry-key.ps1');

export const REGISTRY_VALUE_REMOTE = stepRemote({
  /**
   * path: `HKLM:\\...` (also HKCU:, HKCR:, HKU:), the 64-bit view; name `(default)` is the key's default
   * value. data by type: String/ExpandString a string (ExpandString not expanded), DWord/QWord an
   * unsigned number, MultiString a string[], Binary lowercase hex ('' when empty). type may also be
   * None or Unknown (RegistryValueKind of a value no step writes, data then a string): the step
   * reads that as a type to replace.
   */
  'Get-PlayRegistryValue': {
    args: z.strictObject({ /** HKLM:\\SOFTWARE\\... */ path: z.string(), name: z.string() }),
    result: z
      .strictObject({ type: z.enum([...REGISTRY_TYPE.options, 'None', 'Unknown']), data: REGISTRY_DATA })
      .nullable(),
    body: `${REGISTRY_KEY}\n${powerShellFile(import.meta.url, './Get-PlayRegistryValue.ps1')}`,
  },
  'Set-PlayRegistryValue': {
    args: z.strictObject({ path: z.string(), name: z.string(), type: REGISTRY_TYPE, data: REGISTRY_DATA }),
    result: z.strictObject({}),
    body: `${REGISTRY_KEY}\n${powerShellFile(import.meta.url, './Set-PlayRegistryValue.ps1')}`,
  },
});
