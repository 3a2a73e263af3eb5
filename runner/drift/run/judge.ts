// A drift run's findings, judged (pure): the items the playbooks' checks observed, merged across
// playbooks, compared with the last judgement of their hosts (new, persisting, resolved), waived where
// a waiver says so, and counted; the problems (failed, unreachable hosts) one per host.
import { classify } from '../classify.js';
import { mergeObserved } from '../collect.js';
import { countItems, type DriftItem, type DriftRun, driftExit, type SkippedPlaybook } from '../model.js';
import { applyWaivers, type HostResolver, type Waiver } from '../waivers.js';
import type { CheckedPlaybook } from './check-playbooks.js';

/** The hosts the checks targeted, in inventory order, and the playbooks checked. */
export function runScope(
  results: readonly CheckedPlaybook[],
  order: readonly string[],
): { hosts: string[]; playbooks: string[] } {
  const targeted = new Set(results.flatMap((r) => r.hosts));
  return { hosts: order.filter((h) => targeted.has(h)), playbooks: results.map((r) => r.pb.name) };
}

export interface JudgeInput {
  readonly results: readonly CheckedPlaybook[];
  readonly skipped: readonly SkippedPlaybook[];
  /** The last judgement of the targeted hosts' items (the state store's). */
  readonly previous: readonly DriftItem[];
  readonly waivers: readonly Waiver[];
  readonly resolve: HostResolver;
  /** Every inventory host in inventory order. */
  readonly order: readonly string[];
  readonly started: Date;
  readonly finished: Date;
  /** The inventory as the run records it. */
  readonly inventory: string;
  readonly controller: string;
}

export function judgeRun(i: JudgeInput): Omit<DriftRun, 'id'> {
  const { hosts, playbooks } = runScope(i.results, i.order);
  const problems = dedupeProblems(i.results.flatMap((r) => r.collected.problems));
  const now = i.started.toISOString();
  const observed = mergeObserved(i.results.map((r) => r.collected.items));
  const checked = new Set(i.results.flatMap((r) => r.collected.checked.map((c) => c.key)));
  const classified = classify(observed, i.previous, checked, now, i.order);
  const { items, warnings } = applyWaivers(classified, i.waivers, i.started, i.resolve);
  const counts = countItems(items, problems);
  return {
    startedAt: now,
    durationMs: i.finished.getTime() - i.started.getTime(),
    playbooks,
    skipped: [...i.skipped],
    inventory: i.inventory,
    controller: i.controller,
    hosts,
    items,
    problems,
    counts,
    exitCode: driftExit(counts),
    warnings,
  };
}

/** One problem per host: unreachable wins over failed, the first failure is kept. */
function dedupeProblems(problems: DriftRun['problems']): DriftRun['problems'] {
  const byHost = new Map<string, DriftRun['problems'][number]>();
  for (const p of problems) {
    const had = byHost.get(p.host);
    if (!had || (had.kind === 'failed' && p.kind === 'unreachable')) byHost.set(p.host, p);
  }
  return [...byHost.values()];
}
