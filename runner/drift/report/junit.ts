// JUnit XML for CI systems (pure), in the shape Jenkins' and GitLab's readers accept: one
// <testsuites>, a <testsuite> per playbook, a <testcase> per host x task checked (classname
// `playbook.host`, name the task). A drift item that counts as drift (model.ts `countsAsDrift`) is a
// <failure type="drift">; a waived one is <skipped>; a resolved one passes. A host that could not be
// judged is one testcase `(probe)` with an <error> in each suite it belongs to: its problem's
// playbook, or every playbook of the run when the problem names none (an unreachable host). A
// playbook the run left out is a suite of one <skipped> testcase `(playbook)` saying why.
import { countsAsDrift, type DriftItem, type DriftRun, type HostProblem, type SkippedPlaybook } from '../model.js';
import { hostOrder, isWaived, playbookOrder, showValue } from './common.js';
import { xmlAttr, xmlText } from './xml.js';

export interface Checked {
  host: string;
  playbook: string;
  task: string;
  /** The host the task ran for, when another (delegateTo): part of the testcase's name. */
  target?: string;
}

export interface JunitOptions {
  /** Every (host, playbook, task) the run judged; items not listed still get their testcase. */
  checked?: readonly Checked[];
}

interface Case {
  host: string;
  /** Order within a host: the probe first, then as the checked list and the items give them. */
  seq: number;
  xml: string[];
  outcome: 'passed' | 'failure' | 'error' | 'skipped';
}

