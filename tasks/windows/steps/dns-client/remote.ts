// The DNS client's remote functions (Tcpip\Parameters `NV Domain`, the global suffix search list), one
// .ps1 file each in this folder.
import { z } from 'zod';
import { powerShellFile, psList, stepRemote } from '../step-remote.js';

export const DNS_CLIENT_REMOTE = stepRemote({
  /** primaryDomain: Tcpip\Parameters `NV Domain` (null when unset); suffixSearchList: Get-DnsClientGlobalSetting. */
  'Get-PlayDnsClient': {
    args: z.strictObject({}),
    result: z.strictObject({ primaryDomain: z.string().nullable(), suffixSearchList: psList(z.string()) }),
    body: powerShellFile(import.meta.url, './Get-PlayDnsClient.ps1'),
  },
  'Set-PlayDnsClient': {
    args: z.strictObject({ primaryDomain: z.string().optional(), suffixSearchList: z.array(z.string()).optional() }),
    result: z.strictObject({}),
    body: powerShellFile(import.meta.url, './Set-PlayDnsClient.ps1'),
  },
});
