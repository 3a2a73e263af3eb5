// OS, hotfixes, paths and restarts on the simulated Windows node (a test double). wusa's exit codes
// as docs/domain.md#hotfix-to-a-pinned-build lists them: 3010 installed (reboot required), 0 installed, 2359302 already installed,
// -2145124329 (0x80240017) not applicable, also for an update the build has already passed.
import { WindowsError } from '../errors.js';
import { fileExists, isDirectory } from '../file-store.js';
import { getKey, getValue, setValue } from '../registry-store.js';
import { setRevision } from '../boot.js';
import type { NodeState } from '../state.js';
import { baseName, filePath, isRegistryPath, type WinPath } from '../win-paths.js';
import { today, type Handlers } from './types.js';

export const WUSA = {
  ok: 0,
  rebootRequired: 3010,
  alreadyInstalled: 2359302,
  notApplicable: -2145124329,
  invalidData: -2147024883, // 0x8007000D: not an update package wusa knows
} as const;

/** Where the steps' Install-PlayHotfix records wusa's exit code per KB (tasks/windows/contract.ts). */
export const WUSA_RECORD_KEY = 'HKLM:\\SOFTWARE\\Play\\Hotfixes';

function signed(data: unknown): number {
  return Number(data) | 0;
}

/** What wusa.exe FILE /quiet /norestart does and returns. */
function wusa(s: NodeState, p: WinPath): number {
  const msu = s.msuCatalogue[baseName(p).toLowerCase()];
  if (!msu) return WUSA.invalidData;
  if (s.hotfixes.some((h) => h.kb.toLowerCase() === msu.kb.toLowerCase())) return WUSA.alreadyInstalled;
  if (msu.notApplicable) return WUSA.notApplicable;
  const reached = Math.max(s.os.revision, ...s.pending.map((c) => (c.kind === 'hotfix' ? (c.revision ?? 0) : 0)));
  if (msu.revision !== null && msu.revision <= reached) return WUSA.notApplicable; // superseded
  s.hotfixes.push({ kb: msu.kb, installedOn: today() });
  if (msu.rebootRequired === false) {
    if (msu.revision !== null) setRevision(s, msu.revision);
    return WUSA.ok;
  }
  s.pending.push({ kind: 'hotfix', kb: msu.kb, revision: msu.revision });
  return WUSA.rebootRequired;
}

export const osHandlers = {
  'Get-PlayOsInfo': (node) => {
    const { os } = node.state;
    return {
      caption: os.caption,
      version: os.version,
      build: os.build,
      revision: os.revision,
      lastBootUpTime: os.lastBootUpTime,
      pendingReboot: node.pendingReboot,
    };
  },

  'Get-PlayHotfix': (node, { kb, msuPath }) => {
    const h = node.state.hotfixes.find((x) => x.kb.toLowerCase() === kb.toLowerCase());
    const recorded = getValue(node.state, WUSA_RECORD_KEY, kb);
    const msuPresent = msuPath === undefined ? null : fileExists(node.state, filePath(msuPath).display);
    return {
      installed: h !== undefined,
      installedOn: h?.installedOn ?? null,
      wusaExitCode: recorded ? signed(recorded.data) : null,
      msuPresent,
    };
  },

  'Install-PlayHotfix': (node, { kb, msuPath }) => {
    const s = node.state;
    const p = filePath(msuPath);
    if (!fileExists(s, p.display)) throw new WindowsError(`the update package ${msuPath} does not exist on the host`);
    const exitCode = wusa(s, p);
    // The steps' function records what wusa said (as text), for Get-PlayHotfix's wusaExitCode.
    setValue(s, WUSA_RECORD_KEY, kb, 'String', String(exitCode));
    return { exitCode };
  },

  'Test-PlayPath': (node, { path }) => {
    const s = node.state;
    try {
      if (isRegistryPath(path))
        return { exists: getKey(s, path) !== undefined, isDirectory: getKey(s, path) !== undefined };
      const p = filePath(path);
      if (isDirectory(s, p)) return { exists: true, isDirectory: true };
      return { exists: s.files[p.key] !== undefined, isDirectory: false };
    } catch (e) {
      if (e instanceof WindowsError) return { exists: false, isDirectory: false };
      throw e;
    }
  },

  'Restart-PlayComputer': (node, { delaySeconds }) => {
    if (!Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 315360000) {
      throw new WindowsError(`shutdown.exe /r /t ${delaySeconds}: The parameter is incorrect.(87)`);
    }
    // shutdown.exe's 1190 (a shutdown is already scheduled) counts as scheduled: the first one stands.
    if (node.state.boot.phase === 'up') node.scheduleReboot(delaySeconds);
    return { scheduled: true };
  },
} satisfies Partial<Handlers>;
