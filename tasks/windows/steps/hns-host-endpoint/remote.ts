// The HNS host endpoint's remote functions (PowerShell 5.1), one .ps1 file each in this folder, calling
// the HNS v1 API through Invoke-Hns (remote/ps-invoke-hns.ts); Set-PlayHnsEndpointHost runs netsh.exe
// through Invoke-Native (remote/ps-native.ts). A host endpoint is attached with POST
// /endpoints/<id>/attach {SystemType: Host, CompartmentId}; its vNIC "vEthernet (<name>)" then appears
// in the host's default compartment (1), where this session runs: the probe reports compartmentId 1
// when it sees that interface, else null.
import { z } from 'zod';
import { INVOKE_HNS } from '../../remote/ps-invoke-hns.js';
import { INVOKE_NATIVE } from '../../remote/ps-native.js';
import { powerShellFile, stepRemote } from '../step-remote.js';

/** What a function that only acts returns: `[ordered]@{}`. */
const DONE = z.strictObject({});

export const HNS_HOST_ENDPOINT_REMOTE = stepRemote({
  /**
   * gateway as HNS stores it ('' when it has none: the step reads that as 0.0.0.0); compartmentId 1
   * when the endpoint's vNIC "vEthernet (<name>)" is in the host's default compartment, else null;
   * forwarding: that vNIC's IPv4 forwarding is enabled.
   */
  'Get-PlayHnsEndpoint': {
    args: z.strictObject({ name: z.string() }),
    result: z
      .strictObject({
        id: z.string(),
        name: z.string(),
        networkName: z.string(),
        ipAddress: z.string(),
        gateway: z.string(),
        compartmentId: z.number().nullable(),
        forwarding: z.boolean(),
      })
      .nullable(),
    body: `\n${INVOKE_HNS}\n${powerShellFile(import.meta.url, './Get-PlayHnsEndpoint.ps1')}`,
  },
  'New-PlayHnsEndpoint': {
    args: z.strictObject({ name: z.string(), networkName: z.string(), ipAddress: z.string(), gateway: z.string() }),
    result: z.strictObject({ id: z.string() }),
    body: `\n${INVOKE_HNS}\n${powerShellFile(import.meta.url, './New-PlayHnsEndpoint.ps1')}`,
  },
  'Remove-PlayHnsEndpoint': {
    args: z.strictObject({ name: z.string() }),
    result: DONE,
    body: `\n${INVOKE_HNS}\n${powerShellFile(import.meta.url, './Remove-PlayHnsEndpoint.ps1')}`,
  },
  /** Attach-HnsHostEndpoint -CompartmentID N (unless the vNIC is already there), then netsh int ipv4 set int "vEthernet (<name>)" for=en|dis. */
  'Set-PlayHnsEndpointHost': {
    args: z.strictObject({ name: z.string(), compartmentId: z.number(), forwarding: z.boolean() }),
    result: DONE,
    body: `\n${INVOKE_NATIVE}${INVOKE_HNS}\n${powerShellFile(import.meta.url, './Set-PlayHnsEndpointHost.ps1')}`,
  },
});
