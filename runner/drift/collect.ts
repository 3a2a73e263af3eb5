// A check run's report read as drift (pure): a task whose plan would change something is a drift
// item; a plan that cannot know a value is an item with action `unknown` and the reason (never ok);
// a failed probe or an unreachable host is a problem of that host, neither drift nor ok. Skips are
// not drift: a triggered task that would run (`would-run`) follows from the items that trigger it.
import type { RunReport } from '../report/model.js';
import { type DriftItem, type HostProblem, itemKey } from './model.js';

/** An item before it is compared with the previous run. */
export type Observed = Omit<DriftItem, 'status' | 'firstSeen' | 'waiver'>;

export interface Collected {
  items: Observed[];
  problems: HostProblem[];
  /** Every (host, playbook, task) the run judged: the JUnit report's test cases. */
  checked: Checked[];
}

export interface Checked {
  host: string;
  playbook: string;
  task: string;
  target?: string;
  /** itemKey of what the task manages: an item with this key seen before and not now is resolved. */
  key: string;
}

export function collect(report: RunReport): Collected {
  const out: Collected = { items: [], problems: [], checked: [] };
  const playbook = report.playbook;
  for (const [name, h] of Object.entries(report.hosts)) {
    const unreachable = h.steps.find((s) => s.status === 'unreachable');
    if (unreachable) {
      out.problems.push({ host: name, kind: 'unreachable', message: unreachable.error ?? 'unreachable' });
      continue;
    }
    for (const s of h.steps) {
      const host = name;
      const target = s.target && s.target !== name ? { target: s.target } : {};
      if (s.status === 'failed') {
        out.problems.push({ host, kind: 'failed', task: s.task, playbook, message: s.error ?? 'failed' });
        continue;
      }
      if (s.status === 'skipped') continue;
      out.checked.push({
        host,
        playbook,
        task: s.task,
        ...target,
        key: itemKey({ host, playbook, task: s.task, ...target, kind: s.kind, title: s.title }),
      });
      if (s.status !== 'changed' && s.status !== 'unknown') continue;
      const unknown = s.status === 'unknown' || s.action === null;
      out.items.push({
        host,
        playbook,
        task: s.task,
        ...target,
        kind: s.kind,
        title: s.title,
        action: unknown ? 'unknown' : s.action!,
        fields: [...s.fields],
        before: s.before,
        after: s.after,
        ...(s.textDiff ? { textDiff: s.textDiff } : {}),
        ...(unknown ? { unknownReason: s.error ?? 'the plan cannot know this value before an earlier task runs' } : {}),
      });
    }
  }
  return out;
}

/**
 * The items of several playbooks' runs as one list: a resource two of them manage (the same kind and
 * title on the same host) is one item, taken from the task that manages it for its own host (not
 * delegated for another), else from the first playbook.
 */
export function mergeObserved(lists: readonly Observed[][]): Observed[] {
  const byKey = new Map<string, Observed>();
  for (const list of lists) {
    for (const o of list) {
      const key = itemKey(o);
      const had = byKey.get(key);
      if (!had || (had.target !== undefined && o.target === undefined)) byKey.set(key, o);
    }
  }
  return [...byKey.values()];
}
