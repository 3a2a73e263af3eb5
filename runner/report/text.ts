// Plain-text pieces shared by the renderers: a step's change in one line, its details, the
// grouping of identical changes across hosts, and the summary line.
import type { HostReport, RunReport, StepReport } from './model.js';
import { outputLines } from './verbose.js';

const clip = (s: string, n = 120) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

export function show(v: unknown): string {
  if (v === null || v === undefined) return '(absent)';
  return clip(typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v)));
}

export function stepLine(s: StepReport): string {
  const what = s.title ?? s.kind ?? '';
  const target = s.target ? ` (for ${s.target})` : '';
  if (s.status === 'failed' || s.status === 'unreachable' || s.status === 'skipped' || s.status === 'unknown') {
    return `${s.task}${target}: ${s.status}${s.error ? `: ${s.error}` : ''}`;
  }
  const change =
    s.action && s.action !== 'noop' ? ` ${s.action}${s.fields.length ? ` ${s.fields.join(', ')}` : ''}` : '';
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

/** linux1, linux2, linux3, linux7, tor1 -> ["linux1..linux3", "linux7", "tor1"]: runs of consecutive
 *  numbers under one prefix (and one zero-padding), in the order given. */
export function hostRanges(hosts: readonly string[]): string[] {
  const out: string[] = [];
  let run: { prefix: string; width: number; first: number; last: number; name: string } | undefined;
  const flush = () => {
    if (run)
      out.push(
        Number.isNaN(run.first) || run.first === run.last
          ? run.name
          : `${run.prefix}${pad(run.first, run.width)}..${run.prefix}${pad(run.last, run.width)}`,
      );
  };
  for (const host of hosts) {
    const m = /^(.*?)([0-9]+)$/.exec(host);
    const width = m && m[2]!.startsWith('0') ? m[2]!.length : 0;
    if (m && run && run.prefix === m[1] && Number(m[2]) === run.last + 1 && pad(run.last + 1, run.width) === m[2]) {
      run.last += 1;
      continue;
    }
    flush();
    run = m
      ? { prefix: m[1]!, width, first: Number(m[2]), last: Number(m[2]), name: host }
      : { prefix: host, width: -1, first: NaN, last: NaN, name: host };
  }
  flush();
  return out;
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A short list of hosts: ranges where they run on, the first few and a count beyond. */
export function hostList(hosts: readonly string[]): string {
  const ranges = hostRanges(hosts);
  if (ranges.length <= 4) return ranges.join(', ');
  const shown = ranges.slice(0, 3);
  const covered = shown.reduce((n, r) => n + rangeSize(r), 0);
  return `${shown.join(', ')} and ${hosts.length - covered} more`;
}

function rangeSize(range: string): number {
  const m = /^(.*?)([0-9]+)\.\.(.*?)([0-9]+)$/.exec(range);
  return m ? Number(m[4]) - Number(m[2]) + 1 : 1;
}

/** Detail variants shown per group of identical changes; beyond, a count (the JSON report has each). */
const MAX_VARIANTS = 3;

/** Changed, failed and unknown steps, identical ones (same task, change and error) grouped across
 *  hosts. With details, each distinct before/after is shown once with the hosts it is on, at most
 *  MAX_VARIANTS of them: a thousand hosts whose files differ only by their host name are one group. */
interface HostsOf {
  hosts: string[];
  step: StepReport;
}

export function groupedChanges(report: RunReport, withDetails: boolean): string[] {
  const groups = new Map<string, HostsOf & { variants: Map<string, HostsOf> }>();
  for (const [host, h] of Object.entries(report.hosts)) {
    for (const s of h.steps) {
      if (s.status === 'ok' || s.skip === 'not-triggered') continue; // nothing to say
      const key = JSON.stringify([s.task, s.target, s.status, s.action, s.fields, s.error]);
      const g = groups.get(key) ?? { hosts: [], step: s, variants: new Map<string, HostsOf>() };
      g.hosts.push(host);
      groups.set(key, g);
      if (!withDetails || s.status === 'failed') continue;
      const detailKey = JSON.stringify([s.before, s.after, s.textDiff, s.warnings]);
      const v: HostsOf = g.variants.get(detailKey) ?? { hosts: [], step: s };
      v.hosts.push(host);
      g.variants.set(detailKey, v);
    }
  }
  const out: string[] = [];
  for (const { hosts, step, variants } of groups.values()) {
    out.push(`  [${hostList(hosts)}] ${stepLine(step)}`);
    const shown = [...variants.values()].slice(0, MAX_VARIANTS);
    for (const v of shown) {
      if (variants.size > 1) out.push(`    on [${hostList(v.hosts)}]:`);
      out.push(...stepDetails(v.step).map((l) => `      ${l}`));
    }
    if (variants.size > shown.length) {
      const rest = [...variants.values()].slice(MAX_VARIANTS).reduce((n, v) => n + v.hosts.length, 0);
      out.push(`    and ${variants.size - shown.length} more different changes on ${rest} hosts (--json has each)`);
    }
  }
  return out;
}

/** Hosts with the same outcome (status and step counts) in one line each, e.g.
 *  `1000 hosts ok (5 ok): linux1..linux1000`: what a compact renderer prints instead of a line per host. */
export function outcomeLines(report: RunReport): string[] {
  const groups = new Map<string, string[]>();
  for (const [host, h] of Object.entries(report.hosts)) {
    const key = `${h.status} (${countLine(h)})`;
    const hosts = groups.get(key) ?? [];
    hosts.push(host);
    groups.set(key, hosts);
  }
  return [...groups].map(
    ([outcome, hosts]) => `${hosts.length} host${hosts.length === 1 ? '' : 's'} ${outcome}: ${hostList(hosts)}`,
  );
}

/** Failed steps whose output tail is shown at the end; beyond, a count (the JSON report has each). */
const FAILED_OUTPUTS_MAX = 5;

/** The output tails of failed steps, per host, e.g. `  [linux2] b: stderr| no space left on device`. */
export function failedOutputLines(report: RunReport): string[] {
  const failed = Object.entries(report.hosts).flatMap(([host, h]) =>
    h.steps.filter((s) => s.status === 'failed' && s.output).map((s) => ({ host, s })),
  );
  const lines = failed
    .slice(0, FAILED_OUTPUTS_MAX)
    .flatMap(({ host, s }) => outputLines(`  [${host}] ${s.task}`, s.output!));
  if (failed.length > FAILED_OUTPUTS_MAX)
    lines.push(`  and ${failed.length - FAILED_OUTPUTS_MAX} more failed steps with output (--json has each)`);
  return lines;
}

export function summaryLine(report: RunReport): string {
  const s = report.summary;
  const n = Object.keys(report.hosts).length;
  const verb = report.mode === 'check' ? ' (check: nothing was changed)' : '';
  const cut = s.interrupted > 0 ? `, ${s.interrupted} interrupted` : '';
  return `${report.playbook}: ${n} host${n === 1 ? '' : 's'}: ${s.ok} ok, ${s.changed} changed, ${s.failed} failed, ${s.skipped} skipped, ${s.unreachable} unreachable${cut} in ${(report.durationMs / 1000).toFixed(2)} s${verb}${report.interrupted ? ' (interrupted)' : ''}`;
}
