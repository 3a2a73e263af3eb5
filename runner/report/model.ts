// The run report: what the JSON output and --report FILE contain, and what renderers show.
import type { Action, Fields } from '../core/change.js';

export type StepStatus = 'ok' | 'changed' | 'failed' | 'skipped' | 'unreachable' | 'unknown';
export type HostStatus = 'ok' | 'changed' | 'failed' | 'unreachable' | 'skipped';
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
  durationMs: number;
  error: string | null;
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
}

export interface RunReport {
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
  if (steps.some((s) => s.status === 'changed' || s.status === 'unknown')) return 'changed';
  if (steps.length > 0 && steps.every((s) => s.status === 'skipped')) return 'skipped';
  return 'ok';
}

export function summarize(hosts: Record<string, HostReport>): Summary {
  const s: Summary = { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0 };
  for (const h of Object.values(hosts)) s[h.status]++;
  return s;
}

/** Exit codes (README): 0 ok, 2 check found changes, 3 a host failed, 4 unreachable, 130 interrupted. */
export function exitCode(report: RunReport): number {
  if (report.interrupted) return 130;
  if (report.summary.failed > 0) return 3;
  if (report.summary.unreachable > 0) return 4;
  if (report.mode === 'check' && report.summary.changed > 0) return 2;
  return 0;
}
