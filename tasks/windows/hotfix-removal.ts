// Taking an update back off a Windows node (docs/rolling.md#rollback-and-quarantine): DISM removes a
// package by its identity (Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7), which the
// hotfix step records when it installs (ps-hotfix-removal.ts). Two ways in:
// - hotfixRemoval({ kb, packageName? }): a step (field installed, action delete; output rebootRequired),
//   for a playbook that takes a KB off on purpose; the reboot is a reboot task after it, as for hotfix.
// - rollBackHotfix(remote, ...): what a rolling run's `--on-failure rollback` does on a node that failed
//   after its install: remove, reboot (reboot-wait.ts's verified wait), read the build it came back with.
// DISM's exit codes for /remove-package (removalOutcome):
//   0                          removed
//   3010                       removed, a reboot completes it
//   -2146498555 (0x800f0805)   CBS_E_INVALID_PACKAGE: no package of that identity on the host
//   -2146498523 (0x800f0825)   a permanent package: it cannot be uninstalled
//   anything else              fails, with the code and DISM's text
import { NOOP, type Change } from '../../runner/core/change.js';
import { z } from 'zod';
import { nonEmpty, readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { exitCodeText } from './hotfix.js';
import { waitForReboot } from './reboot-wait.js';
import { RESTART_DELAY_SECONDS } from './reboot.js';
import { invoke, probeCall, stepFailure } from './remote/calls.js';
import { REAL_CLOCK, type Clock } from './remote/clock.js';
import { isConnectionProblem } from './remote/connection-loss.js';
import type { ResultOf } from './remote/contract.js';
import { GET_HOTFIX_PACKAGE, REMOVE_HOTFIX } from './remote/ps-hotfix-removal.js';
import { GET_OS_INFO, RESTART_COMPUTER } from './remote/ps-os.js';
import { kbNumber } from './options/win-options.js';

const KIND = 'windows.hotfixRemoval';

const Options = z.strictObject({
  kb: kbNumber(),
  /** The identity to remove; null: the one the hotfix step recorded on the host. */
  packageName: nonEmpty()
    .optional()
    .transform((v) => v ?? null),
});

export type HotfixRemovalOptions = z.input<typeof Options>;
export type HotfixRemovalDesired = Readonly<z.output<typeof Options>>;

export type HotfixRemovalActual = Readonly<ResultOf<'Get-PlayHotfixPackage'>>;

export interface HotfixRemovalOutputs {
  rebootRequired: boolean;
}

export const DISM_REMOVE = { ok: 0, rebootRequired: 3010, unknown: -2146498555, permanent: -2146498523 } as const;

/** What DISM's exit code for /remove-package means: whether a reboot completes it, or the error (with DISM's text). */
export function removalOutcome(packageName: string, code: number, output = ''): { rebootRequired: boolean } | Error {
  if (code === DISM_REMOVE.ok) return { rebootRequired: false };
  if (code === DISM_REMOVE.rebootRequired) return { rebootRequired: true };
  const why =
    code === DISM_REMOVE.unknown
      ? ': the host has no package of that identity (dism /online /get-packages lists them)'
      : code === DISM_REMOVE.permanent
        ? ': a permanent package, which cannot be uninstalled'
        : '';
  const text = output.replace(/\s+/g, ' ').trim();
  return new Error(
    `DISM failed to remove ${packageName}: exit ${exitCodeText(code)}${why}${text ? ` (DISM: ${text})` : ''}`,
  );
}

export function diffHotfixRemoval(d: Readonly<HotfixRemovalDesired>, a: HotfixRemovalActual | null): Change {
  if (a === null) throw new Error('a hotfix package probe always reports a state');
  if (!a.installed) return NOOP;
  const warnings =
    d.packageName === null && a.packageName === null
      ? [`no package identity of ${d.kb} is recorded on the host: apply will fail (give packageName)`]
      : [];
  return {
    action: 'delete',
    fields: ['installed'],
    before: { installed: true },
    after: { installed: false },
    ...(warnings.length ? { warnings } : {}),
  };
}

async function removePackage(
  remote: Remote,
  title: string,
  kb: string,
  packageName: string,
): Promise<{ rebootRequired: boolean }> {
  const r = await invoke(remote, REMOVE_HOTFIX, { kb, packageName }, `${title}: DISM`);
  const outcome = removalOutcome(packageName, r.exitCode, r.output);
  if (outcome instanceof Error) throw stepFailure(title, outcome.message);
  return outcome;
}

export function hotfixRemoval(
  options: HotfixRemovalOptions,
): Step<HotfixRemovalDesired, HotfixRemovalActual, HotfixRemovalOutputs> {
  const desired: HotfixRemovalDesired = Object.freeze(readOptions(KIND, Options, options));
  const { kb } = desired;
  const title = `remove hotfix ${kb}`;
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    // Get-HotFix may list a removed update until the reboot that completes its removal.
    converges: false,
    probe: () => probeCall(GET_HOTFIX_PACKAGE, { kb }, (v) => v),
    diff: diffHotfixRemoval,
    async apply(
      remote: Remote,
      change: Change,
      actual: HotfixRemovalActual | null,
      d: HotfixRemovalDesired,
    ): Promise<HotfixRemovalOutputs> {
      if (!change.fields.includes('installed')) return { rebootRequired: false };
      const name = d.packageName ?? actual?.packageName ?? null;
      if (name === null)
        throw stepFailure(title, `no package identity of ${d.kb} is recorded on the host: give packageName`);
      return removePackage(remote, title, d.kb, name);
    },
    outputs: (): HotfixRemovalOutputs => ({ rebootRequired: false }),
  });
}

export interface RollBack {
  readonly kb: string;
  readonly packageName: string;
  /** How long the reboot may take (seconds). */
  readonly timeoutSec: number;
  readonly clock?: Clock;
}

/** The node after a rollback: the build it runs now (10.0.17763.1158) and its revision. */
export interface RolledBack {
  readonly build: string;
  readonly revision: number;
}

/** Removes the package, reboots (verified: a new boot time), and reads the build the node came back with. */
export async function rollBackHotfix(remote: Remote, o: RollBack): Promise<RolledBack> {
  const title = `roll back ${o.kb}`;
  const clock = o.clock ?? REAL_CLOCK;
  const deadline = clock.now() + o.timeoutSec * 1000;
  const before = await invoke(remote, GET_OS_INFO, {}, `${title}: Get-PlayOsInfo`);
  await removePackage(remote, title, o.kb, o.packageName);
  try {
    await invoke(remote, RESTART_COMPUTER, { delaySeconds: RESTART_DELAY_SECONDS }, `${title}: Restart-PlayComputer`);
  } catch (e) {
    if (!isConnectionProblem(e)) throw e; // the restart may have been faster than the answer
  }
  await waitForReboot(remote, { title, before: before.lastBootUpTime, deadline, clock, services: [] });
  const after = await invoke(remote, GET_OS_INFO, {}, `${title}: Get-PlayOsInfo`);
  return { build: `${after.version}.${after.revision}`, revision: after.revision };
}
