// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { DOCKER_ENGINE_REMOTE } from './remote.js';
import { dockerEngine } from './step.js';

export const CASES: StepCases<typeof DOCKER_ENGINE_REMOTE> = {
  'Get-PlayDockerEngine': {
    // Installed through the install function: docker.exe and the service are there, the daemon waits
    // for the Containers reboot (the client's part of `docker version` prints all the same).
    happy: {
      before: [{ fn: 'Install-PlayDockerEngine', args: { version: '19.03.5' } }],
      args: {},
      expect: (v) => /Version:\s+19\.03\.5/.test(v.dockerVersion) && v.serviceExists,
    },
    failure: { args: {}, expect: (v) => v.dockerVersion === null && v.serviceExists === false },
  },
  'Install-PlayDockerEngine': {
    happy: { args: { version: '19.03.5' }, expect: (v) => v.restartNeeded === true },
    failure: { args: { version: '0.0.1' }, expect: /No match was found/ },
  },
};

export const SYNTAX_CASES: SyntaxCases = () => ({
  dockerEngine: [() => dockerEngine({ version: '19.03.5' }), () => dockerEngine()],
});
