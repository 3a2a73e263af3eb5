// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { DNS_CLIENT_REMOTE } from './remote.js';
import { dnsClient } from './step.js';

export const CASES: StepCases<typeof DNS_CLIENT_REMOTE> = {
  'Get-PlayDnsClient': {
    happy: {
      before: [{ fn: 'Set-PlayDnsClient', args: { primaryDomain: 'lab.test', suffixSearchList: ['lab.test'] } }],
      args: {},
      expect: (v) => v.primaryDomain === 'lab.test' && v.suffixSearchList[0] === 'lab.test',
    },
    failure: { args: {}, expect: (v) => v.primaryDomain === null && v.suffixSearchList.length === 0 },
  },
  'Set-PlayDnsClient': {
    happy: { args: { primaryDomain: 'lab.test' }, expect: (v) => typeof v === 'object' },
    failure: { args: { suffixSearchList: [] }, expect: (v) => typeof v === 'object' },
  },
};

export const SYNTAX_CASES: SyntaxCases = () => ({
  dnsClient: [() => dnsClient({ primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s', 'svc.cluster.local'] })],
});
