// What a drift run found (docs/architecture.md): the records the store keeps, the reports
// render and notifications carry. Values are already masked: a secret that changed shows as changed,
// never with either value. Pure data, no I/O.
import type { Action, Fields } from '../core/change.js';
import type { Summary } from '../report/model.js';

/**
 * Against the previous run: `new` (not drifted then), `persisting` (drifted then too; firstSeen is
 * kept), `resolved` (drifted then, not now: recorded once, in the run that saw it go).
 */
export type DriftStatus = 'new' | 'persisting' | 'resolved';

/** A waiver that matched the item: while unexpired the item is waived and does not count as drift. */
export interface AppliedWaiver {
  reason: string;
  /** yyyy-mm-dd, the last day the waiver holds. */
  expires: string;
  /** True once past `expires`: the item counts as drift again and the report says so. */
  expired: boolean;
  /** Where the waiver is written: `FILE:LINE`. */
  source: string;
}

export interface DriftItem {
  /** The host the step runs on (and whose state drifted). */
  host: string;
  playbook: string;
  task: string;
  /** The host the task runs for, when that is another (delegateTo: a VIP on a ToR host for a Windows node). */
  target?: string;
  /** The step kind and title, for people (`windows.service`, `service kubelet`). */
  kind: string | null;
  title: string | null;
  /** What apply would do: create, update, delete, run; `unknown` when the plan could not know. */
  action: Action | 'unknown';
  /** Fields that differ (empty for create/delete of the whole thing). */
  fields: string[];
  /** Masked actual and desired values of those fields (null: absent, or not known). */
  before: Fields | null;
  after: Fields | null;
  /** A unified diff of a file's text, when the step has one (masked). */
  textDiff?: string;
  /** With action `unknown`: why the value cannot be known (never reported as ok). */
  unknownReason?: string;
  status: DriftStatus;
  /** ISO time of the first run in the current streak that saw this item drift. */
  firstSeen: string;
  waiver?: AppliedWaiver;
}

/** A host the run could not judge: it is neither ok nor drifted. */
export interface HostProblem {
  host: string;
  kind: 'unreachable' | 'failed';
  /** The task whose probe failed (failed only). */
  task?: string;
  playbook?: string;
  message: string;
}

/**
 * A playbook the run did not check, and why: none of its hosts is in the inventory (or the --limit), or
 * a group it needs to read from is empty (onboard-windows reads the cluster on a host of `control`).
 * It is not drift and not ok: the reports name it so that a quiet report is not mistaken for a clean one.
 */
export interface SkippedPlaybook {
  playbook: string;
  reason: string;
}

/** Each item in one group: new, persisting, resolved, or waived (an unexpired waiver covers it). */
export interface DriftCounts {
  new: number;
  persisting: number;
  resolved: number;
  waived: number;
  /** new + persisting items that are not waived: what "drift" means for the exit code. */
  drifted: number;
  unreachable: number;
  failed: number;
}

/**
 * Exit codes, like Terraform's -detailed-exitcode: 0 no drift, 2 drift, 3 a host failed to be
 * probed, 4 unreachable hosts and no drift.
 */
export type DriftExit = 0 | 2 | 3 | 4;

export interface DriftRun {
  /** Increasing integer, from the store. */
  id: number;
  startedAt: string;
  durationMs: number;
  playbooks: string[];
  /** The playbooks asked for (named, or drift-checked) that were not checked. Absent in runs of older plays. */
  skipped?: SkippedPlaybook[];
  /** The inventory's path as given (or `lab`). */
  inventory: string;
  /** Which controller ran it (`host (pid N)`): several may share one store. Absent in runs of older plays. */
  controller?: string;
  /** The targeted hosts, in inventory order. */
  hosts: string[];
  items: DriftItem[];
  problems: HostProblem[];
  counts: DriftCounts;
  exitCode: DriftExit;
  /** A notification that failed (never a reason to exit non-zero by itself). */
  notifyError?: string;
  /** Warnings for people: waivers that matched nothing, expired waivers. */
  warnings: string[];
}

/** An item counts as drift unless an unexpired waiver covers it; resolved items never count. */
export function countsAsDrift(item: DriftItem): boolean {
  return item.status !== 'resolved' && !(item.waiver && !item.waiver.expired);
}

export function countItems(items: readonly DriftItem[], problems: readonly HostProblem[]): DriftCounts {
  const c: DriftCounts = { new: 0, persisting: 0, resolved: 0, waived: 0, drifted: 0, unreachable: 0, failed: 0 };
  // Each item is counted once: a waived one under waived only (the reports' groups and the
  // metrics' status label do the same).
  for (const i of items) {
    if (i.status !== 'resolved' && i.waiver && !i.waiver.expired) c.waived++;
    else c[i.status]++;
    if (countsAsDrift(i)) c.drifted++;
  }
  for (const p of problems) c[p.kind]++;
  return c;
}

/**
 * What the run knows of each targeted host: `drifted` (an item counts as drift), `ok`, `unreachable`
 * (never `ok`: nothing was judged) or `failed` (a probe failed; items found elsewhere still count).
 */
export type HostStatus = 'drifted' | 'ok' | 'unreachable' | 'failed';

export function hostStatus(run: Pick<DriftRun, 'hosts' | 'items' | 'problems'>): Record<string, HostStatus> {
  const drifted = new Set(run.items.filter(countsAsDrift).map((i) => i.host));
  const problem = new Map<string, HostStatus>();
  for (const p of run.problems) if (problem.get(p.host) !== 'unreachable') problem.set(p.host, p.kind);
  const out: Record<string, HostStatus> = {};
  for (const h of run.hosts) out[h] = problem.get(h) ?? (drifted.has(h) ? 'drifted' : 'ok');
  return out;
}

/** The six host counters of every report (a drifted host is `changed`: apply would change it), and the items that count as drift. */
export interface DriftSummary extends Summary {
  driftedItems: number;
}

/** Each targeted host once, by its status (hostStatus): a drifted host is `changed`. */
export function driftSummary(run: Pick<DriftRun, 'hosts' | 'items' | 'problems'>): DriftSummary {
  const s: DriftSummary = { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 0, driftedItems: 0 };
  for (const status of Object.values(hostStatus(run))) s[status === 'drifted' ? 'changed' : status]++;
  s.driftedItems = run.items.filter(countsAsDrift).length;
  return s;
}

export function driftExit(c: DriftCounts): DriftExit {
  if (c.failed > 0) return 3;
  if (c.drifted > 0) return 2;
  if (c.unreachable > 0) return 4;
  return 0;
}

/**
 * The identity of an item across runs: the resource on its host (step kind and title, e.g.
 * `linux.file /etc/keepalived/keepalived.conf` on tor2), so that a file two playbooks manage drifts
 * as one item; without a kind and title (a plan that could not build its step), the task.
 */
export function itemKey(i: Pick<DriftItem, 'host' | 'playbook' | 'task' | 'target' | 'kind' | 'title'>): string {
  if (i.kind && i.title) return `${i.host}\u0000${i.kind}\u0000${i.title}`;
  return `${i.host}\u0000${i.playbook}\u0000${i.task}\u0000${i.target ?? ''}`;
}
