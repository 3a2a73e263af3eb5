// dism.exe /online /remove-package /packagename:ID [/quiet] /norestart on the simulated node (a test
// double): takes back a package /add-package added (dism.ts records each one by its identity, the one
// its .msu's XML names: msu-contents.ts). The removal waits for a reboot, which brings the node back to
// the build it ran before the package (boot.ts). Exit codes as DISM's (the HRESULT as a signed number):
//   3010         removed, the change waits for a reboot
//   0x800f0805   CBS_E_INVALID_PACKAGE: no package of that identity ("The specified package is not valid
//                Windows package."), as DISM answers a name it does not know
// /quiet prints errors only; errors go to stdout with DISM's "Processing 1 of 1 - NAME: ..." line.
import type { SimulatedWindowsNode } from '../model.js';
import type { MsuRecord, NodeState } from '../node-state.js';
import { packageIdentity } from './msu-contents.js';
import { crlf, type NativeResult } from './program.js';

export const DISM_REMOVE = {
  rebootRequired: 3010,
  invalidPackage: -2146498555, // 0x800f0805 CBS_E_INVALID_PACKAGE
} as const;

const LOG = 'The DISM log file can be found at C:\\Windows\\Logs\\DISM\\dism.log';

/** Called by /add-package when it adds a package: its identity and the revision to go back to. */
export function recordPackage(s: NodeState, msu: MsuRecord): void {
  const { identity } = packageIdentity(msu);
  s.packages ??= {};
  s.packages[identity.toLowerCase()] = { name: identity, kb: msu.kb, revisionBefore: s.os.revision };
}

function usage(argv: readonly string[]): Error {
  return new Error(
    `the simulated dism.exe models /remove-package only as /online /remove-package /packagename:ID [/quiet] /norestart, not ${argv.join(' ')} (lab/windows/native/dism-remove.ts)`,
  );
}

export function removePackage(node: SimulatedWindowsNode, argv: readonly string[], banner: string[]): NativeResult {
  const s = node.state;
  const args = argv.map((a) => a.toLowerCase());
  const nameArg = argv.find((a) => /^\/packagename[:=]/i.test(a));
  const rest = args.filter((a) => !/^\/(online|remove-package|quiet|norestart|packagename[:=].*)$/.test(a));
  if (!args.includes('/online') || !args.includes('/norestart') || !nameArg || rest.length) throw usage(argv);
  const before = args.includes('/quiet') ? [] : banner;
  const name = nameArg.slice('/packagename:'.length);
  const record = s.packages?.[name.toLowerCase()];
  if (!record) {
    const short = name.split('~')[0];
    return {
      code: DISM_REMOVE.invalidPackage,
      stdout: crlf([
        ...before,
        `Processing 1 of 1 - ${short}: The specified package is not valid Windows package.`,
        ' Error: 0x800f0805',
        '',
        'Error: 0x800f0805',
        '',
        'DISM failed. No operation was performed.',
        'For more information, review the log file.',
        '',
        LOG,
        '',
      ]),
    };
  }
  delete s.packages![name.toLowerCase()];
  const kb = record.kb.toLowerCase();
  s.hotfixes = s.hotfixes.filter((h) => h.kb.toLowerCase() !== kb);
  s.pending = s.pending.filter((c) => !(c.kind === 'hotfix' && c.kb.toLowerCase() === kb));
  s.pending.push({ kind: 'hotfix-removal', kb: record.kb, revision: record.revisionBefore });
  if (before.length === 0) return { code: DISM_REMOVE.rebootRequired };
  return {
    code: DISM_REMOVE.rebootRequired,
    stdout: crlf([
      ...before,
      `Processing 1 of 1 - Removing package ${record.name}`,
      'The operation completed successfully.',
      'Restart Windows to complete this operation.',
      '',
    ]),
  };
}
