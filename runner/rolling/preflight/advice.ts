// What the preflight says about one node: why its drain would block, with the pod, the budget and its
// numbers, and what would let it pass (a smaller batch or another order when nodes of its own batch
// spend the budget first; the budget itself when it allows nothing to begin with; the pod, for a pod
// drain refuses). Also the replacements that would stay Pending. Pure.
import type { DrainBlock, NodeDrain } from './drain-simulation.js';

export interface NodeAdvice {
  /** `drain would block: ...` and `pod ... would stay Pending: ...` lines. */
  readonly problems: readonly string[];
  /** What would let it pass. */
  readonly toPass: readonly string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const ns = (key: string) => key.split('/')[0];
const name = (key: string) => key.split('/').slice(1).join('/');

/** One line naming the pod, and for a budget its numbers as the disruption controller reports them. */
export function blockText(b: DrainBlock): string {
  switch (b.kind) {
    case 'budget': {
      const after = b.spentBy.length ? ` once ${b.spentBy.join(', ')} of this batch drained` : '';
      return (
        `pod ${b.pod} held by PodDisruptionBudget ${b.budget} (allows ${plural(b.allows, 'disruption')}${after}, ` +
        `${b.healthy} healthy of ${b.required} required)`
      );
    }
    case 'budgets':
      return `pod ${b.pod} is under ${b.budgets.length} PodDisruptionBudgets (${b.budgets.join(', ')}): the Eviction API refuses it`;
    case 'bare':
      return `pod ${b.pod} has no controller: kubectl drain refuses it without --force`;
    case 'emptyDir':
      return `pod ${b.pod} keeps emptyDir data: kubectl drain refuses it without --delete-emptydir-data`;
    case 'daemonSet':
      return `pod ${b.pod} belongs to a DaemonSet: kubectl drain refuses it without --ignore-daemonsets`;
  }
}

function passText(b: DrainBlock): string {
  switch (b.kind) {
    case 'budget':
      return b.allowedAtBatchStart > 0 && b.spentBy.length > 0
        ? `drain it in another batch than ${b.spentBy.join(', ')} (a smaller --serial, or another node order)`
        : `the budget: ${b.budget} needs ${b.required} healthy and has ${b.healthy}; add a replica first or relax its ` +
            `minAvailable/maxUnavailable (kubectl -n ${ns(b.budget)} edit pdb ${name(b.budget)})`;
    case 'budgets':
      return `leave one PodDisruptionBudget over pod ${b.pod}`;
    case 'bare':
      return `move or delete pod ${b.pod} by hand first (play does not --force: deleting a pod without a controller loses it)`;
    case 'emptyDir':
      return `move pod ${b.pod} first, or drain with --delete-emptydir-data`;
    case 'daemonSet':
      return `drain with --ignore-daemonsets`;
  }
}

export function nodeAdvice(d: NodeDrain): NodeAdvice {
  const problems = d.blocks.map((b) => `drain would block: ${blockText(b)}`);
  const toPass = [...new Set(d.blocks.map(passText))];
  for (const p of d.pending) problems.push(`pod ${p.pod} would stay Pending after the drain: ${p.why}`);
  if (d.pending.length) toPass.push('room for its pods: a smaller batch, or a node that can take them');
  return { problems, toPass };
}

/** The reason a run records for a node it refuses to drain (one line, the first blocks named). */
export function blockedReason(d: NodeDrain): string {
  return `drain would block: ${d.blocks.map(blockText).join('; ')}`;
}
