// What windows.powershell and windows.command share: the guards that make a command run at most
// when needed (creates, removes, unless; read once by the probe Test-PlayGuards, batched with the
// host's other calls), the plan they give (noop, or `run`), and changedWhen, which decides after
// the run whether it changed anything (the report then says ok, not changed: runner/core/applied.ts).
import { type Change, NOOP } from '../../runner/core/change.js';
import type { OptionReader } from '../../runner/core/options.js';
import type { Probe } from '../../runner/core/step.js';
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

export const GUARD_OPTIONS = ['creates', 'removes', 'unless', 'changedWhen'] as const;

export function readGuards(r: OptionReader): GuardsDesired {
  const creates = r.opts.creates === undefined ? undefined : windowsPath(r, 'creates');
  const removes = r.opts.removes === undefined ? undefined : windowsPath(r, 'removes');
  const unless = r.opts.unless === undefined ? undefined : r.nonEmpty('unless');
  return { creates, removes, unless };
}

export function hasGuard(g: GuardsDesired): boolean {
  return g.creates !== undefined || g.removes !== undefined || g.unless !== undefined;
}

/** The user's predicate, checked to be a function when the step is built. */
export function readChangedWhen<R>(r: OptionReader): ((result: R) => boolean) | undefined {
  const v = r.opts.changedWhen;
  if (v === undefined) return undefined;
  if (typeof v !== 'function')
    r.fail('changedWhen', `must be a function of the result returning true or false, got ${typeof v}`);
  return v as (result: R) => boolean;
}

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
