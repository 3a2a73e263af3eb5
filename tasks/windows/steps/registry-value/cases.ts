// Each remote function's happy path and main failure, run under real PowerShell on a fresh simulated
// node (test/lab/windows/function-cases.ts finds this file by its name), and the factory's option sets
// whose programs test/tasks/windows/ps-syntax.test.ts parses as 5.1 would. Test data: left out of the package.
import type { StepCases, SyntaxCases } from '../step-remote.js';
import type { REGISTRY_VALUE_REMOTE } from './remote.js';
import { registryValue } from './step.js';

export const CASES: StepCases<typeof REGISTRY_VALUE_REMOTE> = {
  'Get-PlayRegistryValue': {
    happy: {
      args: { path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion', name: 'UBR' },
      expect: (v) => v.type === 'DWord' && v.data === 973,
    },
    failure: { args: { path: 'HKLM:\\SOFTWARE\\Nope', name: 'x' }, expect: (v) => v === null },
  },
  'Set-PlayRegistryValue': {
    happy: {
      args: { path: 'HKLM:\\SOFTWARE\\Play', name: 'n', type: 'DWord', data: 4294967295 },
      expect: (v) => typeof v === 'object',
    },
    failure: { args: { path: 'HKLM:\\SOFTWARE\\Play', name: 'n', type: 'DWord', data: 4294967296 }, expect: /UInt32/ },
  },
};

/** The hostile text over several lines, with here-string terminators: a String value may hold them. */
const lines = (text: string) => `${text}\r\nsecond line\n'@\n"@`;

export const SYNTAX_CASES: SyntaxCases = ({ text }) => ({
  registryValue: [
    () =>
      registryValue({
        path: `HKLM:\\SOFTWARE\\${text.replace(/\\/g, '')}`,
        name: text,
        type: 'String',
        data: lines(text),
      }),
    () => registryValue({ path: 'HKLM:\\SOFTWARE\\Play', name: '(default)', type: 'MultiString', data: [text, 'b'] }),
    () => registryValue({ path: 'HKLM:\\SOFTWARE\\Play', name: 'n', type: 'DWord', data: 4294967295 }),
    () => registryValue({ path: 'HKLM:\\SOFTWARE\\Play', name: 'b', type: 'Binary', data: [0, 255, 39] }),
  ],
});
