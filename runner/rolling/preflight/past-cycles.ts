// The node cycles of past runs of a playbook, from the journal (the state store's rollouts), for the
// run's time estimate (estimate.ts). A check never creates a store: without one there is no history.
import { openStore } from '../../state/open-store.js';
import { type CycleSample, cycleSamples } from '../estimate.js';

/** How many of the newest runs are read: enough for a median, few enough to stay quick. */
const RUNS_READ = 20;

export async function pastCycles(state: string | undefined, playbook: string): Promise<CycleSample[]> {
  const store = await openStore(state, 'read');
  if (!store) return [];
  try {
    const runs = (await store.rollouts.list(RUNS_READ * 5)).filter((r) => r.playbook === playbook).slice(0, RUNS_READ);
    const samples: CycleSample[] = [];
    for (const r of runs) samples.push(...cycleSamples(await store.rollouts.events(r.id)));
    return samples;
  } finally {
    await store.close();
  }
}
