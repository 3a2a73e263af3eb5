// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { NET_ADAPTERS_REMOTE } from './remote.js';
import { netAdapters } from './step.js';

/** eth0 of the fresh node the cases run on: labMac('node009', 0) (lab/windows/defaults.ts). */
const NIC = '00-15-5D-6D-17-01';

export const CASES: StepCases<typeof NET_ADAPTERS_REMOTE> = {
  'Get-PlayNetAdapters': {
    happy: {
      args: { macAddresses: [NIC] },
      expect: (v) => v.adapters[0].name === 'eth0' && v.adapters[0].dhcp === true,
    },
    failure: { args: { macAddresses: ['00-00-00-00-00-00'] }, expect: (v) => v.adapters.length === 0 },
  },
  'Set-PlayNetAdapter': {
    happy: {
      args: {
        macAddress: NIC,
        newName: 'Ethernet',
        ipv4: ['10.0.0.5/24'],
        gateway: '10.0.0.1',
        dnsServers: ['10.0.0.53'],
      },
      expect: (v) => typeof v === 'object',
    },
    failure: {
      args: { macAddress: '00-00-00-00-00-00', newName: 'x' },
      expect: /there is no physical network adapter with MAC address 00-00-00-00-00-00/,
    },
  },
};

// The NICs at these MACs are the syntax node's (ps-syntax.test.ts seeds them).
export const SYNTAX_CASES: SyntaxCases = () => ({
  netAdapters: [
    () =>
      netAdapters({
        adapters: [
          {
            mac: '00-15-00-00-00-01',
            name: "eth0 $(x) ‘y’ 'z' `w`;",
            ipv4: '172.16.126.216/24',
            gateway: '172.16.126.1',
          },
          {
            mac: '00-15-00-00-00-02',
            name: 'eth1',
            ipv4: ['100.100.126.216/23'],
            dnsServers: ['100.100.126.205', '100.100.126.206'],
          },
        ],
        keepAddress: '198.18.1.9',
      }),
  ],
});
