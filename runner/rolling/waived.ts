// Nodes a rolling run leaves out on purpose: the waivers file `play drift` reads (waivers.yml beside
// the inventory: hosts, playbook, task, reason, expires) also waives a node's planned changes from a
// rollout. A node is waived when every task that would change it (changed in the plan; a step planned
// `unknown` waits on an earlier task's output and follows it) is covered by a waiver of this playbook
// that has not expired; it is never cordoned, reported with the waiver's reason and date, and
// counts neither as work nor as a failure. Pure.
import { isExpired, type HostResolver, type Waiver } from '../drift/waivers.js';

export interface WaivedNode {
  readonly host: string;
  /** `hotfix: vendor certification pending, OPS-77 (until 2026-12-31)`, one per task. */
  readonly reason: string;
}

/** Whether the changes of `host` (its changed task ids) are all waived; the reason when they are. */
export function waivedReason(
  host: string,
  playbook: string,
  changedTasks: readonly string[],
  waivers: readonly Waiver[],
  resolve: HostResolver,
  now: Date,
): string | null {
  if (changedTasks.length === 0) return null;
  const reasons: string[] = [];
  for (const task of changedTasks) {
    const w = waivers.find(
      (x) => x.playbook === playbook && x.task === task && !isExpired(x.expires, now) && matches(resolve, x, host),
    );
    if (!w) return null;
    reasons.push(`${task}: ${w.reason} (until ${w.expires})`);
  }
  return reasons.join('; ');
}

function matches(resolve: HostResolver, w: Waiver, host: string): boolean {
  try {
    return resolve(w.hosts).has(host);
  } catch {
    return false; // a pattern that matches nothing in this inventory waives nothing here
  }
}
