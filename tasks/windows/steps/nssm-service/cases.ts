// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { NSSM_SERVICE_REMOTE } from './remote.js';
import { nssmService } from './step.js';

/** nssm.exe where Find-Nssm looks (C:\k), written through Set-PlayFile: a fresh node has none. */
const NSSM_EXE = {
  fn: 'Set-PlayFile',
  args: { path: 'C:\\k\\nssm.exe', contentBase64: Buffer.from('nssm').toString('base64'), expectedSha256: null },
};
const INSTALL_KUBELET = { name: 'kubelet', install: true, application: 'C:\\k\\kubelet.exe' };

export const CASES: StepCases<typeof NSSM_SERVICE_REMOTE> = {
  'Get-PlayNssmService': {
    happy: {
      before: [NSSM_EXE, { fn: 'Set-PlayNssmService', args: INSTALL_KUBELET }],
      args: { name: 'kubelet' },
      expect: (v) => v.Application === 'C:\\k\\kubelet.exe\r\n',
    },
    failure: { args: { name: 'W32Time' }, expect: (v) => v === null },
  },
  'Set-PlayNssmService': {
    happy: { before: [NSSM_EXE], args: INSTALL_KUBELET, expect: (v) => typeof v === 'object' },
    failure: { args: INSTALL_KUBELET, expect: /nssm\.exe was not found/ },
  },
};

/** ps-syntax.test.ts's node has nssm.exe and services docker and kubelet. */
export const SYNTAX_CASES: SyntaxCases = ({ text, path }) => ({
  nssmService: [
    () =>
      nssmService({
        name: 'flanneld',
        application: path,
        appParameters: text,
        appDirectory: 'C:\\k',
        dependOnService: ['docker', 'kubelet'],
      }),
  ],
});
