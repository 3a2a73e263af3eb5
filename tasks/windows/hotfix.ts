// hotfix({ kb, msuPath, notApplicable? }): the update KBnnnnnnn is installed, from an .msu file
// already on the host (docs/domain.md#hotfix-to-a-pinned-build: `wusa <file>.msu /quiet /norestart`, to pin the OS build). Field:
// installed. Output: rebootRequired.
//
// Probe: Get-PlayHotfix (Get-HotFix, what wusa returned the last time this step ran for the KB,
// and whether the .msu is on the host: a plan warns before a rolling upgrade drains the node for an
// install that cannot happen). Apply: Test-PlayPath (a missing .msu fails with a clear message
// before wusa runs), then Install-PlayHotfix. wusa's exit codes:
//   0                        installed
//   3010, 1641               installed, a reboot is required (rebootRequired: true)
//   2359302 (0x00240006)     already installed
//   -2145124329 (0x80240017) not applicable (usually superseded by a newer cumulative update):
//                            fails, or counts as satisfied with notApplicable: 'satisfied'
//   anything else            fails, with the code in hex and decimal
// Get-HotFix may not list a KB before the reboot that completes it, and never lists one wusa found
// not applicable; the recorded exit code is what makes such a host converge instead of failing
// "not converged" or running wusa again on every run.
import { NOOP, type Change } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall, stepFailure } from './calls.js';
import type { ResultOf } from './contract.js';
import { GET_HOTFIX, INSTALL_HOTFIX, TEST_PATH } from './ps-os.js';
import { windowsPath } from './win-options.js';

export type HotfixOptions = {
  kb: string;
  /** The .msu on the host, e.g. C:\k\windows10.0-kb4549949-x64_....msu */
  msuPath: string;
  notApplicable?: 'fail' | 'satisfied';
};

export interface HotfixDesired {
  readonly kb: string;
  readonly msuPath: string;
  readonly notApplicable: 'fail' | 'satisfied';
}

export type HotfixActual = Readonly<ResultOf<'Get-PlayHotfix'>>;

export interface HotfixOutputs {
  rebootRequired: boolean;
}

const KIND = 'windows.hotfix';
export const WUSA = {
  ok: 0,
  rebootRequired: 3010,
  rebootInitiated: 1641,
  alreadyInstalled: 2359302,
  notApplicable: -2145124329,
} as const;

const KNOWN: Record<number, string> = {
  [-2147023838]: 'the Windows Update service (wuauserv) is disabled, and wusa needs it',
  [-2147024891]: 'access denied (the connecting user is not an administrator?)',
  [-2145124330]: 'another installation is in progress',
};

/** `0x80240017 (-2145124329)`: how Windows tools print an HRESULT, and the number wusa returned. */
export function exitCodeText(code: number): string {
  return `0x${(code >>> 0).toString(16).toUpperCase().padStart(8, '0')} (${code})`;
}

const pendingReboot = (code: number | null) => code === WUSA.rebootRequired || code === WUSA.rebootInitiated;

export function diffHotfix(d: Readonly<HotfixDesired>, a: HotfixActual | null): Change {
  if (a === null) throw new Error('a hotfix probe always reports a state');
  if (a.installed) return NOOP;
  const code = a.wusaExitCode;
  if (pendingReboot(code))
    return { ...NOOP, warnings: [`${d.kb} was installed by wusa (exit ${code}) and completes with the next reboot`] };
  if (code === WUSA.alreadyInstalled)
    return {
      ...NOOP,
      warnings: [`Get-HotFix does not list ${d.kb}, but wusa reported it already installed (0x00240006)`],
    };
  if (code === WUSA.notApplicable && d.notApplicable === 'satisfied') {
    return {
      ...NOOP,
      warnings: [
        `wusa found ${d.kb} not applicable to this host (0x80240017, usually superseded by a newer update): counted as satisfied`,
      ],
    };
  }
  const warnings =
    code === WUSA.notApplicable
      ? [
          `wusa found ${d.kb} not applicable to this host the last time (0x80240017): apply will fail again unless notApplicable is 'satisfied'`,
        ]
      : [];
  if (a.msuPresent === false)
    warnings.push(`the update package ${d.msuPath} is not on the host: apply will fail (copy it there first)`);
  return {
    action: 'create',
    fields: ['installed'],
    before: { installed: false },
    after: { installed: true },
    ...(warnings.length ? { warnings } : {}),
  };
}

/** What wusa's exit code means for the step: the outputs, or the error to fail with. */
export function wusaOutcome(d: Readonly<HotfixDesired>, code: number): HotfixOutputs | Error {
  switch (code) {
    case WUSA.ok:
    case WUSA.alreadyInstalled:
      return { rebootRequired: false };
    case WUSA.rebootRequired:
    case WUSA.rebootInitiated:
      return { rebootRequired: true };
    case WUSA.notApplicable:
      if (d.notApplicable === 'satisfied') return { rebootRequired: false };
      return new Error(
        `wusa: ${d.kb} is not applicable to this host, ${exitCodeText(code)}: usually a newer update superseded it ` +
          "(set notApplicable: 'satisfied' to accept that, or pin a build whose KB applies)",
      );
    default: {
      const known = KNOWN[code];
      return new Error(
        `wusa failed to install ${d.kb} from ${d.msuPath}: exit ${exitCodeText(code)}${known ? `: ${known}` : ''}`,
      );
    }
  }
}

export function hotfix(options: HotfixOptions): Step<HotfixDesired, HotfixActual, HotfixOutputs> {
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['kb', 'msuPath', 'notApplicable']);
  const kb = r.nonEmpty('kb').toUpperCase();
  if (!/^KB[0-9]{6,8}$/.test(kb))
    r.fail('kb', `must be a KB number such as KB4549949, got ${JSON.stringify(r.opts.kb)}`);
  const msuPath = windowsPath(r, 'msuPath');
  if (!/\.msu$/i.test(msuPath)) r.fail('msuPath', `must name an .msu file, got ${JSON.stringify(msuPath)}`);
  const notApplicable = r.opts.notApplicable ?? 'fail';
  if (notApplicable !== 'fail' && notApplicable !== 'satisfied')
    r.fail('notApplicable', `must be 'fail' or 'satisfied', got ${JSON.stringify(notApplicable)}`);
  const desired: HotfixDesired = Object.freeze({ kb, msuPath, notApplicable });
  const title = `hotfix ${kb}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_HOTFIX, { kb, msuPath }, (fix) => fix),
    diff: diffHotfix,
    async apply(remote: Remote, change: Change): Promise<HotfixOutputs> {
      if (!change.fields.includes('installed')) return { rebootRequired: false };
      const path = await invoke(remote, TEST_PATH, { path: msuPath }, `${title}: Test-PlayPath`);
      if (!path.exists)
        throw stepFailure(
          title,
          `the update package ${msuPath} is not on the host: copy it there first (wusa installs from a local file)`,
        );
      if (path.isDirectory) throw stepFailure(title, `${msuPath} is a directory, not an .msu file`);
      const result = await invoke(remote, INSTALL_HOTFIX, { kb, msuPath }, `${title}: wusa`);
      const outcome = wusaOutcome(desired, result.exitCode);
      if (outcome instanceof Error) throw stepFailure(title, outcome.message);
      return outcome;
    },
    outputs: (_d: Readonly<HotfixDesired>, a: HotfixActual | null): HotfixOutputs => ({
      rebootRequired: !a?.installed && pendingReboot(a?.wusaExitCode ?? null),
    }),
  });
}