export function renderJunit(run: DriftRun, o: JunitOptions = {}): string {
  const suites = collectCases(run, o.checked ?? []);
  for (const s of run.skipped ?? []) suites.set(s.playbook, [skippedCase(s)]);
  const total = tally([...suites.values()].flat());
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xmlAttr(`play drift run ${run.id}`)}" ${counts(total)} time="${seconds(run.durationMs)}">`,
  ];
  for (const [playbook, cases] of suites) {
    lines.push(`  <testsuite name="${xmlAttr(playbook)}" ${counts(tally(cases))}>`);
    lines.push(...properties(run));
    for (const c of cases) lines.push(...c.xml.map((l) => `    ${l}`));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** The testcases of each playbook's suite, hosts in inventory order. */
function collectCases(run: DriftRun, checked: readonly Checked[]): Map<string, Case[]> {
  const suites = new Map<string, Case[]>(playbookOrder(run).map((p) => [p, []]));
  const suite = (p: string) => suites.get(p) ?? suites.set(p, []).get(p)!;
  const items = new Map(run.items.map((i) => [caseKey(i), i]));
  const seen = new Set<string>();
  let seq = 1;
  for (const t of [...checked, ...run.items]) {
    const key = caseKey(t);
    if (seen.has(key)) continue;
    seen.add(key);
    suite(t.playbook).push(taskCase(t, items.get(key), seq++));
  }
  // playbook -> host -> its problems (a host failed at two tasks is still one probe testcase)
  const probes = new Map<string, Map<string, HostProblem[]>>();
  for (const p of run.problems) {
    for (const pb of p.playbook !== undefined ? [p.playbook] : run.playbooks.length ? run.playbooks : ['(run)']) {
      const hosts = probes.get(pb) ?? probes.set(pb, new Map()).get(pb)!;
      hosts.set(p.host, [...(hosts.get(p.host) ?? []), p]);
    }
  }
  for (const [pb, hosts] of probes) for (const ps of hosts.values()) suite(pb).push(probeCase(pb, ps));
  const rank = new Map(hostOrder(run).map((h, n) => [h, n]));
  for (const cases of suites.values()) {
    cases.sort((a, b) => (rank.get(a.host) ?? rank.size) - (rank.get(b.host) ?? rank.size) || a.seq - b.seq);
  }
  return suites;
}

/** A testcase is a host x task (the model's itemKey is the resource, which two playbooks may share). */
const caseKey = (t: Checked) => [t.host, t.playbook, t.task, t.target ?? ''].join('\u0000');

function taskCase(t: Checked, item: DriftItem | undefined, seq: number): Case {
  const name = t.target ? `${t.task} (for ${t.target})` : t.task;
  const open = `<testcase classname="${xmlAttr(`${t.playbook}.${t.host}`)}" name="${xmlAttr(name)}"`;
  const c = (outcome: Case['outcome'], inner: string[]): Case => ({
    host: t.host,
    seq,
    outcome,
    xml: inner.length ? [`${open}>`, ...inner.map((l) => `  ${l}`), '</testcase>'] : [`${open}/>`],
  });
  if (!item) return c('passed', []);
  if (countsAsDrift(item)) {
    const body = xmlText(details(item).join('\n'));
    return c('failure', [`<failure message="${xmlAttr(failureMessage(item))}" type="drift">${body}</failure>`]);
  }
  if (isWaived(item)) {
    const w = item.waiver!;
    return c('skipped', [`<skipped message="${xmlAttr(`waived: ${w.reason} until ${w.expires}`)}"/>`]);
  }
  const out = `resolved: drifted since ${item.firstSeen}, matches the desired state now`;
  return c('passed', [`<system-out>${xmlText(out)}</system-out>`]);
}

function skippedCase(s: SkippedPlaybook): Case {
  const message = `not checked: ${s.reason}`;
  return {
    host: '',
    seq: 0,
    outcome: 'skipped',
    xml: [
      `<testcase classname="${xmlAttr(s.playbook)}" name="(playbook)">`,
      `  <skipped message="${xmlAttr(message)}"/>`,
      '</testcase>',
    ],
  };
}

function probeCase(playbook: string, ps: HostProblem[]): Case {
  const host = ps[0]!.host;
  const kind = ps.some((p) => p.kind === 'unreachable') ? 'unreachable' : 'failed';
  const lines = ps.map((p) => `${p.kind}${p.task ? ` (task ${p.task})` : ''}: ${p.message}`);
  return {
    host,
    seq: 0,
    outcome: 'error',
    xml: [
      `<testcase classname="${xmlAttr(`${playbook}.${host}`)}" name="(probe)">`,
      `  <error message="${xmlAttr(lines[0]!)}" type="${kind}">${xmlText(lines.join('\n'))}</error>`,
      '</testcase>',
    ],
  };
}

/** `new: update binPath`, `persisting since T: unknown: REASON (waiver expired D: REASON)`. */
function failureMessage(i: DriftItem): string {
  const what =
    i.action === 'unknown'
      ? `unknown: ${i.unknownReason ?? 'the value cannot be known'}`
      : `${i.action}${i.fields.length ? ` ${i.fields.join(', ')}` : ''}`;
  const since = i.status === 'persisting' ? ` since ${i.firstSeen}` : '';
  const expired = i.waiver?.expired ? ` (waiver expired ${i.waiver.expires}: ${i.waiver.reason})` : '';
  return `${i.status}${since}: ${what}${expired}`;
}

/** The failure's body: where, what, and every field's before and after (masked, in full). */
function details(i: DriftItem): string[] {
  const lines = [`host: ${i.host}`, `playbook: ${i.playbook}`, `task: ${i.task}`];
  if (i.target) lines.push(`for: ${i.target}`);
  const step = [i.kind, i.title].filter((x) => x !== null).join(' ');
  if (step) lines.push(`step: ${step}`);
  lines.push(`status: ${i.status}, first seen ${i.firstSeen}`, `action: ${i.action}`);
  if (i.unknownReason) lines.push(`unknown: ${i.unknownReason}`);
  if (i.waiver) lines.push(`waiver expired ${i.waiver.expires}: ${i.waiver.reason} (${i.waiver.source})`);
  for (const f of i.fields) {
    // A file's content is shown by its text diff (as in the check run's report, runner/report/text.ts).
    if (f === 'content' && i.textDiff) continue;
    lines.push(`${f}: ${showValue(i.before?.[f])} -> ${showValue(i.after?.[f])}`);
  }
  if (i.textDiff) lines.push(i.textDiff.replace(/\n$/, ''));
  return lines;
}

function properties(run: DriftRun): string[] {
  const props: [string, string][] = [
    ['play.drift.run', String(run.id)],
    ['play.drift.startedAt', run.startedAt],
    ['play.drift.inventory', run.inventory],
    ['play.drift.exitCode', String(run.exitCode)],
  ];
  return [
    '    <properties>',
    ...props.map(([k, v]) => `      <property name="${k}" value="${xmlAttr(v)}"/>`),
    '    </properties>',
  ];
}

function tally(cases: readonly Case[]): Record<Case['outcome'] | 'tests', number> {
  const t = { tests: cases.length, passed: 0, failure: 0, error: 0, skipped: 0 };
  for (const c of cases) t[c.outcome]++;
  return t;
}

const counts = (t: ReturnType<typeof tally>) =>
  `tests="${t.tests}" failures="${t.failure}" errors="${t.error}" skipped="${t.skipped}"`;

const seconds = (ms: number) => (ms / 1000).toFixed(3);
