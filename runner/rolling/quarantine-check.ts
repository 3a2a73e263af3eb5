// Where the quarantine check (quarantine.ts) meets a run: the KBs the playbook's hotfix steps would
// install on each targeted host (from the steps built before any host is touched), and the store's
// quarantined KBs, read only when there is a hotfix step (so other playbooks never open the store,
// and a store that does not exist yet holds no quarantine).
import { InputError } from '../core/errors.js';
import type { AnyStep } from '../core/step.js';
import type { Inventory } from '../inventory/model.js';
import { compileGraph, type TaskGraph } from '../playbook/compile.js';
import type { Playbook } from '../playbook/define.js';
import { prebuildSteps } from '../run/run-graph.js';
import { openStore } from '../state/open-store.js';
import type { StateStore } from '../state/store.js';
import { quarantineRefusal } from './quarantine.js';

const HOTFIX_KIND = 'windows.hotfix';

/** Each targeted host's hotfix KBs (built steps of kind windows.hotfix), in graph order. */
export function hotfixKbsByHost(graph: TaskGraph, steps: ReadonlyMap<string, AnyStep>): Map<string, string[]> {
  const byHost = new Map<string, string[]>();
  for (const node of graph.nodes) {
    const step = steps.get(node.id);
    if (step?.kind !== HOTFIX_KIND) continue;
    const kb = (step.desired as { kb?: unknown }).kb;
    if (typeof kb !== 'string') continue;
    const kbs = byHost.get(node.target.name) ?? [];
    if (!kbs.includes(kb)) kbs.push(kb);
    byHost.set(node.target.name, kbs);
  }
  return byHost;
}

/** The hotfix KBs per targeted host of a playbook run (its steps built as a run builds them). */
export function hotfixKbsOf(
  playbook: Playbook,
  inventory: Inventory,
  limit: string | undefined,
  extraVars: Readonly<Record<string, unknown>>,
): Map<string, string[]> {
  const graph = compileGraph(playbook, inventory, { limit });
  return hotfixKbsByHost(graph, prebuildSteps(graph, inventory, extraVars));
}

/** Throws InputError (65) naming each quarantined KB this run would install. */
export async function refuseQuarantinedIn(
  store: StateStore,
  kbsByHost: ReadonlyMap<string, readonly string[]>,
): Promise<void> {
  if (kbsByHost.size === 0) return;
  const refusal = quarantineRefusal(kbsByHost, await store.quarantine.list());
  if (refusal) throw new InputError(refusal);
}

/** As refuseQuarantinedIn, opening the store at `state` to read (none yet: nothing is quarantined). */
export async function refuseQuarantinedKbs(
  kbsByHost: ReadonlyMap<string, readonly string[]>,
  state: string | undefined,
): Promise<void> {
  if (kbsByHost.size === 0) return;
  const store = await openStore(state, 'read');
  if (!store) return;
  try {
    await refuseQuarantinedIn(store, kbsByHost);
  } finally {
    await store.close();
  }
}
