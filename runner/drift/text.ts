// A drift run for a terminal (pure): one summary line, then the items by status with their fields'
// before and after (masked values, as recorded), then the hosts that could not be judged and the
// playbooks not checked. A host that could not be judged is never counted under "no drift".
import type { DriftItem, DriftRun } from './model.js';

const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));

function itemLines(i: DriftItem): string[] {
  const where = `${i.host}  ${i.playbook}/${i.task}${i.target ? ` (for ${i.target})` : ''}`;
  const since = i.status === 'persisting' ? ` (since ${i.firstSeen})` : '';
  const waiver = i.waiver
    ? i.waiver.expired
      ? `  [waiver expired ${i.waiver.expires}: ${i.waiver.reason}]`
      : `  [waived until ${i.waiver.expires}: ${i.waiver.reason}]`
    : '';
  const head = `  ${i.status.padEnd(10)} ${where}  ${i.action}${i.fields.length ? ` ${i.fields.join(', ')}` : ''}${since}${waiver}`;
  const lines = [head];
  if (i.unknownReason) lines.push(`      unknown: ${i.unknownReason}`);
  for (const f of i.fields) lines.push(`      ${f}: ${show(i.before?.[f])} -> ${show(i.after?.[f])}`);
  if (i.textDiff)
    lines.push(
      ...i.textDiff
        .trimEnd()
        .split('\n')
        .map((l) => `      ${l}`),
    );
  return lines;
}

/** `no drift`, `2 items drifted`; with hosts not judged, `no drift on 5 of 6 hosts` (never plain "no drift"). */
function verdict(run: DriftRun): string {
  const c = run.counts;
  if (c.drifted > 0) return `${c.drifted} item${c.drifted === 1 ? '' : 's'} drifted`;
  const notJudged = new Set(run.problems.map((p) => p.host)).size;
  if (notJudged === 0) return 'no drift';
  const judged = run.hosts.length - notJudged;
  return judged > 0 ? `no drift on ${judged} of ${run.hosts.length} hosts` : 'no host judged';
}

export function driftRunText(run: DriftRun): string {
  const c = run.counts;
  const parts = [`${c.new} new`, `${c.persisting} persisting`, `${c.resolved} resolved`];
  if (c.waived) parts.push(`${c.waived} waived`);
  if (c.unreachable) parts.push(`${c.unreachable} unreachable`);
  if (c.failed) parts.push(`${c.failed} failed`);
  const skipped = run.skipped ?? [];
  if (skipped.length) parts.push(`${skipped.length} playbook${skipped.length === 1 ? '' : 's'} not checked`);
  const lines = [
    `drift run ${run.id}: ${verdict(run)} (${parts.join(', ')}) on ${run.hosts.length} host${run.hosts.length === 1 ? '' : 's'}, ${run.playbooks.join(', ')}, ${(run.durationMs / 1000).toFixed(1)} s${run.controller ? `, by ${run.controller}` : ''}`,
  ];
  const order: DriftItem['status'][] = ['new', 'persisting', 'resolved'];
  for (const status of order) for (const i of run.items.filter((x) => x.status === status)) lines.push(...itemLines(i));
  for (const p of run.problems)
    lines.push(`  ${p.kind.padEnd(10)} ${p.host}${p.task ? `  ${p.playbook}/${p.task}` : ''}: ${p.message}`);
  for (const s of skipped) lines.push(`  warning: ${s.playbook} not checked: ${s.reason}`);
  for (const w of run.warnings) lines.push(`  warning: ${w}`);
  if (run.notifyError) lines.push(`  notification failed: ${run.notifyError}`);
  return `${lines.join('\n')}\n`;
}
