// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { TIME_ZONE_REMOTE } from './remote.js';
import { timeZone } from './step.js';

export const CASES: StepCases<typeof TIME_ZONE_REMOTE> = {
  'Get-PlayTimeZone': {
    happy: { args: {}, expect: (v) => v.id === 'UTC' },
    failure: {
      before: [{ fn: 'Set-PlayTimeZone', args: { id: 'China Standard Time' } }],
      args: {},
      expect: (v) => v.id === 'China Standard Time',
    },
  },
  'Set-PlayTimeZone': {
    happy: { args: { id: 'China Standard Time' }, expect: (v) => typeof v === 'object' },
    failure: { args: { id: 'Mars/Olympus' }, expect: /Mars\/Olympus/ },
  },
};

export const SYNTAX_CASES: SyntaxCases = () => ({ timeZone: [() => timeZone({ id: 'China Standard Time' })] });
