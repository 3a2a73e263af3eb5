// The eviction API (POST pods/NAME/eviction) of the simulated cluster (lab/cluster/, a TEST DOUBLE): what
// the API server answers kubectl drain for one pod. A pod covered by one PodDisruptionBudget is evicted
// only while the budget allows a disruption (429 otherwise); more than one budget is a 500; no budget, it
// goes. An evicted ReplicaSet pod is replaced at once (pods.ts replacePod); a bare pod is just gone.
import type { ClusterState } from './cluster-state.js';
import { type ClusterPdb, pdbStatus, pdbsFor } from './pdb.js';
import { type ClusterPod, podKey, replacePod } from './pods.js';

export const PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

export type EvictionAnswer =
  | { code: 201; replacement?: ClusterPod }
  | { code: 404 }
  | { code: 429; message: string; pdb: ClusterPdb }
  | { code: 500; message: string };

/**
 * Evicts one pod. `allowed` carries each budget's disruptionsAllowed through one round of requests: the
 * API server counts this round's evictions against the budget before the disruption controller sees the
 * replacements Ready (in the next round).
 */
export function evict(s: ClusterState, key: string, allowed: Map<string, number>, now: Date): EvictionAnswer {
  const pod = s.pods?.[key];
  if (!pod) return { code: 404 };
  const budgets = pdbsFor(s, pod);
  if (budgets.length > 1) return { code: 500, message: MULTIPLE_PDBS };
  const pdb = budgets[0];
  if (pdb) {
    const id = podKey(pdb);
    const left = allowed.get(id) ?? pdbStatus(s, pdb).disruptionsAllowed;
    if (left <= 0) {
      allowed.set(id, left);
      return { code: 429, message: PDB_VIOLATION, pdb };
    }
    allowed.set(id, left - 1);
  }
  delete s.pods![key];
  if (pod.owner?.kind === 'ReplicaSet') return { code: 201, replacement: replacePod(s, pod, now) };
  return { code: 201 };
}
