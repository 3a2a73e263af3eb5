// The resources the API double (lab/cluster/api/, a TEST DOUBLE) only lets clients read: PodDisruption
// Budgets (policy/v1 and v1beta1, with the disruption controller's status; tests and the lab add them to
// the state directly, workloads.ts), services, namespaces, and the DaemonSets and ReplicaSets owning
// pods. Writing any of them is 405, as for a verb a resource does not have.
import { listVersion } from '../revision.js';
import { pdbsOf } from '../pdb.js';
import type { Handler } from './context.js';
import { stateOf } from './context.js';
import { namespaceObjects, ownerObjects, serviceObjects } from './derived-objects.js';
import { pdbObject } from './objects.js';
import { scheduled } from './pods.js';
import { type Kind, getOne, list } from './serve.js';

type Obj = Record<string, any>;

export const PDB: Kind = {
  kind: 'PodDisruptionBudget',
  resource: 'poddisruptionbudgets',
  group: 'policy',
  namespaced: true,
};
export const SERVICE: Kind = {
  kind: 'Service',
  resource: 'services',
  group: '',
  namespaced: true,
  fields: { 'spec.clusterIP': (o) => o.spec.clusterIP, 'spec.type': (o) => o.spec.type },
};
export const NAMESPACE: Kind = {
  kind: 'Namespace',
  resource: 'namespaces',
  group: '',
  namespaced: false,
  fields: { 'status.phase': (o) => o.status.phase },
};
export const DAEMONSET: Kind = { kind: 'DaemonSet', resource: 'daemonsets', group: 'apps', namespaced: true };
export const REPLICASET: Kind = { kind: 'ReplicaSet', resource: 'replicasets', group: 'apps', namespaced: true };

/** list and get handlers over objects made from the state, sorted by namespace and name. */
function readers(k: Kind, objects: (ctx: Parameters<Handler>[2]) => { items: Obj[]; revision: string }) {
  const sorted = (items: Obj[]) =>
    [...items].sort((a, b) =>
      `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
        `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );
  const listHandler: Handler = (req, t, ctx) => {
    const { items, revision } = objects(ctx);
    return list(req, k, t, sorted(items), revision, ctx.now());
  };
  const getHandler: Handler = (req, t, ctx) => getOne(req, k, t, objects(ctx).items, ctx.now());
  return { list: listHandler, get: getHandler };
}

export const pdbReaders = readers(PDB, (ctx) => {
  const s = scheduled(ctx);
  return { items: pdbsOf(s).map((b) => pdbObject(s, b, ctx.now())), revision: listVersion(s) };
});

export const serviceReaders = readers(SERVICE, (ctx) => {
  const s = stateOf(ctx);
  return { items: serviceObjects(s), revision: listVersion(s) };
});

export const namespaceReaders = readers(NAMESPACE, (ctx) => {
  const s = stateOf(ctx);
  return { items: namespaceObjects(s), revision: listVersion(s) };
});

export const daemonSetReaders = readers(DAEMONSET, (ctx) => {
  const s = stateOf(ctx);
  return { items: ownerObjects(s, 'DaemonSet'), revision: listVersion(s) };
});

export const replicaSetReaders = readers(REPLICASET, (ctx) => {
  const s = stateOf(ctx);
  return { items: ownerObjects(s, 'ReplicaSet'), revision: listVersion(s) };
});
