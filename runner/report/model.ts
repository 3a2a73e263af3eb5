// The run report: what the JSON output and --report FILE contain, and what renderers show.
import type { Action, Fields } from '../core/change.js';
import type { REPORT_SCHEMA_VERSION } from './schema-version.js';

export type StepStatus = 'ok' | 'changed' | 'failed' | 'skipped' | 'unreachable' | 'unknown';
/** A host whose run was cut short by Ctrl-C (or SIGTERM) is `interrupted`, never `ok`. */
export type HostStatus = 'ok' | 'changed' | 'failed' | 'unreachable' | 'skipped' | 'interrupted';

/**
 * Why a step was skipped: a closed set, so the report, the renderers and the scheduler tell a skip
 * that is a consequence of no change apart from one that hides work, without reading message text.
 *  - not-triggered: a triggeredBy task whose triggers changed nothing (benign).
 *  - would-run: check mode names a triggered task that would run, and runs nothing (benign).
 *  - dependency: a task it needs failed, was unreachable or was skipped itself.
 *  - unmet: a task it needs has no host in this run (--limit).
 *  - interrupted: the run was interrupted before it started.
 *  - not-selected: left out by --tags, --skip-tags, --start-at-task or --step (benign, as in Ansible).
 *  - input-not-run: it reads an output of a task left out, so it is not applied (benign).
 */
export type SkipReason =
  | 'not-triggered'
  | 'would-run'
  | 'dependency'
  | 'unmet'
  | 'interrupted'
  | 'not-selected'
  | 'input-not-run';

/** Skips after which dependents still run: the task had nothing to do, or the operator left it out. */
export const BENIGN_SKIPS: ReadonlySet<SkipReason> = new Set([
  'not-triggered',
  'would-run',
  'not-selected',
  'input-not-run',
]);
export type Mode = 'apply' | 'check';

export interface StepReport {
  task: string;
  /** The host the task ran for, when it ran elsewhere (delegateTo). */
  target?: string;
  kind: string | null;
  title: string | null;
  action: Action | null;
  fields: string[];
  before: Fields | null;
  after: Fields | null;
  textDiff?: string;
  warnings?: string[];
  status: StepStatus;
  /** With status skipped: why (the text is in `error`). */
  skip?: SkipReason;
  durationMs: number;
  error: string | null;
  /** The end of what the step's apply commands wrote (last 20 lines / 4 KiB of each stream), masked. */
  output?: { stdout: string; stderr: string; truncated: boolean };
}

export interface HostReport {
  status: HostStatus;
  steps: StepReport[];
}

export interface Summary {
  ok: number;
  changed: number;
  failed: number;
  skipped: number;
  unreachable: number;
  interrupted: number;
}

export interface RunReport {
  /** The report format's version (docs/reports.md): the same constant in every report kind. */
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  kind: 'run';
  playbook: string;
  mode: Mode;
  startedAt: string;
  durationMs: number;
  interrupted: boolean;
  hosts: Record<string, HostReport>;
  summary: Summary;
}

export function hostStatus(steps: readonly StepReport[]): HostStatus {
  if (steps.some((s) => s.status === 'unreachable')) return 'unreachable';
  if (steps.some((s) => s.status === 'failed')) return 'failed';
  if (steps.some((s) => s.skip === 'interrupted')) return 'interrupted';
  if (steps.some((s) => s.status === 'changed' || s.status === 'unknown')) return 'changed';
  if (steps.length > 0 && steps.every((s) => s.status === 'skipped')) return 'skipped';
  return 'ok';
}

export function summarize(hosts: Record<string, HostReport>): Summary {
  const s: Summary = { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 };
  for (const h of Object.values(hosts)) s[h.status]++;
  return s;
}

/** Exit codes (README): 0 ok, 2 check found changes, 3 a host failed, 4 unreachable, 130 interrupted
 *  (before the others: an interrupted run's outcome is incomplete). */
export function exitCode(report: RunReport): number {
  if (report.interrupted) return 130;
  if (report.summary.failed > 0) return 3;
  if (report.summary.unreachable > 0) return 4;
  if (report.mode === 'check' && report.summary.changed > 0) return 2;
  return 0;
}
