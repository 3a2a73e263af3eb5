// wusa.exe FILE.msu /quiet /norestart on the simulated node. Exit codes as docs/domain.md#hotfix-to-a-pinned-build
// lists them: 3010 installed (the change waits for a reboot), 0 installed, 2359302 (0x00240006)
// already installed, 0x80240017 not applicable (for another OS, or superseded by the build the node
// has or has pending). A package the node's catalogue does not know is not an update (0x8007000D).
// wusa prints nothing with /quiet.
import { setRevision } from '../boot.js';
import { fileExists } from '../file-store.js';
import { baseName, filePath } from '../win-paths.js';
import type { NativeProgram } from './program.js';

export const WUSA = {
  ok: 0,
  rebootRequired: 3010,
  alreadyInstalled: 2359302,
  notApplicable: -2145124329,
  invalidData: -2147024883, // 0x8007000D: not an update package
  fileNotFound: -2147024894, // 0x80070002
  invalidArgument: -2147024809, // 0x80070057: no package named
} as const;

/** yyyy-MM-dd of now, as Win32_QuickFixEngineering dates an update. */
const today = () => new Date().toISOString().slice(0, 10);

export const wusa: NativeProgram = (node, argv) => {
  const s = node.state;
  const file = argv.find((a) => !a.startsWith('/'));
  if (file === undefined) return { code: WUSA.invalidArgument };
  if (!fileExists(s, file)) return { code: WUSA.fileNotFound };
  const msu = s.msuCatalogue[baseName(filePath(file)).toLowerCase()];
  if (!msu) return { code: WUSA.invalidData };
  const kb = msu.kb.toLowerCase();
  const pending = s.pending.some((c) => c.kind === 'hotfix' && c.kb.toLowerCase() === kb);
  if (pending || s.hotfixes.some((h) => h.kb.toLowerCase() === kb)) return { code: WUSA.alreadyInstalled };
  if (msu.notApplicable) return { code: WUSA.notApplicable };
  const reached = Math.max(s.os.revision, ...s.pending.map((c) => (c.kind === 'hotfix' ? (c.revision ?? 0) : 0)));
  if (msu.revision !== null && msu.revision <= reached) return { code: WUSA.notApplicable }; // superseded
  const waits = msu.rebootRequired !== false;
  if (!waits || msu.listedBeforeReboot !== false) s.hotfixes.push({ kb: msu.kb, installedOn: today() });
  if (!waits) {
    if (msu.revision !== null) setRevision(s, msu.revision);
    return { code: WUSA.ok };
  }
  s.pending.push({ kind: 'hotfix', kb: msu.kb, revision: msu.revision });
  return { code: WUSA.rebootRequired };
};
