// Why `play drift` left a playbook out (pure): of the drift-checked set, a playbook whose hosts are not
// in the inventory (or the --limit), or that needs a group the inventory lacks to read from (onboard-
// windows reads the cluster on a host of `control`), is not checked. Saying why is what keeps a quiet
// report from being read as a clean one.
import { PlayError } from '../core/errors.js';
import type { Inventory } from '../inventory/model.js';
import { selectHosts } from '../inventory/pattern.js';
import type { Playbook } from '../playbook/define.js';
import type { SkippedPlaybook } from './model.js';

/** The hosts a pattern matches, none when it matches nothing (or cannot be read). */
function matching(inventory: Inventory, pattern: string): Set<string> {
  try {
    return new Set(selectHosts(inventory, pattern).map((h) => h.name));
  } catch (e) {
    if (e instanceof PlayError) return new Set();
    throw e;
  }
}

const where = (pattern: string) => (/^[\w.-]+$/.test(pattern) ? `group ${pattern}` : `'${pattern}'`);

/**
 * Why `pb` has nothing to check in `inventory` under `limit`; `error` is what compiling its graph
 * said, the reason of last resort.
 */
export function skippedPlaybook(pb: Playbook, inventory: Inventory, limit?: string, error?: unknown): SkippedPlaybook {
  const limited = limit ? matching(inventory, limit) : null;
  const tasks = Object.entries(pb.tasks);
  const targeted = (pattern: string) => [...matching(inventory, pattern)].filter((h) => !limited || limited.has(h));
  for (const [id, spec] of tasks) {
    if (!spec.delegateTo || spec.optional || targeted(spec.on).length === 0) continue;
    if (matching(inventory, spec.delegateTo).size > 0) continue;
    const what = spec.description ? `: ${spec.description}` : '';
    return {
      playbook: pb.name,
      reason: `no host in ${where(spec.delegateTo)} (task '${id}' runs there${what}); add one to the inventory`,
    };
  }
  const patterns = [...new Set(tasks.map(([, spec]) => spec.on))];
  if (tasks.every(([, spec]) => targeted(spec.on).length === 0)) {
    const on = patterns.map(where).join(', ');
    return {
      playbook: pb.name,
      reason: limited ? `--limit '${limit}' selects no host in ${on}` : `no host in ${on} of this inventory`,
    };
  }
  const message = error instanceof Error ? error.message : 'nothing to check';
  return { playbook: pb.name, reason: message };
}
