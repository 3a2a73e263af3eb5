// Each observed item against the previous judgement of its host (pure): new, persisting (keeping
// when it was first seen) or, for an item seen before whose resource was checked now and found as
// desired, resolved. What was not checked this run (another --limit, an unreachable host) resolves
// nothing. Items come out in
// the inventory's host order, then by playbook and task.
import { type DriftItem, itemKey } from './model.js';
import type { Observed } from './collect.js';

export function classify(
  observed: readonly Observed[],
  previous: readonly DriftItem[],
  checkedKeys: ReadonlySet<string>,
  now: string,
  hostOrder: readonly string[],
): DriftItem[] {
  const before = new Map(previous.filter((i) => i.status !== 'resolved').map((i) => [itemKey(i), i]));
  const seen = new Set<string>();
  const out: DriftItem[] = observed.map((o) => {
    const key = itemKey(o);
    seen.add(key);
    const was = before.get(key);
    return was ? { ...o, status: 'persisting', firstSeen: was.firstSeen } : { ...o, status: 'new', firstSeen: now };
  });
  for (const [key, was] of before) {
    if (seen.has(key) || !checkedKeys.has(key)) continue;
    const { waiver: _, ...rest } = was;
    out.push({ ...rest, status: 'resolved' });
  }
  const rank = new Map(hostOrder.map((h, i) => [h, i]));
  const at = (h: string) => rank.get(h) ?? hostOrder.length;
  return out.sort(
    (a, b) => at(a.host) - at(b.host) || a.playbook.localeCompare(b.playbook) || a.task.localeCompare(b.task),
  );
}
