// hotfixStage({ kb, msuPath, localMsu?, stageDir? }): the update KBnnnnnnn is staged on the host ahead
// of its maintenance window (`play hotfix-windows --stage`, docs/rolling.md#staging): the .msu is at
// msuPath with the bytes of localMsu (uploaded when it differs, compared by SHA-256), expanded into
// stageDir (expand.exe -F:*, as the install does) and verified by DISM (`/get-packageinfo`:
// "Applicable : Yes"). Fields: msu (the upload), staged (expanded from this very .msu and verified).
// Output: uploaded. Never installs anything: the hotfix step does that in the window, and finds the
// .msu already there with the same SHA-256 (no upload then).
//
// Refusals, before anything is written: less free disk on the .msu's drive than STAGE_FREE_FACTOR times
// its size (the .msu, its expanded CAB and DISM's working copy); a package DISM says is not applicable
// (usually superseded: the install in the window would fail with 0x800F081E). A KB already installed
// (Get-HotFix, or DISM's state Installed / Install Pending) needs no staging: noop, said in a warning.
import { NOOP, type Change } from '../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall, stepFailure } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { EXPAND_HOTFIX_STAGE, GET_HOTFIX_STAGE } from './remote/ps-hotfix-stage.js';
import { type DismPackageInfo, parseDismPackageInfo } from './parse/dism-package-info.js';
import { exitCodeText } from './hotfix.js';
import { localFile, sendFile } from './uploaded-file.js';
import { kbNumber, msuPath, windowsPath } from './options/win-options.js';

const Options = z
  .strictObject({
    kb: kbNumber(),
    /** The .msu on the host, where the hotfix step installs it from. */
    msuPath: msuPath(),
    /** The .msu on the machine running play: uploaded to msuPath unless the host has the same bytes. */
    localMsu: localFile()
      .optional()
      .transform((v) => (v === undefined ? null : Object.freeze(v))),
    /** Where the .msu is expanded (default: play-stage-<KB> beside the .msu). */
    stageDir: windowsPath().optional(),
  })
  .transform((o) => ({
    kb: o.kb,
    msuPath: o.msuPath,
    localMsu: o.localMsu,
    stageDir: o.stageDir ?? `${o.msuPath.replace(/\\[^\\]*$/, '')}\\play-stage-${o.kb}`,
  }));

export type HotfixStageOptions = z.input<typeof Options>;
export type HotfixStageDesired = Readonly<z.output<typeof Options>>;

/** The probe's facts, DISM's text read into DismPackageInfo (null: not staged, or DISM could not tell). */
export interface HotfixStageActual {
  readonly installed: boolean;
  readonly msuSha256: string | null;
  readonly msuSize: number | null;
  readonly freeBytes: number | null;
  readonly stagedFrom: string | null;
  readonly packageInfo: DismPackageInfo | null;
  /** DISM's failure on the staged CAB (exit code and text), when it failed. */
  readonly dismError: string | null;
}

export interface HotfixStageOutputs {
  uploaded: boolean;
}

const KIND = 'windows.hotfixStage';
/** Free bytes needed before staging, as a multiple of the .msu's size. */
export const STAGE_FREE_FACTOR = 3;

/** 1.5 GiB, 300 MiB, 12 KiB: a size as an operator reads it. */
export function sizeText(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${bytes} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`;
}

function readActual(r: ResultOf<'Get-PlayHotfixStage'>): HotfixStageActual {
  const info = r.packageInfo;
  const ok = info !== null && info.exitCode === 0;
  return {
    installed: r.installed,
    msuSha256: r.msuSha256,
    msuSize: r.msuSize,
    freeBytes: r.freeBytes,
    stagedFrom: r.stagedFrom,
    packageInfo: ok ? parseDismPackageInfo(info.output) : null,
    dismError: info !== null && !ok ? `exit ${exitCodeText(info.exitCode)}: ${info.output}` : null,
  };
}

/** The SHA-256 the staged folder must come from: the local file's, else the .msu's on the host. */
const wantedSha = (d: Readonly<HotfixStageDesired>, a: HotfixStageActual) => d.localMsu?.sha256 ?? a.msuSha256;

/** Why the host has nothing to stage (installed, or DISM says it is on its way), or null. */
function alreadyThere(d: Readonly<HotfixStageDesired>, a: HotfixStageActual): string | null {
  if (a.installed) return `${d.kb} is installed: nothing to stage`;
  const state = a.packageInfo?.state;
  if (a.stagedFrom === wantedSha(d, a) && (state === 'Installed' || state === 'Install Pending'))
    return `DISM says ${d.kb} is ${state}: nothing to stage`;
  return null;
}

/** The free disk the host lacks for staging, as the refusal says it; null when there is enough or no upload. */
export function diskShortfall(d: Readonly<HotfixStageDesired>, a: HotfixStageActual): string | null {
  const size = d.localMsu?.size;
  if (size === undefined || a.freeBytes === null || a.msuSha256 === d.localMsu!.sha256) return null;
  const needed = STAGE_FREE_FACTOR * size;
  if (a.freeBytes >= needed) return null;
  return (
    `not enough free disk on ${d.msuPath.slice(0, 2).toUpperCase()} to stage ${d.kb}: ${sizeText(a.freeBytes)} free, ` +
    `needs ${STAGE_FREE_FACTOR}x the .msu's ${sizeText(size)} (${sizeText(needed)}: the .msu, its expanded CAB and ` +
    `DISM's work); free space on the host, or point hotfix_msu at a volume with room`
  );
}

