// Plain-text pieces shared by the renderers: a step's change in one line, its details, the
// grouping of identical changes across hosts, and the summary line.
import type { HostReport, RunReport, StepReport } from './model.js';

const clip = (s: string, n = 120) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

export function show(v: unknown): string {
  if (v === null || v === undefined) return '(absent)';
  return clip(typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? String(v));
}

export function stepLine(s: StepReport): string {
  const what = s.title ?? s.kind ?? '';
  const target = s.target ? ` (for ${s.target})` : '';
  if (s.status === 'failed' || s.status === 'unreachable' || s.status === 'skipped' || s.status === 'unknown') {
    return `${s.task}${target}: ${s.status}${s.error ? `: ${s.error}` : ''}`;
  }
  const change = s.action && s.action !== 'noop' ? ` ${s.action}${s.fields.length ? ` ${s.fields.join(', ')}` : ''}` : '';
  return `${s.task}${target}: ${what}${change}`;
}

export function stepDetails(s: StepReport): string[] {
  const lines: string[] = [];
  for (const f of s.fields) {
    if (f === 'content' && s.textDiff) continue;
    lines.push(`${f}: ${show(s.before?.[f])} -> ${show(s.after?.[f])}`);
  }
  if (s.textDiff) lines.push(...s.textDiff.replace(/\n$/, '').split('\n'));
  for (const w of s.warnings ?? []) lines.push(`warning: ${w}`);
  return lines;
}

export function countLine(h: HostReport): string {
  const counts = new Map<string, number>();
  for (const s of h.steps) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(', ');
}

function hostList(hosts: string[]): string {
  return hosts.length <= 4 ? hosts.join(', ') : `${hosts.slice(0, 3).join(', ')} and ${hosts.length - 3} more`;
}

/** Changed, failed and unknown steps, identical ones (same task, change and error) grouped across hosts. */
export function groupedChanges(report: RunReport, withDetails: boolean): string[] {
  const groups = new Map<string, { hosts: string[]; step: StepReport }>();
  for (const [host, h] of Object.entries(report.hosts)) {
    for (const s of h.steps) {
      if (s.status === 'ok' || (s.status === 'skipped' && s.error?.startsWith('not triggered'))) continue; // nothing to say
      const key = JSON.stringify([s.task, s.target, s.status, s.action, s.fields, withDetails ? [s.before, s.after, s.textDiff] : null, s.error]);
      const g = groups.get(key) ?? { hosts: [], step: s };
      g.hosts.push(host);
      groups.set(key, g);
    }
  }
  const out: string[] = [];
  for (const { hosts, step } of groups.values()) {
    out.push(`  [${hostList(hosts)}] ${stepLine(step)}`);
    if (withDetails && step.status !== 'failed') out.push(...stepDetails(step).map((l) => `      ${l}`));
  }
  return out;
}

export function summaryLine(report: RunReport): string {
  const s = report.summary;
  const n = Object.keys(report.hosts).length;
  const verb = report.mode === 'check' ? ' (check: nothing was changed)' : '';
  return `${report.playbook}: ${n} host${n === 1 ? '' : 's'}: ${s.ok} ok, ${s.changed} changed, ${s.failed} failed, ${s.skipped} skipped, ${s.unreachable} unreachable in ${(report.durationMs / 1000).toFixed(2)} s${verb}${report.interrupted ? ' (interrupted)' : ''}`;
}
