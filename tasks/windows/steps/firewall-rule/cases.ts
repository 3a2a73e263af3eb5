// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { FIREWALL_RULE_REMOTE } from './remote.js';
import { firewallRule } from './step.js';

const KUBELET = {
  name: 'kubelet',
  displayName: 'kubelet',
  enabled: true,
  direction: 'Inbound',
  protocol: 'TCP',
  localPort: '10250',
  action: 'Allow',
};

export const CASES: StepCases<typeof FIREWALL_RULE_REMOTE> = {
  'Get-PlayFirewallRule': {
    happy: { args: { name: 'WINRM-HTTP-In-TCP' }, expect: (v) => v.localPort === '5985' && v.enabled === true },
    failure: { args: { name: 'nosuch' }, expect: (v) => v === null },
  },
  'Set-PlayFirewallRule': {
    happy: { args: KUBELET, expect: (v) => typeof v === 'object' },
    failure: { args: { ...KUBELET, direction: 'Sideways' }, expect: /Sideways/ },
  },
};

export const SYNTAX_CASES: SyntaxCases = ({ text }) => ({
  firewallRule: [
    () =>
      firewallRule({
        name: "sshd $(x) ‘y’ 'z'",
        displayName: text,
        protocol: 'TCP',
        localPort: [22, '8000-8100'],
      }),
  ],
});