export function diffHotfixStage(d: Readonly<HotfixStageDesired>, a: HotfixStageActual | null): Change {
  if (a === null) throw new Error('a hotfix staging probe always reports a state');
  const there = alreadyThere(d, a);
  if (there) return { ...NOOP, warnings: [there] };
  const fields: string[] = [];
  const warnings: string[] = [];
  const show = (sha: string | null, size: number | null) => (sha ? `${size} bytes, sha256 ${sha.slice(0, 12)}` : null);
  if (d.localMsu && a.msuSha256 !== d.localMsu.sha256) fields.push('msu');
  const verified = a.stagedFrom !== null && a.stagedFrom === wantedSha(d, a) && a.packageInfo?.applicable === true;
  if (fields.length > 0 || !verified) fields.push('staged');
  if (fields.length === 0) return NOOP;
  if (!d.localMsu && a.msuSha256 === null)
    warnings.push(`the update package ${d.msuPath} is not on the host: apply will fail (copy it there first)`);
  const short = diskShortfall(d, a);
  if (short) warnings.push(`apply will refuse: ${short}`);
  if (a.packageInfo?.applicable === false)
    warnings.push(`DISM says ${d.kb} is not applicable to this host (usually superseded by a newer update)`);
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  if (fields.includes('msu')) {
    before.msu = show(a.msuSha256, a.msuSize);
    after.msu = show(d.localMsu!.sha256, d.localMsu!.size);
  }
  before.staged = a.stagedFrom === null ? null : `from sha256 ${a.stagedFrom.slice(0, 12)}`;
  after.staged = `${d.stageDir}, verified by DISM`;
  return {
    action: a.stagedFrom === null ? 'create' : 'update',
    fields,
    before,
    after,
    ...(warnings.length ? { warnings } : {}),
  };
}

/** DISM's verdict on the freshly expanded CAB: an error unless it applies (or is there already). */
function verdict(d: Readonly<HotfixStageDesired>, exitCode: number, output: string): Error | null {
  if (exitCode !== 0)
    return new Error(`DISM could not read the staged package of ${d.kb}: exit ${exitCodeText(exitCode)}: ${output}`);
  const info = parseDismPackageInfo(output);
  if (info.applicable || info.state === 'Installed' || info.state === 'Install Pending') return null;
  return new Error(
    `DISM says ${d.kb} is not applicable to this host (Applicable : No, State : ${info.state}): usually a newer ` +
      'update superseded it; the install in the window would fail with 0x800F081E (pin a build whose KB applies)',
  );
}

export function hotfixStage(
  options: HotfixStageOptions,
): Step<HotfixStageDesired, HotfixStageActual, HotfixStageOutputs> {
  const desired: HotfixStageDesired = Object.freeze(readOptions(KIND, Options, options));
  const where = (d: HotfixStageDesired) => ({ kb: d.kb, msuPath: d.msuPath, stageDir: d.stageDir });
  const title = `stage hotfix ${desired.kb}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_HOTFIX_STAGE, where(desired), readActual),
    diff: diffHotfixStage,
    async apply(
      remote: Remote,
      change: Change,
      actual: HotfixStageActual | null,
      d: HotfixStageDesired,
    ): Promise<HotfixStageOutputs> {
      const a = actual!;
      const { msuPath, localMsu } = d;
      const short = diskShortfall(d, a);
      if (short) throw stepFailure(title, short);
      const upload = change.fields.includes('msu') && localMsu !== null;
      if (upload) await sendFile(remote, { ...localMsu, path: msuPath }, `${title}: upload`);
      else if (a.msuSha256 === null)
        throw stepFailure(title, `the update package ${msuPath} is not on the host: copy it there first`);
      const staged = await invoke(remote, EXPAND_HOTFIX_STAGE, where(d), `${title}: expand and verify`);
      const wrong = verdict(d, staged.packageInfo.exitCode, staged.packageInfo.output);
      if (wrong) throw stepFailure(title, wrong.message);
      return { uploaded: upload };
    },
    outputs: (): HotfixStageOutputs => ({ uploaded: false }),
  });
}
