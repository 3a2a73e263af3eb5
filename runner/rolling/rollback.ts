// `--on-failure rollback` (docs/rolling.md#rollback-and-quarantine): what a rolling run does with a node
// that fails after its install (not Ready within --ready-timeout): take the update back off, reboot,
// verify the old build, uncordon, quarantine the KB; the run stops as it does without it. Pure: the
// option, what an apply recorded, and the decision.

export type OnFailure = 'stop' | 'rollback';
export const ON_FAILURE: readonly OnFailure[] = ['stop', 'rollback'];

/** An update the node's apply installed, as the journal records it when the apply phase ends. */
export interface InstalledUpdate {
  readonly kb: string;
  /** The package identity DISM installed (null: the host recorded none). */
  readonly packageName: string | null;
  /** The OS build the node ran before the apply (10.0.17763.1158), null if it could not be read. */
  readonly buildBefore: string | null;
}

/** The journal's `data` key of an apply end that lists what it installed. */
export const INSTALLED = 'installed';

export type RollbackDecision =
  | { readonly rollback: true; readonly updates: readonly (InstalledUpdate & { packageName: string })[] }
  | { readonly rollback: false; readonly why: string };

/** Whether to roll a node back, from the option and what its apply recorded. */
export function rollbackDecision(onFailure: OnFailure, installed: readonly InstalledUpdate[] | null): RollbackDecision {
  if (onFailure !== 'rollback') return { rollback: false, why: 'left as it is (--on-failure stop)' };
  if (installed === null || installed.length === 0)
    return { rollback: false, why: 'nothing to roll back: its tasks installed no update in this run' };
  const unnamed = installed.filter((u) => u.packageName === null).map((u) => u.kb);
  if (unnamed.length > 0)
    return {
      rollback: false,
      why: `not rolled back: no package identity was recorded for ${unnamed.join(', ')} (remove it by hand: dism /online /get-packages, /remove-package)`,
    };
  return { rollback: true, updates: installed as (InstalledUpdate & { packageName: string })[] };
}

/** The updates an apply end event recorded (its data's `installed`), or null. */
export function installedOf(data: Readonly<Record<string, unknown>> | null | undefined): InstalledUpdate[] | null {
  const v = data?.[INSTALLED];
  return Array.isArray(v) ? (v as InstalledUpdate[]) : null;
}

/** Whether the node came back at the build it ran before (unknown before: any build below the update's counts). */
export function backAtBuild(before: string | null, now: string): boolean {
  return before === null || before === now;
}
