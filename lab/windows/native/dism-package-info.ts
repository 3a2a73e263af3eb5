// dism.exe /online /get-packageinfo /packagepath:CAB on the simulated node (a test double): what DISM
// says of an update CAB that expand.exe extracted (msu-contents.ts), read-only. The text is the list
// DISM prints (a guess at the exact field set: lab/windows/README.md, "what the surface cannot show"):
// `Applicable : Yes|No` and `State : Not Present|Install Pending|Installed` by the rules dism.ts adds
// a package by: a KB already added is Installed (or Install Pending until the reboot), an entry marked
// notApplicable or superseded by the build the node has or has pending is not applicable. Exit 0; a
// CAB it cannot open is 0x80070002 with dism.ts's text.
import { fileExists, readFile } from '../file-store.js';
import type { NodeState } from '../node-state.js';
import { cabSource } from './msu-contents.js';
import { crlf, type NativeResult } from './program.js';

export const FILE_NOT_FOUND = -2147024894; // 0x80070002

type PackageState = 'Not Present' | 'Install Pending' | 'Installed';

function stateOf(s: NodeState, kb: string): PackageState {
  const k = kb.toLowerCase();
  if (s.pending.some((c) => c.kind === 'hotfix' && c.kb.toLowerCase() === k)) return 'Install Pending';
  return s.hotfixes.some((h) => h.kb.toLowerCase() === k) ? 'Installed' : 'Not Present';
}

function applicable(s: NodeState, key: string): boolean {
  const msu = s.msuCatalogue[key]!;
  if (msu.notApplicable) return false;
  const reached = Math.max(s.os.revision, ...s.pending.map((c) => (c.kind === 'hotfix' ? (c.revision ?? 0) : 0)));
  return msu.revision === null || msu.revision > reached || stateOf(s, msu.kb) !== 'Not Present';
}

/** The package's lines: identity, applicability, state and the fields around them. */
function infoLines(s: NodeState, key: string): string[] {
  const msu = s.msuCatalogue[key]!;
  const number = msu.kb.toUpperCase().replace(/^KB/, '');
  const identity = `Package_for_RollupFix~31bf3856ad364e35~amd64~~${s.os.build}.${msu.revision ?? 1}.1.7`;
  return [
    'Package information:',
    '',
    `Package Identity : ${identity}`,
    `Applicable : ${applicable(s, key) ? 'Yes' : 'No'}`,
    'Copyright : Microsoft Corporation',
    'Company : Microsoft Corporation',
    `Description : Fix for ${msu.kb.toUpperCase()}`,
    'Product Name : Package_for_RollupFix',
    'Release Type : Update',
    `Restart Required : ${msu.rebootRequired === false ? 'Not Required' : 'Required'}`,
    `Support Information : http://support.microsoft.com/?kbid=${number}`,
    `State : ${stateOf(s, msu.kb)}`,
    'Completely offline capable : No',
    '',
    'The operation completed successfully.',
  ];
}

export function getPackageInfo(s: NodeState, path: string, banner: readonly string[]): NativeResult {
  const key = fileExists(s, path) ? cabSource(readFile(s, path)!) : null;
  if (key === null || !s.msuCatalogue[key]) {
    const hex = `0x${(FILE_NOT_FOUND >>> 0).toString(16).padStart(8, '0')}`;
    const lines = [`An error occurred trying to open - ${path} Error: ${hex}`, `Error: ${hex}`, ''];
    const tail = ['The system cannot find the file specified.', '', dismLog, ''];
    return { code: FILE_NOT_FOUND, stdout: crlf([...banner, ...lines, ...tail]) };
  }
  return { code: 0, stdout: crlf([...banner, ...infoLines(s, key), '']) };
}

const dismLog = 'The DISM log file can be found at C:\\Windows\\Logs\\DISM\\dism.log';
