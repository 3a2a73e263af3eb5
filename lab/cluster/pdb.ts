// PodDisruptionBudgets in the simulated cluster (lab/cluster/, a TEST DOUBLE): minAvailable or
// maxUnavailable, a number or a percentage, over a label selector in one namespace. The status is what
// the disruption controller computes (docs/lab.md, "Simulated cluster", has the rules and their source):
// - expectedPods: the pods the selector matches (a ReplicaSet's replacement keeps the count);
// - desiredHealthy: minAvailable (a percentage of expectedPods rounded up), or expectedPods minus
//   maxUnavailable (a percentage of expectedPods rounded up), never below 0;
// - disruptionsAllowed: currentHealthy - desiredHealthy, never below 0.
import type { ClusterPdb, ClusterPod, ClusterState } from './cluster-model.js';
import { matchesLabels, podHealthy, podKey, podsOf } from './pods.js';

export type { ClusterPdb } from './cluster-model.js';

export interface PdbStatus {
  currentHealthy: number;
  desiredHealthy: number;
  disruptionsAllowed: number;
  expectedPods: number;
}

/** intstr.GetScaledValueFromIntOrPercent: a count as is, "N%" of total, rounded up or down. */
export function scaledValue(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  const m = /^(\d+)%$/.exec(value);
  if (!m) throw new RangeError(`invalid value for IntOrString: invalid value "${value}": must be a number or N%`);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function pdbPods(s: ClusterState, b: ClusterPdb): ClusterPod[] {
  return podsOf(s).filter((p) => p.namespace === b.namespace && matchesLabels(p.labels, b.selector));
}

export function pdbStatus(s: ClusterState, b: ClusterPdb, now = Date.now()): PdbStatus {
  const pods = pdbPods(s, b);
  const expectedPods = pods.length;
  const currentHealthy = pods.filter((p) => podHealthy(s, p, now)).length;
  const desiredHealthy =
    b.maxUnavailable !== undefined
      ? Math.max(0, expectedPods - scaledValue(b.maxUnavailable, expectedPods, true))
      : scaledValue(b.minAvailable ?? 1, expectedPods, true);
  const disruptionsAllowed = expectedPods <= 0 ? 0 : Math.max(0, currentHealthy - desiredHealthy);
  return { currentHealthy, desiredHealthy, disruptionsAllowed, expectedPods };
}

export const pdbsOf = (s: ClusterState): ClusterPdb[] =>
  Object.values(s.pdbs ?? {}).sort((a, b) => podKey(a).localeCompare(podKey(b)));

/** The budgets that cover a pod (the eviction API refuses a pod with more than one). */
export function pdbsFor(s: ClusterState, p: ClusterPod): ClusterPdb[] {
  return pdbsOf(s).filter((b) => b.namespace === p.namespace && matchesLabels(p.labels, b.selector));
}
