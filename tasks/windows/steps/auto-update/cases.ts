// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { AUTO_UPDATE_REMOTE } from './remote.js';
import { autoUpdate } from './step.js';

export const CASES: StepCases<typeof AUTO_UPDATE_REMOTE> = {
  'Get-PlayAutoUpdate': {
    happy: {
      before: [{ fn: 'Set-PlayAutoUpdate', args: { enabled: false } }],
      args: {},
      expect: (v) => v.noAutoUpdate === 1,
    },
    failure: { args: {}, expect: (v) => v.noAutoUpdate === null && v.auOptions === null },
  },
  'Set-PlayAutoUpdate': {
    happy: { args: { enabled: false }, expect: (v) => typeof v === 'object' },
    // A folder's case sets its node up through the functions: wuauserv disabled, so Start-Service refuses.
    failure: {
      before: [{ fn: 'Set-PlayService', args: { name: 'wuauserv', create: false, startMode: 'Disabled' } }],
      args: { enabled: false },
      expect: /^Service 'Windows Update \(wuauserv\)' cannot be started/,
    },
  },
};

export const SYNTAX_CASES: SyntaxCases = () => ({
  autoUpdate: [() => autoUpdate({ enabled: false }), () => autoUpdate({ enabled: true })],
});
