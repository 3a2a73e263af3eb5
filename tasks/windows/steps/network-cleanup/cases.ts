// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { NETWORK_CLEANUP_REMOTE } from './remote.js';
import { networkCleanup } from './step.js';

/** An L2Bridge network on eth0 for the clean-up to remove. */
const L2BRIDGE = {
  name: 'cbr0',
  type: 'L2Bridge',
  addressPrefix: '10.244.9.0/24',
  gateway: '10.244.9.1',
  adapterName: 'eth0',
};

export const CASES: StepCases<typeof NETWORK_CLEANUP_REMOTE> = {
  'Get-PlayNetworkCleanup': {
    happy: { args: {}, expect: (v) => v.token === null && Array.isArray(v.ghostAdapters) },
    failure: {
      before: [
        { fn: 'Invoke-PlayNetworkCleanup', args: { token: 't1', removeHnsNetworks: true, removeGhostAdapters: true } },
      ],
      args: {},
      expect: (v) => v.token === 't1' && v.rebootPending === true,
    },
  },
  'Invoke-PlayNetworkCleanup': {
    happy: {
      before: [{ fn: 'New-PlayHnsNetwork', args: L2BRIDGE }],
      args: { token: 't1', removeHnsNetworks: true, removeGhostAdapters: false },
      expect: (v) => v.removedNetworks[0] === 'cbr0',
    },
    failure: {
      args: { token: 't1', removeHnsNetworks: false, removeGhostAdapters: false },
      expect: (v) => v.removedNetworks.length === 0,
    },
  },
};

export const SYNTAX_CASES: SyntaxCases = ({ text }) => ({ networkCleanup: [() => networkCleanup({ token: text })] });
