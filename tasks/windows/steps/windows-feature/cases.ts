// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factories' option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { WINDOWS_FEATURE_REMOTE } from './remote.js';
import { windowsCapability, windowsFeature } from './step.js';

export const CASES: StepCases<typeof WINDOWS_FEATURE_REMOTE> = {
  'Get-PlayWindowsFeature': {
    happy: { args: { name: 'Containers' }, expect: (v) => v.installState === 'Available' },
    failure: { args: { name: 'No-Such-Feature' }, expect: (v) => v === null },
  },
  'Install-PlayWindowsFeature': {
    happy: { args: { name: 'Containers' }, expect: (v) => v.restartNeeded === true },
    failure: { args: { name: 'No-Such-Feature' }, expect: /not valid|not found/i },
  },
  'Get-PlayWindowsCapability': {
    happy: { args: { name: 'OpenSSH.Client~~~~0.0.1.0' }, expect: (v) => v.state === 'Installed' },
    failure: { args: { name: 'No.Such~~~~0.0.1.0' }, expect: (v) => v === null },
  },
  'Add-PlayWindowsCapability': {
    happy: { args: { name: 'OpenSSH.Server~~~~0.0.1.0' }, expect: (v) => v.restartNeeded === false },
    failure: { args: { name: 'No.Such~~~~0.0.1.0' }, expect: /0x800f080c/i },
  },
};

export const SYNTAX_CASES: SyntaxCases = () => ({
  // Not Containers: Docker needs it installed on ps-syntax's node, and an installed feature sends no install.
  windowsFeature: [() => windowsFeature({ name: 'Hyper-V' })],
  windowsCapability: [() => windowsCapability({ name: 'OpenSSH.Server~~~~0.0.1.0' })],
});
