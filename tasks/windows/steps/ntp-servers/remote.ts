// The NTP client's remote functions (the DateTime\Servers values, W32Time and w32tm), one .ps1 file
// each in this folder; Set-PlayNtp runs w32tm.exe through Invoke-Native (remote/ps-native.ts).
import { z } from 'zod';
import { INVOKE_NATIVE } from '../../remote/ps-native.js';
import { powerShellFile, psList, stepRemote } from '../step-remote.js';

export const NTP_SERVERS_REMOTE = stepRemote({
  /** DateTime\Servers values 1..n and (default), w32time start mode, w32tm manual peer list and flags. */
  'Get-PlayNtp': {
    args: z.strictObject({}),
    result: z.strictObject({
      servers: psList(z.string()),
      defaultIndex: z.string().nullable(),
      manualPeerList: z.string(),
      syncFromFlags: z.string(),
      w32timeStartMode: z.enum(['Auto', 'Manual', 'Disabled']),
      /** W32Time runs now (Set-PlayNtp starts it). */
      w32timeRunning: z.boolean(),
    }),
    body: powerShellFile(import.meta.url, './Get-PlayNtp.ps1'),
  },
  'Set-PlayNtp': {
    args: z.strictObject({ servers: z.array(z.string()) }),
    result: z.strictObject({}),
    body: `${INVOKE_NATIVE}\n${powerShellFile(import.meta.url, './Set-PlayNtp.ps1')}`,
  },
});
