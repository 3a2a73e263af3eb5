// hotfix({ kb, msuPath, notApplicable? }): the update KBnnnnnnn is installed, from an .msu file
// already on the host (docs/domain.md#hotfix-to-a-pinned-build: extracted with expand.exe, its CAB
// added with DISM, to pin the OS build). Field: installed. Output: rebootRequired.
//
// Probe: Get-PlayHotfix (Get-HotFix, what DISM returned the last time this step ran for the KB,
// and whether the .msu is on the host: a plan warns before a rolling upgrade drains the node for an
// install that cannot happen). Apply: Test-PlayPath (a missing .msu fails with a clear message
// before anything runs), then Install-PlayHotfix. Not wusa: over SSH (a network logon) wusa and the
// Windows Update Agent refuse with 0x80070005. DISM's exit codes:
//   0                          installed, or already installed
//   3010                       installed, a reboot is required (rebootRequired: true)
//   -2146498530 (0x800f081e)   CBS_E_NOT_APPLICABLE (usually superseded by a newer cumulative
//                              update): fails, or counts as satisfied with notApplicable: 'satisfied'
//   anything else              fails, with the code in hex and decimal and DISM's own text
// Get-HotFix may not list a KB before the reboot that completes it, and never lists one DISM found
// not applicable; the recorded exit code is what makes such a host converge instead of failing
// "not converged" or running DISM again on every run.
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
export const DISM = {
  ok: 0,
  rebootRequired: 3010,
  notApplicable: -2146498530,
} as const;

const KNOWN: Record<number, string> = {
  [-2147024891]: 'access denied (the connecting user is not an administrator?)',
  [-2147024894]: 'the extracted update CAB could not be opened',
  [-2146498270]: 'CBS_E_INSTALLERS_FAILED: the update failed to install',
  [-2146498529]: 'CBS_E_SOURCE_MISSING: the update needs source files the host lacks',
  [-2146498555]: 'CBS_E_INVALID_PACKAGE: not a valid Windows package',
};

/** `0x800F081E (-2146498530)`: how Windows tools print an HRESULT, and the number DISM returned. */
export function exitCodeText(code: number): string {
  return `0x${(code >>> 0).toString(16).toUpperCase().padStart(8, '0')} (${code})`;
}

const pendingReboot = (code: number | null) => code === DISM.rebootRequired;

export function diffHotfix(d: Readonly<HotfixDesired>, a: HotfixActual | null): Change {
  if (a === null) throw new Error('a hotfix probe always reports a state');
  if (a.installed) return NOOP;
  const code = a.dismExitCode;
  if (pendingReboot(code))
    return { ...NOOP, warnings: [`${d.kb} was added by DISM (exit ${code}) and completes with the next reboot`] };
  if (code === DISM.notApplicable && d.notApplicable === 'satisfied') {
    return {
      ...NOOP,
      warnings: [
        `DISM found ${d.kb} not applicable to this host (0x800F081E, usually superseded by a newer update): counted as satisfied`,
      ],
    };
  }
  const warnings =
    code === DISM.notApplicable
      ? [
          `DISM found ${d.kb} not applicable to this host the last time (0x800F081E): apply will fail again unless notApplicable is 'satisfied'`,
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

/** What DISM's exit code means for the step: the outputs, or the error to fail with (with DISM's text). */
export function dismOutcome(d: Readonly<HotfixDesired>, code: number, output = ''): HotfixOutputs | Error {
  switch (code) {
    case DISM.ok:
      return { rebootRequired: false };
    case DISM.rebootRequired:
      return { rebootRequired: true };
    case DISM.notApplicable:
      if (d.notApplicable === 'satisfied') return { rebootRequired: false };
      return new Error(
        `DISM: ${d.kb} is not applicable to this host, ${exitCodeText(code)}: usually a newer update superseded it ` +
          "(set notApplicable: 'satisfied' to accept that, or pin a build whose KB applies)",
      );
    default: {
      const known = KNOWN[code];
      const text = output.replace(/\s+/g, ' ').trim();
      return new Error(
        `DISM failed to add ${d.kb} from ${d.msuPath}: exit ${exitCodeText(code)}${known ? `: ${known}` : ''}` +
          (text ? ` (DISM: ${text})` : ''),
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
          `the update package ${msuPath} is not on the host: copy it there first (DISM installs from a local file)`,
        );
      if (path.isDirectory) throw stepFailure(title, `${msuPath} is a directory, not an .msu file`);
      const result = await invoke(remote, INSTALL_HOTFIX, { kb, msuPath }, `${title}: DISM`);
      const outcome = dismOutcome(desired, result.exitCode, result.output);
      if (outcome instanceof Error) throw stepFailure(title, outcome.message);
      return outcome;
    },
    outputs: (_d: Readonly<HotfixDesired>, a: HotfixActual | null): HotfixOutputs => ({
      rebootRequired: !a?.installed && pendingReboot(a?.dismExitCode ?? null),
    }),
  });
}
