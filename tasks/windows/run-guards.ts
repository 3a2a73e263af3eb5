// What windows.powershell and windows.command share: the guards that make a command run at most
// when needed (creates, removes, unless; read once by the probe Test-PlayGuards, batched with the
// host's other calls), the plan they give (noop, or `run`), and changedWhen, which decides after
// the run whether it changed anything (the report then says ok, not changed: runner/core/applied.ts).
import { type Change, NOOP } from '../../runner/core/change.js';
import { nonEmpty } from '../../runner/core/step-options.js';
import type { Probe } from '../../runner/core/step.js';
import { accepted } from './options/checked.js';
import { windowsPath } from './options/win-options.js';
import { probeFunction } from './remote/open-function.js';
import { TEST_GUARDS } from './remote/ps-escape.js';

export interface GuardsDesired {
  /** A path whose existence means the command has already run. */
  readonly creates?: string;
  /** A path that must exist for the command to run (it removes it). */
  readonly removes?: string;
  /** PowerShell whose success (no error, $LASTEXITCODE 0, last output not $false) means nothing to do. */
  readonly unless?: string;
}

export interface GuardsActual {
  readonly createsExists: boolean | null;
  readonly removesExists: boolean | null;
  readonly unlessSucceeded: boolean | null;
}

/** The guard options, for a step's schema. */
export const guardOptions = () => ({
  creates: windowsPath().optional(),
  removes: windowsPath().optional(),
  unless: nonEmpty().optional(),
});

export function hasGuard(g: GuardsDesired): boolean {
  return g.creates !== undefined || g.removes !== undefined || g.unless !== undefined;
}

/** The user's predicate, checked to be a function when the step is built. */
export const changedWhenOption = <R>() =>
  accepted<(result: R) => boolean>(
    (v) => typeof v === 'function',
    (v) => `must be a function of the result returning true or false, got ${typeof v}`,
  ).optional();

/** The probe: the script (if any) is parsed on the host too, so a syntax error fails the plan, not the apply. */
export function guardsProbe(g: GuardsDesired, script: string | null): Probe<GuardsActual> {
  return probeFunction(
    TEST_GUARDS,
    { script, creates: g.creates ?? null, removes: g.removes ?? null, unless: g.unless ?? null },
    (v) => v,
  );
}

/** Nothing to do when creates exists, removes does not, or unless succeeded; else `run`, showing `after`. */
export function diffGuarded(g: GuardsDesired, a: GuardsActual | null, field: string, shown: string): Change {
  if (g.creates !== undefined && a?.createsExists) return NOOP;
  if (g.removes !== undefined && a?.removesExists === false) return NOOP;
  if (g.unless !== undefined && a?.unlessSucceeded) return NOOP;
  return { action: 'run', fields: [field], before: null, after: { [field]: shown } };
}

/** changedWhen's verdict (a non-boolean answer is the playbook's mistake, said as such). */
export function judgeChanged<R>(
  kind: string,
  changedWhen: ((result: R) => boolean) | undefined,
  result: R,
  fallback: boolean,
): boolean {
  if (!changedWhen) return fallback;
  const verdict = changedWhen(result);
  if (typeof verdict !== 'boolean')
    throw new TypeError(`${kind}: changedWhen must return true or false, got ${typeof verdict}`);
  return verdict;
}
