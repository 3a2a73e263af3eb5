// The NICs' remote functions (found by MAC), one .ps1 file each in this folder. Both begin with
// Find-PlayNic.ps1: the physical adapter with a MAC, and the interface carrying its IP configuration.
// Once an HNS L2Bridge network is bound to a NIC, its addresses live on the vSwitch's host vNIC
// "vEthernet (<name>)", which has the same MAC; configuring the physical NIC then would break it.
import { z } from 'zod';
import { powerShellFile, psList, stepRemote } from '../step-remote.js';

const FIND_NIC = powerShellFile(import.meta.url, './Find-PlayNic.ps1');
const withFindNic = (file: string) => `${FIND_NIC}\n${powerShellFile(import.meta.url, file)}`;

export const NET_ADAPTERS_REMOTE = stepRemote({
  /**
   * The physical adapters with these MACs (00-15-5D-00-00-01 form; missing ones are left out).
   * ipInterface: where the IP configuration lives: the adapter itself, or the vSwitch's host vNIC
   * "vEthernet (<name>)" (same MAC) once an HNS network is bound to it (docs/domain.md#step-8-hns-network). ipv4:
   * "address/prefix" of the static and DHCP addresses (not APIPA); gateway: the 0.0.0.0/0 next hop.
   */
  'Get-PlayNetAdapters': {
    args: z.strictObject({ macAddresses: z.array(z.string()) }),
    result: z.strictObject({
      adapters: psList(
        z.strictObject({
          macAddress: z.string(),
          name: z.string(),
          interfaceIndex: z.number(),
          ipInterface: z.string(),
          dhcp: z.boolean(),
          ipv4: psList(z.string()),
          gateway: z.string().nullable(),
          dnsServers: psList(z.string()),
        }),
      ),
    }),
    body: withFindNic('./Get-PlayNetAdapters.ps1'),
  },
  /**
   * For the adapter with this MAC, the given fields only (on its ipInterface): DNS servers, then
   * ipv4, the exact set of static addresses (DHCP turned off, new ones added before old ones go),
   * then the gateway, the only default route; the adapter is renamed (Rename-NetAdapter) last.
   */
  'Set-PlayNetAdapter': {
    args: z.strictObject({
      macAddress: z.string(),
      newName: z.string().optional(),
      ipv4: z.array(z.string()).optional(),
      gateway: z.string().optional(),
      dnsServers: z.array(z.string()).optional(),
    }),
    result: z.strictObject({}),
    body: withFindNic('./Set-PlayNetAdapter.ps1'),
  },
});
