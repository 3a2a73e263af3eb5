// The rolling run's report, from the journal alone (so a resumed or crashed run reports the same way):
// the batches, each node's outcome and phases with times, the budget, and the timings an operator
// asks about (how long a node stayed cordoned; the gap between a batch's last Ready and the next
// batch's start). Pure.
import { controllerName } from '../state/process-identity.js';
import type { JournalEvent, RolloutRecord } from '../state/store.js';
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

export interface RolloutReport {
  readonly run: number;
  readonly playbook: string;
  readonly status: RolloutRecord['status'];
  readonly reason: string | null;
  readonly startedAt: string;
  readonly updatedAt: string;
  /** The controller working on it now (or last): several may share one store, and one may take over. */
  readonly controller: string;
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

export function rolloutReport(run: RolloutRecord, events: readonly JournalEvent[], allowed: number): RolloutReport {
  const progress = hostProgress(events);
  const hosts: Record<string, RolloutHostReport> = {};
  for (const [name, p] of progress)
    hosts[name] = { outcome: p.outcome, batch: p.batch, reason: p.reason, cordonedMs: cordonedMs(p), phases: p.phases };
  const bs = batches(events);
  const plan = runNotes(events).find((e) => e.phase === 'plan')?.data ?? null;
  return {
    run: run.id,
    playbook: run.playbook,
    status: run.status,
    reason: run.reason,
    startedAt: run.startedAt,
    controller: controllerName({ host: run.controller, pid: run.pid }),
    updatedAt: run.updatedAt,
    budget: { allowed, failed: failedCount(progress.values()) },
    plan,
    batches: bs,
    hosts,
    readyToNextBatchMs: readyGaps(bs, progress),
  };
}
