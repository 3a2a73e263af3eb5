// The eviction subresource (POST pods/NAME/eviction) of the simulated cluster (lab/cluster/, a TEST
// DOUBLE): what the API server decides for one pod. A pod covered by one PodDisruptionBudget is evicted
// only while the budget allows a disruption (429 otherwise); more than one budget is a 500; no budget,
// it goes. An evicted pod with a controller is replaced at once (pods.ts replacePod: it starts a moment
// later, so it counts for the budget only from then on); a bare pod is just gone.
// The texts are kube-apiserver's (pkg/registry/core/pod/storage/eviction.go: checkAndDecrement, and the
// Status it returns for several budgets).
import type { ClusterState } from './cluster-state.js';
import { type ClusterPdb, pdbStatus, pdbsFor } from './pdb.js';
import { type ClusterPod, replacePod } from './pods.js';

export const PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";
export const MULTIPLE_PDBS =
  'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';

export type EvictionAnswer =
  | { code: 201; pod: ClusterPod; replacement?: ClusterPod }
  | { code: 404 }
  | { code: 429; message: string; pdb: ClusterPdb; cause: string }
  | { code: 500; message: string };

/** Evicts one pod now: the budget is read as the disruption controller would report it at this moment. */
export function evict(s: ClusterState, key: string, now: Date): EvictionAnswer {
  const pod = s.pods?.[key];
  if (!pod) return { code: 404 };
  const budgets = pdbsFor(s, pod);
  if (budgets.length > 1) return { code: 500, message: MULTIPLE_PDBS };
  const pdb = budgets[0];
  if (pdb) {
    const st = pdbStatus(s, pdb, now.getTime());
    if (st.disruptionsAllowed <= 0) {
      const cause = `The disruption budget ${pdb.name} needs ${st.desiredHealthy} healthy pods and has ${st.currentHealthy} currently`;
      return { code: 429, message: PDB_VIOLATION, pdb, cause };
    }
  }
  delete s.pods![key];
  return pod.owner ? { code: 201, pod, replacement: replacePod(s, pod, now) } : { code: 201, pod };
}
