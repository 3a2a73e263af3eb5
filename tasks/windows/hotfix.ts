// hotfix({ kb, msuPath, localMsu?, notApplicable? }): the update KBnnnnnnn is installed, from an .msu
// file on the host (docs/domain.md#hotfix-to-a-pinned-build: extracted with expand.exe, its CAB added
// with DISM, to pin the OS build). Field: installed. Output: rebootRequired. With localMsu (the .msu on
// the controller), apply first uploads it to msuPath unless the host has the same bytes there
// (uploaded-file.ts); an installed update needs no upload, so a node at the pin is never sent it.
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
import { z } from 'zod';
import { oneOf, readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall, stepFailure } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_FILE } from './remote/ps-files.js';
import { GET_HOTFIX, INSTALL_HOTFIX, TEST_PATH } from './remote/ps-os.js';
import { localFile, sendFile } from './uploaded-file.js';
import { kbNumber, msuPath } from './options/win-options.js';

const Options = z.strictObject({
  kb: kbNumber(),
  /** The .msu on the host, e.g. C:\k\windows10.0-kb4549949-x64_....msu */
  msuPath: msuPath(),
  /** The .msu on the machine running play: uploaded to msuPath first unless the host has the same file. */
  localMsu: localFile()
    .optional()
    .transform((v) => (v === undefined ? null : Object.freeze(v))),
  notApplicable: oneOf('fail', 'satisfied').default('fail'),
});

export type HotfixOptions = z.input<typeof Options>;
/** localMsu: the local .msu with its size and SHA-256, or null: the .msu must already be on the host. */
export type HotfixDesired = Readonly<z.output<typeof Options>>;

export type HotfixActual = Readonly<ResultOf<'Get-PlayHotfix'>>;

export interface HotfixOutputs {
  rebootRequired: boolean;
  /** After an install: the package identity DISM installed (what a rollback removes: hotfix-removal.ts), null if unknown. */
  packageName?: string | null;
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
  if (a.msuPresent === false && d.localMsu === null)
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

/** Sends the local .msu unless the host already has the same bytes at the path. */
async function uploadUnlessThere(
  remote: Remote,
  file: { localFile: string; path: string; sha256: string },
  title: string,
): Promise<void> {
  const there = await invoke(remote, GET_FILE, { path: file.path, maxBytes: 0 }, `${title}: Get-PlayFile`);
  if (there?.sha256 !== file.sha256) await sendFile(remote, file, `${title}: upload`);
}

export function hotfix(options: HotfixOptions): Step<HotfixDesired, HotfixActual, HotfixOutputs> {
  const desired: HotfixDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `hotfix ${desired.kb}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_HOTFIX, { kb: desired.kb, msuPath: desired.msuPath }, (fix) => fix),
    diff: diffHotfix,
    async apply(
      remote: Remote,
      change: Change,
      _actual: HotfixActual | null,
      d: HotfixDesired,
    ): Promise<HotfixOutputs> {
      if (!change.fields.includes('installed')) return { rebootRequired: false };
      const { kb, msuPath, localMsu } = d;
      if (localMsu) await uploadUnlessThere(remote, { ...localMsu, path: msuPath }, title);
      const path = await invoke(remote, TEST_PATH, { path: msuPath }, `${title}: Test-PlayPath`);
      if (!path.exists)
        throw stepFailure(
          title,
          `the update package ${msuPath} is not on the host: copy it there first (DISM installs from a local file)`,
        );
      if (path.isDirectory) throw stepFailure(title, `${msuPath} is a directory, not an .msu file`);
      const result = await invoke(remote, INSTALL_HOTFIX, { kb, msuPath }, `${title}: DISM`);
      const outcome = dismOutcome(d, result.exitCode, result.output);
      if (outcome instanceof Error) throw stepFailure(title, outcome.message);
      return { ...outcome, packageName: result.packageName };
    },
    outputs: (_d: Readonly<HotfixDesired>, a: HotfixActual | null): HotfixOutputs => ({
      rebootRequired: !a?.installed && pendingReboot(a?.dismExitCode ?? null),
    }),
  });
}
