// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { HNS_HOST_ENDPOINT_REMOTE } from './remote.js';
import { hnsHostEndpoint } from './step.js';

const l2bridge = {
  name: 'cbr0',
  type: 'L2Bridge',
  addressPrefix: '10.244.9.0/24',
  gateway: '10.244.9.1',
  adapterName: 'eth0',
};
const endpoint = { name: 'cbr0_ep', networkName: 'cbr0', ipAddress: '10.244.9.2', gateway: '10.244.9.1' };

export const CASES: StepCases<typeof HNS_HOST_ENDPOINT_REMOTE> = {
  'Get-PlayHnsEndpoint': {
    happy: {
      before: [
        { fn: 'New-PlayHnsNetwork', args: l2bridge },
        { fn: 'New-PlayHnsEndpoint', args: endpoint },
      ],
      args: { name: 'cbr0_ep' },
      expect: (v) => v.ipAddress === '10.244.9.2' && v.compartmentId === null,
    },
    failure: { args: { name: 'cbr0_ep' }, expect: (v) => v === null },
  },
  'New-PlayHnsEndpoint': {
    happy: {
      before: [{ fn: 'New-PlayHnsNetwork', args: l2bridge }],
      args: endpoint,
      expect: (v) => typeof v.id === 'string',
    },
    failure: { args: endpoint, expect: /there is no HNS network named cbr0/ },
  },
  'Remove-PlayHnsEndpoint': {
    happy: {
      before: [
        { fn: 'New-PlayHnsNetwork', args: l2bridge },
        { fn: 'New-PlayHnsEndpoint', args: endpoint },
      ],
      args: { name: 'cbr0_ep' },
      expect: (v) => typeof v === 'object',
    },
    failure: { args: { name: 'cbr0_ep' }, expect: (v) => typeof v === 'object' },
  },
  'Set-PlayHnsEndpointHost': {
    happy: {
      before: [
        { fn: 'New-PlayHnsNetwork', args: l2bridge },
        { fn: 'New-PlayHnsEndpoint', args: endpoint },
      ],
      args: { name: 'cbr0_ep', compartmentId: 1, forwarding: true },
      expect: (v) => typeof v === 'object',
    },
    failure: {
      args: { name: 'cbr0_ep', compartmentId: 1, forwarding: true },
      expect: /there is no HNS endpoint named cbr0_ep/,
    },
  },
};

// On the HNS network 'old' of the syntax test's node: created, then replaced at another address
// (Remove-PlayHnsEndpoint).
export const SYNTAX_CASES: SyntaxCases = () => ({
  hnsHostEndpoint: [
    () => hnsHostEndpoint({ name: 'old0', network: 'old', addressPrefix: '10.1.0.0/24', ipAddress: '10.1.0.2' }),
    () => hnsHostEndpoint({ name: 'old0', network: 'old', addressPrefix: '10.1.0.0/24', ipAddress: '10.1.0.3' }),
  ],
});
