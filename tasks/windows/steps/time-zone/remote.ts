// The time zone's remote functions: Get-TimeZone and Set-TimeZone, one .ps1 file each in this folder.
import { z } from 'zod';
import { powerShellFile, stepRemote } from '../step-remote.js';

export const TIME_ZONE_REMOTE = stepRemote({
  'Get-PlayTimeZone': {
    args: z.strictObject({}),
    result: z.strictObject({ id: z.string() }),
    body: powerShellFile(import.meta.url, './Get-PlayTimeZone.ps1'),
  },
  'Set-PlayTimeZone': {
    args: z.strictObject({ id: z.string() }),
    result: z.strictObject({}),
    body: powerShellFile(import.meta.url, './Set-PlayTimeZone.ps1'),
  },
});
