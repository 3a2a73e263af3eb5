// The destructive network clean-up's remote functions (HNS networks through Invoke-Hns, ghost adapters'
// Enum keys, the token and boot time recorded under HKLM:\SOFTWARE\Play\NetworkCleanup), one .ps1 file
// each in this folder; both begin with INVOKE_HNS (remote/ps-invoke-hns.ts).
import { z } from 'zod';
import { INVOKE_HNS } from '../../remote/ps-invoke-hns.js';
import { powerShellFile, psList, stepRemote } from '../step-remote.js';

export const NETWORK_CLEANUP_REMOTE = stepRemote({
  /**
   * token: HKLM:\SOFTWARE\Play\NetworkCleanup `Token`, written by the last clean-up (null: never
   * ran); rebootPending: the node has not booted since that clean-up (its BootTime value is the
   * current LastBootUpTime); what a clean-up would remove now: every HNS network, and the network devices in state
   * Error (ghost virtual adapters, `Get-PnpDevice -Class Net | ? Status -eq Error`).
   */
  'Get-PlayNetworkCleanup': {
    args: z.strictObject({}),
    result: z.strictObject({
      token: z.string().nullable(),
      rebootPending: z.boolean(),
      hnsNetworks: psList(z.string()),
      ghostAdapters: psList(z.strictObject({ instanceId: z.string(), friendlyName: z.string() })),
    }),
    body: `${INVOKE_HNS}\n${powerShellFile(import.meta.url, './Get-PlayNetworkCleanup.ps1')}`,
  },
  /**
   * Removes them (ghosts: their HKLM\SYSTEM\CurrentControlSet\Enum keys, docs/field-notes.md#a-network-clean-up-and-nics),
   * then records the token; a reboot completes it. netcfg -d is left out on purpose: it clears every
   * adapter's IP configuration at the next boot, including the one this SSH session uses ("needs a
   * console login to reconfigure").
   */
  'Invoke-PlayNetworkCleanup': {
    args: z.strictObject({ token: z.string(), removeHnsNetworks: z.boolean(), removeGhostAdapters: z.boolean() }),
    result: z.strictObject({ removedNetworks: psList(z.string()), removedAdapters: psList(z.string()) }),
    body: `${INVOKE_HNS}\n${powerShellFile(import.meta.url, './Invoke-PlayNetworkCleanup.ps1')}`,
  },
});
