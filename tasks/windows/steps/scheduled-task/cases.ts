// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { SCHEDULED_TASK_REMOTE } from './remote.js';
import { scheduledTask } from './step.js';

const TASK = { name: 'hns-network', path: '\\Play\\' };
const REGISTER = {
  fn: 'Set-PlayScheduledTask',
  args: {
    ...TASK,
    create: true,
    execute: 'powershell.exe',
    arguments: '-File C:\\k\\hns.ps1',
    trigger: { kind: 'atStartup' },
    user: 'SYSTEM',
    enabled: true,
  },
};

export const CASES: StepCases<typeof SCHEDULED_TASK_REMOTE> = {
  'Get-PlayScheduledTask': {
    happy: {
      before: [REGISTER],
      args: TASK,
      expect: (v) =>
        v.state === 'Ready' &&
        v.userId === 'SYSTEM' &&
        v.actions[0].execute === 'powershell.exe' &&
        v.triggers[0].type === 'MSFT_TaskBootTrigger',
    },
    failure: { args: TASK, expect: (v) => v === null },
  },
  'Set-PlayScheduledTask': {
    happy: {
      before: [REGISTER],
      args: { ...TASK, create: false, trigger: { kind: 'daily', at: '03:00' }, enabled: false },
      expect: (v) => Object.keys(v).length === 0,
    },
    failure: {
      args: { ...REGISTER.args, user: 'nobody-here' },
      expect: /No mapping between account names and security IDs was done/,
    },
  },
  'Remove-PlayScheduledTask': {
    happy: { before: [REGISTER], args: TASK, expect: (v) => Object.keys(v).length === 0 },
    failure: {
      args: TASK,
      expect: /No MSFT_ScheduledTask objects found with property 'TaskName' equal to 'hns-network'/,
    },
  },
};

// Registered, then changed (Set-ScheduledTask), then unregistered.
export const SYNTAX_CASES: SyntaxCases = ({ text, path }) => ({
  scheduledTask: [
    () =>
      scheduledTask({
        name: text.replace(/[\\/:*?"<>|\r\n]/g, ''),
        execute: path,
        arguments: text,
        trigger: 'atStartup',
      }),
    () => scheduledTask({ name: 'play', path: '\\Play', execute: 'a.exe', trigger: 'atStartup' }),
    () =>
      scheduledTask({ name: 'play', path: '\\Play', execute: 'a.exe', trigger: { daily: '03:00' }, enabled: false }),
    () => scheduledTask({ name: 'play', path: '\\Play', state: 'absent' }),
  ],
});
