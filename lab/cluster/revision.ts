// resourceVersion in the simulated cluster (lab/cluster/, a TEST DOUBLE), as the API server gives it out:
// one counter for the whole cluster (etcd's revision, the state's `revision`), and on each object the
// revision of its last change. Writers edit the state freely (the API double, the simulated nodes'
// registration, tests); the write that stores it (updateClusterState) compares every object with the
// file's copy and stamps the changed and new ones, so no writer can forget to. A client's update that
// names an older resourceVersion than the object's is a conflict (the API double answers 409).
import type { ClusterState } from './cluster-model.js';

type Keyed = Record<string, { resourceVersion?: string }>;

const COLLECTIONS = ['nodes', 'pods', 'pdbs', 'leases'] as const;

/** The object without its resourceVersion, as text: what "changed" compares. */
function content(o: { resourceVersion?: string } | undefined): string | undefined {
  if (o === undefined) return undefined;
  const { resourceVersion: _, ...rest } = o;
  return JSON.stringify(rest);
}

/** Stamps every object of `after` that is new or differs from `before` with the next revision. */
export function stampRevisions(before: ClusterState | undefined, after: ClusterState): void {
  for (const c of COLLECTIONS) {
    const old = (before?.[c] ?? {}) as Keyed;
    for (const [key, o] of Object.entries((after[c] ?? {}) as Keyed)) {
      const prior = old[key];
      if (prior !== undefined && content(prior) === content(o) && prior.resourceVersion !== undefined)
        o.resourceVersion = prior.resourceVersion;
      else o.resourceVersion = String((after.revision = (after.revision ?? 0) + 1));
    }
  }
}

/** A list's resourceVersion: the cluster's revision. */
export const listVersion = (s: ClusterState) => String(s.revision ?? 0);
