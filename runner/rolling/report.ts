// The rolling run's report, from the journal alone (so a resumed or crashed run reports the same way):
// the batches, each node's outcome and phases with times, the budget, and the timings an operator
// asks about (how long a node stayed cordoned; the gap between a batch's last Ready and the next
// batch's start), and the summary every report kind carries (docs/reports.md). Pure.
import type { Summary } from '../report/model.js';
import { REPORT_SCHEMA_VERSION } from '../report/schema-version.js';
import { controllerName } from '../state/process-identity.js';
import type { JournalEvent, RolloutRecord } from '../state/store.js';
import { UNFINISHED } from './model.js';
import { failedCount, type HostProgress, hostProgress, type PhaseSpan, runNotes } from './progress.js';

export interface RolloutBatchReport {
  readonly batch: number;
  readonly hosts: readonly string[];
  readonly startedAt: string;
  readonly endedAt: string | null;
  /** The gate after it: passed, failed (with why), or null (none ran). */
  readonly gate: string | null;
}

export interface RolloutHostReport {
  readonly outcome: HostProgress['outcome'];
  readonly batch: number | null;
  readonly reason: string | null;
  /** Cordon end to uncordon end, ms; null when not both happened. */
  readonly cordonedMs: number | null;
  readonly phases: readonly PhaseSpan[];
}

/** The six host counters of every report, and the batches that started (a batch begun again on resume once). */
export interface RolloutSummary extends Summary {
  batches: number;
}

export interface RolloutReport {
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION;
  readonly kind: 'rolling';
  readonly run: number;
  readonly playbook: string;
  readonly status: RolloutRecord['status'];
  readonly reason: string | null;
  readonly startedAt: string;
  readonly updatedAt: string;
  /** The controller working on it now (or last): several may share one store, and one may take over. */
  readonly controller: string;
  readonly summary: RolloutSummary;
  readonly budget: { readonly allowed: number; readonly failed: number };
  readonly plan: unknown;
  readonly batches: readonly RolloutBatchReport[];
  readonly hosts: Readonly<Record<string, RolloutHostReport>>;
  /** For each batch after the first: ms from the previous batch's last node Ready to this batch's start. */
  readonly readyToNextBatchMs: readonly number[];
}

const ms = (a: string, b: string) => Date.parse(b) - Date.parse(a);

function cordonedMs(p: HostProgress): number | null {
  const cordon = p.phases.find((s) => s.phase === 'cordon' && s.endedAt);
  const uncordon = [...p.phases].reverse().find((s) => s.phase === 'uncordon' && s.endedAt);
  return cordon && uncordon ? ms(cordon.endedAt!, uncordon.endedAt!) : null;
}

function batches(events: readonly JournalEvent[]): RolloutBatchReport[] {
  const out: { batch: number; hosts: string[]; startedAt: string; endedAt: string | null; gate: string | null }[] = [];
  for (const e of runNotes(events)) {
    const n = e.data?.batch;
    if (typeof n !== 'number') continue;
    if (e.phase === 'batch' && e.state === 'begin')
      out.push({ batch: n, hosts: (e.data?.hosts as string[]) ?? [], startedAt: e.at, endedAt: null, gate: null });
    const last = [...out].reverse().find((b) => b.batch === n);
    if (!last) continue;
    if (e.phase === 'batch' && e.state === 'end') last.endedAt = e.at;
    if (e.phase === 'gate') last.gate = e.state === 'fail' ? `failed: ${e.detail}` : `passed: ${e.detail}`;
  }
  return out;
}

/**
 * For each batch after the first: from the previous batch's last node Ready to this batch's start.
 * After a resume a batch is begun again (its nodes in flight finished) and its Ready times fall after
 * its first begin: the gap is to the first begin of the next batch at or after that Ready, never negative.
 */
function readyGaps(bs: readonly RolloutBatchReport[], hosts: Map<string, HostProgress>): number[] {
  const gaps: number[] = [];
  const numbers = [...new Set(bs.map((b) => b.batch))].sort((a, b) => a - b);
  for (let i = 1; i < numbers.length; i++) {
    const previous = new Set(bs.filter((b) => b.batch === numbers[i - 1]).flatMap((b) => b.hosts));
    const readyAts = [...previous].flatMap((h) =>
      (hosts.get(h)?.phases ?? []).filter((s) => s.phase === 'ready' && s.endedAt).map((s) => s.endedAt!),
    );
    if (readyAts.length === 0) continue;
    const lastReady = readyAts.sort().at(-1)!;
    const start = bs
      .filter((b) => b.batch === numbers[i] && b.startedAt >= lastReady)
      .map((b) => b.startedAt)
      .sort()[0];
    if (start !== undefined) gaps.push(ms(lastReady, start));
  }
  return gaps;
}

/**
 * Each host once, by its outcome: a node upgraded (done) changed; one that needed nothing ok; a waived
 * one skipped, as is a node the run never reached once it ended (budget spent, a gate failed); a node
 * not reached in a run that is not over (interrupted, paused, running) interrupted. An unreachable
 * node is failed here, as the failure budget counts it.
 */
export function rolloutSummary(
  status: RolloutRecord['status'],
  hosts: Iterable<Pick<HostProgress, 'outcome'>>,
  bs: readonly Pick<RolloutBatchReport, 'batch'>[],
): RolloutSummary {
  const s: RolloutSummary = { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 0, batches: 0 };
  const cutShort = UNFINISHED.includes(status);
  for (const { outcome } of hosts) {
    if (outcome === 'done') s.changed++;
    else if (outcome === 'ok') s.ok++;
    else if (outcome === 'failed') s.failed++;
    else if (outcome === 'waived') s.skipped++;
    else s[cutShort ? 'interrupted' : 'skipped']++;
  }
  s.batches = new Set(bs.map((b) => b.batch)).size;
  return s;
}

export function rolloutReport(run: RolloutRecord, events: readonly JournalEvent[], allowed: number): RolloutReport {
  const progress = hostProgress(events);
  const hosts: Record<string, RolloutHostReport> = {};
  for (const [name, p] of progress)
    hosts[name] = { outcome: p.outcome, batch: p.batch, reason: p.reason, cordonedMs: cordonedMs(p), phases: p.phases };
  const bs = batches(events);
  const plan = runNotes(events).find((e) => e.phase === 'plan')?.data ?? null;
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'rolling',
    run: run.id,
    playbook: run.playbook,
    status: run.status,
    reason: run.reason,
    startedAt: run.startedAt,
    controller: controllerName({ host: run.controller, pid: run.pid }),
    updatedAt: run.updatedAt,
    summary: rolloutSummary(run.status, progress.values(), bs),
    budget: { allowed, failed: failedCount(progress.values()) },
    plan,
    batches: bs,
    hosts,
    readyToNextBatchMs: readyGaps(bs, progress),
  };
}
