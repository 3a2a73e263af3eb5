// Waivers: accepted drift, each with a reason and an expiry date, as InSpec's
// waivers have (docs/domain.md, "Drift checks"). A waived item is still reported, with its reason,
// but does not count as drift; once the waiver has expired it counts again and says so.
// Pure: the file is read by waivers-load.ts.
import type { Inventory } from '../inventory/model.js';
import { PlayError } from '../core/errors.js';
import { globRegExp, pythonRegExp } from '../inventory/glob.js';
import { orderPatterns, selectHosts, splitHostPattern } from '../inventory/pattern.js';
import type { AppliedWaiver, DriftItem } from './model.js';
import type { Waiver } from './waiver.js';

export type { Waiver } from './waiver.js';
export { defaultWaiversFile, loadWaivers, loadWaiversIfPresent, parseWaivers } from './waivers-load.js';

/** Host names a pattern selects, e.g. from the inventory (`inventoryResolver`). */
export type HostResolver = (pattern: string) => ReadonlySet<string>;

export interface WaiverResult {
  items: DriftItem[];
  warnings: string[];
}

/**
 * A host pattern read against host names alone, for when no inventory is at hand: the terms of
 * Ansible's grammar (`a:b`, `a,b`, `&a`, `!a`, globs, `~regex`, `all`), each matched against the
 * name; a group name matches no host here, and `[...]` is a glob character class, not a subscript.
 * Throws on an invalid regular expression.
 */
export function nameMatcher(pattern: string): (host: string) => boolean {
  const terms = orderPatterns(splitHostPattern(pattern)).map((term) => {
    const kind = term[0] === '&' || term[0] === '!' ? term[0] : '';
    const expr = kind ? term.slice(1) : term;
    if (expr === 'all') return { kind, test: () => true };
    const re = expr[0] === '~' ? pythonRegExp(expr.slice(1)) : globRegExp(expr);
    return { kind, test: (h: string) => h === expr || re.test(h) };
  });
  const plain = terms.filter((t) => !t.kind);
  return (host) =>
    plain.some((t) => t.test(host)) &&
    terms.every((t) => (t.kind === '&' ? t.test(host) : t.kind === '!' ? !t.test(host) : true));
}

/**
 * The inventory's own pattern matcher (groups, subscripts, ansible's order), as a resolver. A
 * pattern whose term matches nothing throws a UsageError, which applyWaivers turns into the
 * waiver's "matched nothing" warning.
 */
export function inventoryResolver(inventory: Inventory): HostResolver {
  return (pattern) => new Set(selectHosts(inventory, pattern).map((h) => h.name));
}

/** True once the whole of the `expires` day (UTC) has passed. */
export function isExpired(expires: string, now: Date): boolean {
  const [y, m, d] = expires.split('-').map(Number) as [number, number, number];
  return now.getTime() >= Date.UTC(y, m - 1, d + 1);
}

/** `node01* onboard-windows/kubelet [binPath, args]`, for warnings. */
export function describeWaiver(w: Waiver): string {
  return `${w.hosts} ${w.playbook}/${w.task}${w.fields ? ` [${w.fields.join(', ')}]` : ''}`;
}

interface Compiled {
  waiver: Waiver;
  expired: boolean;
  hosts: (host: string) => boolean;
  /** Why the resolver found no host, when it threw. */
  hostsError?: string;
  /** Items it matches, and items it was attached to. */
  matched: number;
  attached: number;
  /** Waivers that took the items it matches. */
  takenBy: Set<string>;
}

function compile(w: Waiver, now: Date, resolve?: HostResolver): Compiled {
  const c: Compiled = {
    waiver: w,
    expired: isExpired(w.expires, now),
    hosts: () => false,
    matched: 0,
    attached: 0,
    takenBy: new Set(),
  };
  if (!resolve) c.hosts = nameMatcher(w.hosts);
  else {
    try {
      const names = resolve(w.hosts);
      c.hosts = (h) => names.has(h);
    } catch (e) {
      if (!(e instanceof PlayError)) throw e;
      c.hostsError = e.message;
    }
  }
  return c;
}

function covers(c: Compiled, item: DriftItem): boolean {
  const w = c.waiver;
  if (item.playbook !== w.playbook || item.task !== w.task || !c.hosts(item.host)) return false;
  // A fields list waives changed values, not a whole thing created, deleted or unknown (no fields).
  return !w.fields || (item.fields.length > 0 && item.fields.every((f) => w.fields!.includes(f)));
}

/**
 * Attaches to each item the waiver that covers it: the first in file order that has not expired,
 * else the first expired one (so a renewed waiver written below an expired one takes over, and an
 * item with only expired waivers is reported as "waiver expired"). Resolved items are never
 * waived. Items are copied, not changed; a `waiver` they carried is replaced or dropped.
 * Warnings, in file order: a waiver that matches no (unresolved) item, one whose items all went
 * to earlier waivers, and an expired one that still matches items.
 */
export function applyWaivers(
  items: readonly DriftItem[],
  waivers: readonly Waiver[],
  now: Date,
  resolveHosts?: HostResolver,
): WaiverResult {
  const compiled = waivers.map((w) => compile(w, now, resolveHosts));
  const out = items.map((item) => {
    const copy: DriftItem = { ...item };
    delete copy.waiver;
    if (item.status === 'resolved') return copy;
    const matching = compiled.filter((c) => covers(c, item));
    const chosen = matching.find((c) => !c.expired) ?? matching[0];
    if (!chosen) return copy;
    for (const c of matching) {
      c.matched++;
      if (c !== chosen) c.takenBy.add(chosen.waiver.source);
    }
    chosen.attached++;
    const { reason, expires, source } = chosen.waiver;
    const applied: AppliedWaiver = { reason, expires, expired: chosen.expired, source };
    copy.waiver = applied;
    return copy;
  });
  return { items: out, warnings: compiled.flatMap(warning) };
}

function warning(c: Compiled): string[] {
  const w = c.waiver;
  const head = `${w.source}: waiver for ${describeWaiver(w)}`;
  if (c.matched === 0) {
    const why = c.hostsError ? ` (${c.hostsError})` : c.expired ? ` (it expired on ${w.expires})` : '';
    return [`${head} matched nothing${why}`];
  }
  if (c.attached === 0) return [`${head} is never used: its items are covered by ${[...c.takenBy].join(', ')}`];
  if (c.expired) {
    const n = c.attached === 1 ? '1 item counts' : `${c.attached} items count`;
    return [`${head} expired on ${w.expires}: ${n} as drift again`];
  }
  return [];
}
