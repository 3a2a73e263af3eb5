// The optional components' remote functions (Get-WindowsFeature / Install-WindowsFeature, and
// Get-WindowsCapability / Add-WindowsCapability -Online), one .ps1 file each in this folder. States
// are converted to strings there, because ConvertTo-Json in 5.1 writes enums as numbers.
import { z } from 'zod';
import { powerShellFile, stepRemote } from '../step-remote.js';

export const WINDOWS_FEATURE_REMOTE = stepRemote({
  /** InstallState other than these four (UninstallPending) reads as Available; null: no such feature. */
  'Get-PlayWindowsFeature': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({ name: z.string(), installState: z.enum(['Installed', 'Available', 'InstallPending', 'Removed']) })
      .nullable(),
    body: powerShellFile(import.meta.url, './Get-PlayWindowsFeature.ps1'),
  },
  'Install-PlayWindowsFeature': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject({ restartNeeded: z.boolean() }),
    body: powerShellFile(import.meta.url, './Install-PlayWindowsFeature.ps1'),
  },
  /** DISM states other than Installed and InstallPending (Staged, Removed, ...) read as NotPresent. */
  'Get-PlayWindowsCapability': {
    args: z.strictObject({ /** OpenSSH.Server~~~~0.0.1.0 */ name: z.string() }),
    result: z
      .strictObject({ name: z.string(), state: z.enum(['Installed', 'NotPresent', 'InstallPending']) })
      .nullable(),
    body: powerShellFile(import.meta.url, './Get-PlayWindowsCapability.ps1'),
  },
  'Add-PlayWindowsCapability': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject({ restartNeeded: z.boolean() }),
    body: powerShellFile(import.meta.url, './Add-PlayWindowsCapability.ps1'),
  },
});
