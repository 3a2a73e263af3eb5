// A drift run in Markdown for a chat message or a ticket (pure): the summary line, a table per
// status group (common.ts GROUPS) with short before/after values, the text diffs, then the hosts
// that could not be judged, the playbooks not checked and the warnings. Every value is escaped for a GFM table cell: a `|` or a
// backtick in a value cannot break the table or open a code span, and `<` cannot become HTML.
import type { DriftItem, DriftRun } from '../model.js';
import {
  duration,
  EXIT_MEANING,
  GROUPS,
  type Group,
  groupOf,
  oneLine,
  orderedItems,
  showValue,
  summaryLine,
  taskLabel,
  truncate,
  visible,
  waiverText,
} from './common.js';

export interface MarkdownOptions {
  /** Longest value shown in a table cell, in characters (the rest is cut with `…`). Default 40. */
  maxValue?: number;
  /** Lines of a text diff shown per item. Default 20. */
  maxDiffLines?: number;
}

const TITLES: Record<Group, string> = { new: 'New', persisting: 'Persisting', waived: 'Waived', resolved: 'Resolved' };

export function renderMarkdown(run: DriftRun, o: MarkdownOptions = {}): string {
  const maxValue = o.maxValue ?? 40;
  const items = orderedItems(run);
  const out = [summaryLine(run), '', header(run)];
  for (const g of GROUPS) {
    const rows = items.filter((i) => groupOf(i) === g);
    if (!rows.length) continue;
    out.push('', `### ${TITLES[g]} (${rows.length})`, '', '| host | playbook | task | fields | since | note |');
    out.push('| --- | --- | --- | --- | --- | --- |');
    for (const i of rows) out.push(row(i, maxValue));
  }
  const diffs = items.filter((i) => i.textDiff);
  if (diffs.length) out.push('', '### Text diffs');
  for (const i of diffs) out.push('', `${where(i)}:`, '', ...fenced(i.textDiff!, o.maxDiffLines ?? 20));
  if (run.problems.length) out.push('', '### Hosts not judged', '');
  for (const p of run.problems) {
    const at = p.task ? ` (${[p.playbook, p.task].filter(Boolean).join(' / ')})` : '';
    out.push(`- ${md(p.host)}: ${p.kind}${md(at)}: ${md(p.message)}`);
  }
  const skipped = run.skipped ?? [];
  if (skipped.length) out.push('', '### Playbooks not checked', '');
  for (const s of skipped) out.push(`- ${md(s.playbook)}: ${md(s.reason)}`);
  const warnings = [...run.warnings, ...(run.notifyError ? [`notification failed: ${run.notifyError}`] : [])];
  if (warnings.length) out.push('', '### Warnings', '', ...warnings.map((w) => `- ${md(w)}`));
  return `${out.join('\n')}\n`;
}

function header(run: DriftRun): string {
  const exit = `exit code ${run.exitCode} (${EXIT_MEANING[run.exitCode] ?? 'unknown'})`;
  const parts = [exit, run.startedAt, duration(run.durationMs), run.playbooks.join(', '), `inventory ${run.inventory}`];
  return md(parts.join(' · '));
}

function row(i: DriftItem, maxValue: number): string {
  const notes = [waiverText(i), i.unknownReason ? `unknown: ${i.unknownReason}` : null].filter((x) => x !== null);
  const cells = [i.host, i.playbook, taskLabel(i)].map(md);
  cells.push(fieldsCell(i, maxValue), md(i.firstSeen), md(notes.join('; ')));
  return `| ${cells.join(' | ')} |`;
}

/** `state: "Stopped" → "Running"; startType: …`: each field's short before and after. */
function fieldsCell(i: DriftItem, maxValue: number): string {
  if (!i.fields.length) return md(i.action);
  const short = (v: unknown) => md(truncate(showValue(v), maxValue));
  const diffs = i.fields.map((f) =>
    f === 'content' && i.textDiff
      ? `${md(f)}: (text diff below)`
      : `${md(f)}: ${short(i.before?.[f])} → ${short(i.after?.[f])}`,
  );
  return (i.action === 'update' ? '' : `${md(i.action)}: `) + diffs.join('; ');
}

const where = (i: DriftItem) => `**${md(i.host)}** ${md(i.playbook)} / ${md(taskLabel(i))}`;

/** A fenced `diff` block, its fence longer than any backtick run inside, cut to `maxLines`. */
function fenced(diff: string, maxLines: number): string[] {
  const lines = visible(diff).replace(/\r/g, '\\r').replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown.push(`… ${lines.length - maxLines} more lines`);
  const longest = Math.max(0, ...[...diff.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}diff`, ...shown, fence];
}

/** One line of Markdown-inert text: newlines shown as `\n`, punctuation that Markdown or a GFM
 *  table reads escaped with a backslash (CommonMark backslash escapes). */
function md(s: string): string {
  return oneLine(s).replace(/[\\`|*_<>[\]&~]/g, (c) => `\\${c}`);
}
