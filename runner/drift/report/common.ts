// What every drift report shares (pure): the status groups items are shown in, their counts, the
// order of hosts and items, and how a value or a string is made printable. Values arrive masked
// (runner/drift/model.ts): nothing here can, or tries to, show a secret.
import type { DriftItem, DriftRun } from '../model.js';

/**
 * The groups the reports show. They partition the items: an item under an unexpired waiver is
 * `waived` and only that, so `new + persisting + resolved + waived` is the number of items (the
 * model's `counts.new` and `counts.persisting` include waived items; the reports' do not). An
 * expired waiver leaves the item in its status group, where it counts as drift again.
 */
export type Group = 'new' | 'persisting' | 'waived' | 'resolved';
export const GROUPS: readonly Group[] = ['new', 'persisting', 'waived', 'resolved'];

export function isWaived(i: DriftItem): boolean {
  return i.status !== 'resolved' && i.waiver !== undefined && !i.waiver.expired;
}

export function groupOf(i: DriftItem): Group {
  return isWaived(i) ? 'waived' : i.status;
}

export interface GroupCounts extends Record<Group, number> {
  expiredWaivers: number;
  unreachable: number;
  failed: number;
}

/** Counted from the items and problems themselves, so a report always agrees with its own tables. */
export function groupCounts(run: DriftRun): GroupCounts {
  const c: GroupCounts = {
    new: 0,
    persisting: 0,
    waived: 0,
    resolved: 0,
    expiredWaivers: 0,
    unreachable: 0,
    failed: 0,
  };
  for (const i of run.items) {
    c[groupOf(i)]++;
    if (i.status !== 'resolved' && i.waiver?.expired) c.expiredWaivers++;
  }
  for (const h of problemHosts(run).values()) c[h]++;
  return c;
}

/** Hosts that could not be judged, once each (a host failed in one playbook and unreachable in none). */
export function problemHosts(run: DriftRun): Map<string, 'unreachable' | 'failed'> {
  const out = new Map<string, 'unreachable' | 'failed'>();
  for (const p of run.problems) if (out.get(p.host) !== 'unreachable') out.set(p.host, p.kind);
  return out;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `Drift run 12: 2 new, 1 persisting, 1 resolved, 1 waived; 1 host unreachable; 1 playbook not checked` */
export function summaryLine(run: DriftRun): string {
  const c = groupCounts(run);
  const parts = (['new', 'persisting', 'resolved', 'waived'] as const).map((g) => `${c[g]} ${g}`).join(', ');
  const tail: string[] = [];
  if (c.expiredWaivers) tail.push(`${plural(c.expiredWaivers, 'waiver')} expired`);
  if (c.unreachable) tail.push(`${plural(c.unreachable, 'host')} unreachable`);
  if (c.failed) tail.push(`${plural(c.failed, 'host')} failed`);
  const skipped = run.skipped?.length ?? 0;
  if (skipped) tail.push(`${plural(skipped, 'playbook')} not checked`);
  // "no drift" only of what was judged: hosts that were not are counted above, never in it.
  const judged = run.hosts.length - c.unreachable - c.failed;
  if (c.new + c.persisting === 0 && !c.unreachable && !c.failed) tail.push('no drift');
  else if (c.new + c.persisting === 0 && judged > 0) tail.push(`no drift on ${plural(judged, 'host')} judged`);
  return `Drift run ${run.id}: ${[parts, ...tail].join('; ')}`;
}

/** The targeted hosts in inventory order, then any other host an item or a problem names. */
export function hostOrder(run: DriftRun): string[] {
  const out = new Set(run.hosts);
  for (const x of [...run.items, ...run.problems]) out.add(x.host);
  return [...out];
}

/** The run's playbooks in the order given, then any other one an item names. */
export function playbookOrder(run: DriftRun): string[] {
  const out = new Set(run.playbooks);
  for (const x of [...run.items, ...run.problems]) if (x.playbook !== undefined) out.add(x.playbook);
  return [...out];
}

/** Items by group (new, persisting, waived, resolved), then host and playbook order, then as given. */
export function orderedItems(run: DriftRun): DriftItem[] {
  const rank = <T>(xs: readonly T[]) => new Map(xs.map((x, n) => [x, n]));
  const g = rank(GROUPS),
    h = rank(hostOrder(run)),
    p = rank(playbookOrder(run)),
    given = rank(run.items);
  return [...run.items].sort(
    (a, b) =>
      g.get(groupOf(a))! - g.get(groupOf(b))! ||
      h.get(a.host)! - h.get(b.host)! ||
      p.get(a.playbook)! - p.get(b.playbook)! ||
      given.get(a)! - given.get(b)!,
  );
}

/** A field's value for people: JSON (a string quoted, a Secret as its mask), `(absent)` for none. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '(absent)';
  return JSON.stringify(v) ?? String(v);
}

/** Long values are cut with an ellipsis (length in code points, so no surrogate pair is split). */
export function truncate(s: string, max: number): string {
  const cps = [...s];
  return cps.length > max ? `${cps.slice(0, max - 1).join('')}…` : s;
}

/**
 * Makes text safe for any of the formats: control characters (other than tab and newlines, which
 * callers handle) become visible `\u001b` escapes, and code points XML and HTML forbid or that are
 * not characters (lone surrogates, U+FFFE, U+FFFF) become U+FFFD.
 */
export function visible(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, (c) => `\\u${hex4(c)}`)
    .replace(/[\uD800-\uDFFF\uFFFE\uFFFF]/gu, '\uFFFD');
}

/** For a one-line context (a table cell, an attribute shown as a title): newlines and tabs too. */
export function oneLine(s: string): string {
  return visible(s).replace(/[\t\n\r]/g, (c) => ({ '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);
}

const hex4 = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');

/** `12 ms`, `4.2 s`, `3 min 5 s`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** What a waiver says, for people. */
export function waiverText(i: DriftItem): string | null {
  const w = i.waiver;
  if (!w) return null;
  return w.expired ? `waiver expired ${w.expires}: ${w.reason}` : `waived: ${w.reason} until ${w.expires}`;
}

/** What the exit code means (the drift run's codes, model.ts `DriftExit`; docs/architecture.md). */
export const EXIT_MEANING: Record<number, string> = {
  0: 'no drift',
  2: 'drift',
  3: 'a host failed to be probed',
  4: 'unreachable hosts, no drift',
};

/** The task as people read it: `VIP on the ToR (for node009)` when it ran for another host. */
export function taskLabel(t: { task: string; target?: string }): string {
  return t.target ? `${t.task} (for ${t.target})` : t.task;
}

/** `binPath`, or for a whole resource (no fields) the action: `create`, `delete`, `unknown`. */
export function fieldList(i: DriftItem): string {
  return i.fields.length ? i.fields.join(', ') : i.action;
}
