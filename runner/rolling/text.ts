// What a rolling run prints for people: the batch plan (also all of --check), one line per journal
// event as the run goes, and the summary at the end. Pure.
import type { JournalEvent } from '../state/store.js';
import type { BatchPlan } from './model.js';
import type { RolloutReport } from './report.js';

export interface PlanView {
  readonly plan: BatchPlan;
  /** Hosts that need nothing, with why. */
  readonly ok: readonly string[];
  /** Hosts whose changes a waiver covers, with its reason. */
  readonly waived: readonly { host: string; reason: string }[];
  /** Hosts whose check failed or that did not answer: they count against the budget. */
  readonly failed: readonly { host: string; reason: string }[];
  /** What each host in a batch would change (task: fields). */
  readonly changes: Readonly<Record<string, readonly string[]>>;
  readonly allowedFailures: number;
  readonly domainOf: (host: string) => string | null;
}

export function planText(v: PlanView): string {
  const lines: string[] = [];
  const n = v.plan.batches.reduce((s, b) => s + b.length, 0);
  lines.push(
    `plan: ${n} node${n === 1 ? '' : 's'} to upgrade in ${v.plan.batches.length} batch${v.plan.batches.length === 1 ? '' : 'es'}` +
      `, ${v.ok.length} already in the desired state, ${v.waived.length} waived, ${v.failed.length} failed to plan; failures allowed: ${v.allowedFailures}`,
  );
  for (const [i, b] of v.plan.batches.entries()) {
    lines.push(`batch ${i + 1}: ${b.map((h) => withDomain(h, v.domainOf(h))).join(', ')}`);
    for (const h of b) for (const c of v.changes[h] ?? []) lines.push(`    ${h}: ${c}`);
  }
  for (const d of v.plan.deferred)
    lines.push(`  ${d.host}: moved from batch ${d.fromBatch} to ${d.toBatch} (domain ${d.domain} was full)`);
  for (const h of v.ok) lines.push(`ok: ${h} (already in the desired state: not cordoned)`);
  for (const w of v.waived) lines.push(`waived: ${w.host} (${w.reason}): not cordoned`);
  for (const f of v.failed) lines.push(`failed: ${f.host}: ${f.reason}`);
  return `${lines.join('\n')}\n`;
}

const withDomain = (h: string, d: string | null) => (d === null ? h : `${h} [${d}]`);

/** One event as it happens: seconds since the start, host (or the run), phase, what happened. */
export function eventLine(e: JournalEvent, startMs: number): string {
  const t = `${((Date.parse(e.at) - startMs) / 1000).toFixed(1).padStart(7)}s`;
  const who = (e.host || '*').padEnd(12);
  const state = e.state === 'end' ? 'ok' : e.state === 'fail' ? 'FAILED' : e.state;
  return `${t}  ${who} ${e.phase.padEnd(9)} ${state}${e.detail ? `  ${e.detail}` : ''}\n`;
}

export function summaryText(r: RolloutReport): string {
  const counts = new Map<string, number>();
  for (const h of Object.values(r.hosts)) counts.set(h.outcome, (counts.get(h.outcome) ?? 0) + 1);
  const lines = [
    `run ${r.run} ${r.status}${r.reason ? `: ${r.reason}` : ''}`,
    `nodes: ${[...counts].map(([o, c]) => `${c} ${o}`).join(', ') || 'none'}; failures ${r.budget.failed} of ${r.budget.allowed} allowed`,
  ];
  for (const [h, x] of Object.entries(r.hosts)) if (x.outcome === 'failed') lines.push(`  ${h}: ${x.reason}`);
  const cordoned = Object.values(r.hosts)
    .map((h) => h.cordonedMs)
    .filter((x): x is number => x !== null);
  if (cordoned.length)
    lines.push(
      `cordoned per node: ${(Math.max(...cordoned) / 1000).toFixed(1)}s at most, ${(cordoned.reduce((a, b) => a + b, 0) / cordoned.length / 1000).toFixed(1)}s on average`,
    );
  if (r.readyToNextBatchMs.length)
    lines.push(`last Ready to next batch: ${r.readyToNextBatchMs.map((x) => `${(x / 1000).toFixed(2)}s`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}
