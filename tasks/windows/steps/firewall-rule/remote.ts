// A Windows Firewall rule's remote functions (Get-NetFirewallRule, its port filter, New-/Set-NetFirewallRule),
// one .ps1 file each in this folder.
import { z } from 'zod';
import { powerShellFile, stepRemote } from '../step-remote.js';

const FIREWALL_RULE = {
  name: z.string(),
  displayName: z.string(),
  enabled: z.boolean(),
  direction: z.enum(['Inbound', 'Outbound']),
  protocol: z.string(),
  localPort: z.string(),
  action: z.enum(['Allow', 'Block']),
};

export const FIREWALL_RULE_REMOTE = stepRemote({
  'Get-PlayFirewallRule': {
    args: z.strictObject({ name: z.string() }),
    result: z.strictObject(FIREWALL_RULE).nullable(),
    body: powerShellFile(import.meta.url, './Get-PlayFirewallRule.ps1'),
  },
  'Set-PlayFirewallRule': {
    args: z.strictObject(FIREWALL_RULE),
    result: z.strictObject({}),
    body: powerShellFile(import.meta.url, './Set-PlayFirewallRule.ps1'),
  },
});
