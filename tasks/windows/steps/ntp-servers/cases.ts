// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { NTP_SERVERS_REMOTE } from './remote.js';
import { ntpServers } from './step.js';

export const CASES: StepCases<typeof NTP_SERVERS_REMOTE> = {
  'Get-PlayNtp': {
    happy: { args: {}, expect: (v) => v.servers[0] === 'time.windows.com' && v.defaultIndex === '1' },
    failure: {
      before: [{ fn: 'Set-PlayServiceState', args: { name: 'W32Time', action: 'stop' } }],
      args: {},
      expect: (v) => v.w32timeRunning === false,
    },
  },
  'Set-PlayNtp': {
    happy: { args: { servers: ['10.0.0.1', '10.0.0.2'] }, expect: (v) => typeof v === 'object' },
    failure: {
      before: [{ fn: 'Set-PlayService', args: { name: 'W32Time', create: false, startMode: 'Disabled' } }],
      args: { servers: ['10.0.0.1'] },
      expect: (v) => typeof v === 'object',
    },
  },
};

export const SYNTAX_CASES: SyntaxCases = () => ({
  ntpServers: [() => ntpServers({ servers: ['ntp1.mylan.k8s', '100.100.126.205'] })],
});
