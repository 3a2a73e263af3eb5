// A drift run as one self-contained HTML page (pure): inline CSS, no script, and nothing the page
// could fetch (no URL in any attribute, a Content-Security-Policy of `default-src 'none'` besides),
// so it can be mailed or archived as it is. A header with the run, a summary table by host, then a
// section per item with its status, first-seen time, waiver, fields (before | after) and text diff,
// then the hosts not judged and the playbooks not checked.
// Every value is HTML-escaped: a value `<script>` is text. Light and dark (prefers-color-scheme), and
// printable (print styles drop the colours' backgrounds, keep items whole on a page).
import { countsAsDrift, type DriftItem, type DriftRun, type HostProblem } from '../model.js';
import {
  duration,
  EXIT_MEANING,
  type Group,
  groupCounts,
  groupOf,
  hostOrder,
  orderedItems,
  showValue,
  summaryLine,
  taskLabel,
  visible,
} from './common.js';
import { STYLE } from './html-style.js';

export function renderHtml(run: DriftRun): string {
  const items = orderedItems(run);
  const title = `Drift run ${run.id}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<title>${h(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    ...header(run),
    ...hostTable(run, items),
    '<main>',
    `<h2>Items (${items.length})</h2>`,
    ...(items.length ? items.flatMap((i, n) => itemSection(i, n + 1)) : ['<p>No drift items.</p>']),
    '</main>',
    ...problems(run.problems),
    ...list(
      'Playbooks not checked',
      (run.skipped ?? []).map((s) => `${s.playbook}: ${s.reason}`),
    ),
    ...list('Warnings', [...run.warnings, ...(run.notifyError ? [`notification failed: ${run.notifyError}`] : [])]),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function header(run: DriftRun): string[] {
  const c = groupCounts(run);
  const counts: [string, string][] = [
    ['new', `${c.new} new`],
    ['persisting', `${c.persisting} persisting`],
    ['resolved', `${c.resolved} resolved`],
    ['waived', `${c.waived} waived`],
    ['unreachable', `${c.unreachable} unreachable`],
    ['failed', `${c.failed} failed`],
  ];
  const facts: [string, string][] = [
    ['started', run.startedAt],
    ['duration', duration(run.durationMs)],
    ['playbooks', run.playbooks.join(', ')],
    ['inventory', run.inventory],
    ['hosts', String(run.hosts.length)],
    ...(run.skipped?.length
      ? [['not checked', run.skipped.map((s) => s.playbook).join(', ')] as [string, string]]
      : []),
    ['exit code', `${run.exitCode} (${EXIT_MEANING[run.exitCode] ?? 'unknown'})`],
  ];
  return [
    '<header>',
    `<h1>Drift run ${h(String(run.id))}</h1>`,
    `<p class="summary">${h(summaryLine(run))}</p>`,
    `<ul class="counts">${counts.map(([k, t]) => `<li class="${k}">${h(t)}</li>`).join('')}</ul>`,
    `<dl class="run">${facts.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl>`,
    '</header>',
  ];
}

/** Per host: drifted, waived and resolved counts, and whether it could be judged. */
function hostTable(run: DriftRun, items: readonly DriftItem[]): string[] {
  const rows = hostOrder(run).map((host) => {
    const mine = items.filter((i) => i.host === host);
    const n = (g: Group) => mine.filter((i) => groupOf(i) === g).length;
    const drifted = mine.filter(countsAsDrift).length;
    const probs = run.problems.filter((p) => p.host === host);
    const state = probs.length ? probs.map((p) => p.kind).join(', ') : drifted ? 'drifted' : 'ok';
    const first = mine.length ? `<a href="#item-${items.indexOf(mine[0]!) + 1}">${h(host)}</a>` : h(host);
    const cls = probs.length ? 'problem' : drifted ? 'drifted' : 'ok';
    return `<tr class="${cls}"><th scope="row">${first}</th><td>${drifted}</td><td>${n('waived')}</td><td>${n('resolved')}</td><td>${h(state)}</td></tr>`;
  });
  return [
    '<section class="hosts">',
    '<h2>Hosts</h2>',
    '<table>',
    '<thead><tr><th scope="col">host</th><th scope="col">drifted</th><th scope="col">waived</th><th scope="col">resolved</th><th scope="col">state</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
    '</section>',
  ];
}

function itemSection(i: DriftItem, n: number): string[] {
  const g = groupOf(i);
  const expired = i.status !== 'resolved' && i.waiver?.expired;
  const facts: [string, string][] = [
    ['status', i.status + (g === 'waived' ? ' (waived)' : '')],
    ['first seen', i.firstSeen],
    ['step', [i.kind, i.title].filter((x) => x !== null).join(' ')],
    ['action', i.action],
  ];
  if (i.target) facts.push(['for host', i.target]);
  if (i.unknownReason) facts.push(['unknown', i.unknownReason]);
  if (i.waiver) {
    const w = i.waiver;
    facts.push([expired ? 'waiver expired' : 'waiver', `${w.reason} (until ${w.expires}, ${w.source})`]);
  }
  return [
    `<section class="item ${g}${expired ? ' expired' : ''}" id="item-${n}">`,
    `<h3><span class="badge">${h(g)}</span> ${h(i.host)} · ${h(i.playbook)} · ${h(taskLabel(i))}</h3>`,
    `<dl>${facts.map(([k, v]) => `<dt>${h(k)}</dt><dd>${h(v)}</dd>`).join('')}</dl>`,
    ...fieldTable(i),
    ...(i.textDiff ? [diffBlock(i.textDiff)] : []),
    '</section>',
  ];
}

/** Before | after per field, the values as JSON (masked as recorded). */
function fieldTable(i: DriftItem): string[] {
  if (!i.fields.length) return [];
  const rows = i.fields.map((f) => {
    const cell = (v: unknown) =>
      f === 'content' && i.textDiff
        ? '<td class="note">(text diff below)</td>'
        : `<td><code>${h(showValue(v))}</code></td>`;
    return `<tr><th scope="row">${h(f)}</th>${cell(i.before?.[f])}${cell(i.after?.[f])}</tr>`;
  });
  return [
    '<table class="fields">',
    '<thead><tr><th scope="col">field</th><th scope="col">before (actual)</th><th scope="col">after (desired)</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
  ];
}

/** A unified diff, its lines coloured by class: add, del, hunk, and the file header. */
function diffBlock(diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const cls = (l: string) =>
    /^(\+\+\+|---)( |$)/.test(l)
      ? 'file'
      : l.startsWith('@@')
        ? 'hunk'
        : l[0] === '+'
          ? 'add'
          : l[0] === '-'
            ? 'del'
            : 'ctx';
  return `<pre class="diff">${lines.map((l) => `<span class="${cls(l)}">${h(l.replace(/\r/g, '\\r'))}</span>`).join('\n')}</pre>`;
}

function problems(ps: readonly HostProblem[]): string[] {
  if (!ps.length) return [];
  const rows = ps.map(
    (p) =>
      `<tr><th scope="row">${h(p.host)}</th><td>${h(p.kind)}</td><td>${h(p.playbook ?? '')}</td><td>${h(p.task ?? '')}</td><td>${h(p.message)}</td></tr>`,
  );
  return [
    '<section class="problems">',
    '<h2>Hosts not judged</h2>',
    '<table>',
    '<thead><tr><th scope="col">host</th><th scope="col">problem</th><th scope="col">playbook</th><th scope="col">task</th><th scope="col">message</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
    '</section>',
  ];
}

function list(title: string, lines: readonly string[]): string[] {
  if (!lines.length) return [];
  return [
    `<section class="warnings"><h2>${h(title)}</h2><ul>`,
    ...lines.map((l) => `<li>${h(l)}</li>`),
    '</ul></section>',
  ];
}

/** Text and attribute values: the five characters HTML reads, and no control characters. */
function h(s: string): string {
  return visible(s).replace(/[&<>"']/g, (c) => ENTITY[c]!);
}

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
