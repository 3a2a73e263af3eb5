// dism.exe /online /add-package /packagepath:CAB /quiet /norestart on the simulated node: adds an
// update CAB that expand.exe extracted (msu-contents.ts) by the install rules of
// docs/domain.md#hotfix-to-a-pinned-build, with DISM's exit codes (the HRESULT as a signed number):
//   3010         added, the change waits for a reboot; also a package already added and still pending
//   0            added at once (catalogue entry rebootRequired: false), or already installed
//   0x800f081e   CBS_E_NOT_APPLICABLE: for another OS (notApplicable), or superseded by the build
//                the node has or has pending
//   0x80070002   the CAB cannot be opened (missing, or not an update CAB such as WSUSSCAN.cab)
//   state.failDism, when set: every /add-package fails with it (a broken servicing stack)
// /remove-package /packagename:ID: dism-remove.ts.
// /quiet prints errors only (success prints nothing); without it, the banner and result lines too.
// DISM writes its errors to stdout.
import { setRevision } from '../boot.js';
import { fileExists, readFile } from '../file-store.js';
import type { NodeState } from '../node-state.js';
import { removePackage, recordPackage } from './dism-remove.js';
import { cabSource } from './msu-contents.js';
import { getPackageInfo } from './dism-package-info.js';
import { crlf, type NativeProgram, type NativeResult } from './program.js';

export const DISM = {
  ok: 0,
  rebootRequired: 3010,
  notApplicable: -2146498530, // 0x800f081e CBS_E_NOT_APPLICABLE
  fileNotFound: -2147024894, // 0x80070002
} as const;

const LOG = 'The DISM log file can be found at C:\\Windows\\Logs\\DISM\\dism.log';

const hex = (code: number) => `0x${(code >>> 0).toString(16).padStart(8, '0')}`;

/** yyyy-MM-dd of now, as Win32_QuickFixEngineering dates an update. */
const today = () => new Date().toISOString().slice(0, 10);

function banner(s: NodeState): string[] {
  return [
    '',
    'Deployment Image Servicing and Management tool',
    'Version: 10.0.17763.1',
    '',
    `Image Version: ${s.os.version}.${s.os.revision}`,
    '',
  ];
}

function fail(code: number, lines: readonly string[], before: readonly string[] = []): NativeResult {
  return { code, stdout: crlf([...before, ...lines, '', LOG, '']) };
}

const cannotOpen = (path: string) =>
  fail(DISM.fileNotFound, [
    `An error occurred trying to open - ${path} Error: ${hex(DISM.fileNotFound)}`,
    `Error: ${hex(DISM.fileNotFound)}`,
    '',
    'The system cannot find the file specified.',
  ]);

/** The rules: what adding the package does to the model, and DISM's exit code. */
function addPackage(s: NodeState, key: string): number {
  const msu = s.msuCatalogue[key]!;
  const kb = msu.kb.toLowerCase();
  if (s.pending.some((c) => c.kind === 'hotfix' && c.kb.toLowerCase() === kb)) return DISM.rebootRequired;
  if (s.hotfixes.some((h) => h.kb.toLowerCase() === kb)) return DISM.ok;
  if (msu.notApplicable) return DISM.notApplicable;
  const reached = Math.max(s.os.revision, ...s.pending.map((c) => (c.kind === 'hotfix' ? (c.revision ?? 0) : 0)));
  if (msu.revision !== null && msu.revision <= reached) return DISM.notApplicable; // superseded
  const waits = msu.rebootRequired !== false;
  recordPackage(s, msu);
  if (!waits || msu.listedBeforeReboot !== false) s.hotfixes.push({ kb: msu.kb, installedOn: today() });
  if (!waits) {
    if (msu.revision !== null) setRevision(s, msu.revision);
    return DISM.ok;
  }
  s.pending.push({ kind: 'hotfix', kb: msu.kb, revision: msu.revision });
  return DISM.rebootRequired;
}

export const dism: NativeProgram = (node, argv) => {
  const s = node.state;
  const args = argv.map((a) => a.toLowerCase());
  if (args.includes('/remove-package')) return removePackage(node, argv, banner(s));
  const pathArg = argv.find((a) => /^\/packagepath[:=]/i.test(a));
  // /get-packageinfo: dism-package-info.ts (read-only; hotfix staging verifies a CAB with it).
  if (args.length === 3 && args.includes('/online') && args.includes('/get-packageinfo') && pathArg)
    return getPackageInfo(s, pathArg.slice('/packagepath:'.length), banner(s));
  const rest = args.filter((a) => !/^\/(online|add-package|quiet|norestart|packagepath[:=].*)$/.test(a));
  if (
    !args.includes('/online') ||
    !args.includes('/add-package') ||
    !args.includes('/norestart') ||
    !pathArg ||
    rest.length
  )
    throw new Error(
      `the simulated dism.exe models only /online /add-package /packagepath:CAB [/quiet] /norestart, not ${argv.join(' ')} (lab/windows/native/dism.ts)`,
    );
  const before = args.includes('/quiet') ? [] : banner(s);
  const path = pathArg.slice('/packagepath:'.length);
  if (s.failDism !== null && s.failDism !== undefined) {
    const lines = [`Error: ${hex(s.failDism)}`, '', 'DISM failed. No operation was performed.'];
    return fail(s.failDism, [...lines, 'For more information, review the log file.'], before);
  }
  const key = fileExists(s, path) ? cabSource(readFile(s, path)!) : null;
  if (key === null || !s.msuCatalogue[key]) return cannotOpen(path);
  const code = addPackage(s, key);
  if (code === DISM.notApplicable)
    return fail(code, [`Error: ${hex(code)}`, '', 'The specified package is not applicable to this image.'], before);
  if (before.length === 0) return { code };
  const done = ['The operation completed successfully.'];
  if (code === DISM.rebootRequired) done.push('Restart Windows to complete this operation.');
  return { code, stdout: crlf([...before, 'Processing 1 of 1 - Adding package', ...done, '']) };
};
