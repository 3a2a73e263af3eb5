// The resources the API double (lab/cluster/api/, a TEST DOUBLE) serves, with the verbs each has: one
// table that both discovery (what kubectl learns the server offers: names, short names, kinds, verbs,
// and pods/eviction's group and version, from which kubectl drain picks the Eviction it sends) and the
// router read, so the two cannot disagree.
import type { Handler } from './context.js';
import { createLease, deleteLease, getLease, LEASE, listLeases, patchLease, updateLease } from './leases.js';
import { deleteNode, getNode, listNodes, NODE, patchNode } from './nodes.js';
import { deletePod, evictPod, getPod, listPods, POD } from './pods.js';
import {
  DAEMONSET,
  daemonSetReaders,
  NAMESPACE,
  namespaceReaders,
  PDB,
  pdbReaders,
  REPLICASET,
  replicaSetReaders,
  SERVICE,
  serviceReaders,
} from './read-only.js';
import type { Kind } from './serve.js';

export type Verb = 'list' | 'get' | 'create' | 'update' | 'patch' | 'delete';

export interface Resource extends Kind {
  /** Served versions, the preferred first. */
  versions: readonly string[];
  singular: string;
  shortNames?: readonly string[];
  categories?: readonly string[];
  verbs: Partial<Record<Verb, Handler>>;
  /** Subresources a POST on one object reaches (pods/eviction). */
  subresources?: Record<string, { kind: string; group: string; version: string; create: Handler }>;
}

export const RESOURCES: readonly Resource[] = [
  {
    ...NODE,
    versions: ['v1'],
    singular: 'node',
    shortNames: ['no'],
    verbs: { list: listNodes, get: getNode, patch: patchNode, delete: deleteNode },
  },
  {
    ...POD,
    versions: ['v1'],
    singular: 'pod',
    shortNames: ['po'],
    categories: ['all'],
    verbs: { list: listPods, get: getPod, delete: deletePod },
    subresources: { eviction: { kind: 'Eviction', group: 'policy', version: 'v1', create: evictPod } },
  },
  {
    ...SERVICE,
    versions: ['v1'],
    singular: 'service',
    shortNames: ['svc'],
    categories: ['all'],
    verbs: serviceReaders,
  },
  { ...NAMESPACE, versions: ['v1'], singular: 'namespace', shortNames: ['ns'], verbs: namespaceReaders },
  {
    ...DAEMONSET,
    versions: ['v1'],
    singular: 'daemonset',
    shortNames: ['ds'],
    categories: ['all'],
    verbs: daemonSetReaders,
  },
  {
    ...REPLICASET,
    versions: ['v1'],
    singular: 'replicaset',
    shortNames: ['rs'],
    categories: ['all'],
    verbs: replicaSetReaders,
  },
  { ...PDB, versions: ['v1', 'v1beta1'], singular: 'poddisruptionbudget', shortNames: ['pdb'], verbs: pdbReaders },
  {
    ...LEASE,
    versions: ['v1'],
    singular: 'lease',
    verbs: {
      list: listLeases,
      get: getLease,
      create: createLease,
      update: updateLease,
      patch: patchLease,
      delete: deleteLease,
    },
  },
];

export function resourceFor(group: string, version: string, name: string): Resource | undefined {
  return RESOURCES.find((r) => r.group === group && r.resource === name && r.versions.includes(version));
}
