// nssm's remote functions (`nssm get`, `nssm install|set|reset`), one .ps1 file each in this folder,
// run through Invoke-Native (remote/ps-native.ts: AppParameters such as `--resolv-conf=""` reach nssm
// unchanged). Both find nssm.exe with Find-Nssm.ps1: on the PATH, else C:\k\nssm.exe (field notes B, D).
import { z } from 'zod';
import { INVOKE_NATIVE } from '../../remote/ps-native.js';
import { powerShellFile, stepRemote } from '../step-remote.js';

const FIND_NSSM = powerShellFile(import.meta.url, './Find-Nssm.ps1');
const withNssm = (file: string) => `${INVOKE_NATIVE}\n${FIND_NSSM}${powerShellFile(import.meta.url, file)}`;

export const NSSM_SERVICE_REMOTE = stepRemote({
  /**
   * Raw `nssm get NAME <parameter>` outputs (nssm writes UTF-16LE; decoded); null unless the service
   * exists and its ImagePath runs nssm.exe.
   */
  'Get-PlayNssmService': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({
        Application: z.string(),
        AppParameters: z.string(),
        AppDirectory: z.string(),
        DependOnService: z.string(),
      })
      .nullable(),
    body: withNssm('./Get-PlayNssmService.ps1'),
  },
  'Set-PlayNssmService': {
    args: z.strictObject({
      name: z.string(),
      install: z.boolean(),
      application: z.string().optional(),
      appParameters: z.string().optional(),
      appDirectory: z.string().optional(),
      dependOnService: z.array(z.string()).optional(),
    }),
    result: z.strictObject({}),
    body: withNssm('./Set-PlayNssmService.ps1'),
  },
});
