// Automatic updates' remote functions (the policy value NoAutoUpdate under
// HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU, and wuauserv), one .ps1 file each in this folder.
import { z } from 'zod';
import { powerShellFile, stepRemote } from '../step-remote.js';

export const AUTO_UPDATE_REMOTE = stepRemote({
  /** HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU NoAutoUpdate / AUOptions. */
  'Get-PlayAutoUpdate': {
    args: z.strictObject({}),
    result: z.strictObject({ noAutoUpdate: z.number().nullable(), auOptions: z.number().nullable() }),
    body: powerShellFile(import.meta.url, './Get-PlayAutoUpdate.ps1'),
  },
  /** scregedit.wsf /AU 1 semantics: net stop wuauserv, NoAutoUpdate=1, net start wuauserv. */
  'Set-PlayAutoUpdate': {
    args: z.strictObject({ enabled: z.boolean() }),
    result: z.strictObject({}),
    body: powerShellFile(import.meta.url, './Set-PlayAutoUpdate.ps1'),
  },
});
