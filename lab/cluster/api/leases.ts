// coordination.k8s.io/v1 Leases in the API double (lab/cluster/api/, a TEST DOUBLE): list, get, create,
// update (PUT), patch (merge) and delete, with kube-apiserver's optimistic concurrency: an update or patch
// naming a resourceVersion other than the lease's current one is 409 Conflict, as is a delete whose
// preconditions name another; one without a resourceVersion is an unconditional update (Lease allows
// it). Creating an existing lease is 409 AlreadyExists; updating a missing one is 404 (Lease does not
// allow create on update).
import { type ClusterState, updateClusterState } from '../cluster-state.js';
import { type ClusterLease, leaseKey, leaseSpec, unknownLeaseField } from '../leases.js';
import { fakeUid } from '../pods.js';
import { listVersion } from '../revision.js';
import { type ApiContext, dryRun, type Handler, stateOf } from './context.js';
import { seconds } from './objects.js';
import type { ApiRequest, Target } from './request.js';
import { type Kind, getOne, list, written } from './serve.js';
import {
  alreadyExists,
  badRequest,
  conflict,
  invalid,
  notFound,
  type Reply,
  success,
  unsupportedMediaType,
} from './status.js';

export const LEASE: Kind = { kind: 'Lease', resource: 'leases', group: 'coordination.k8s.io', namespaced: true };
const QUALIFIED_KIND = 'Lease.coordination.k8s.io';

export function leaseObject(l: ClusterLease): Record<string, unknown> {
  return {
    metadata: {
      name: l.name,
      namespace: l.namespace,
      uid: l.uid,
      resourceVersion: l.resourceVersion ?? '1',
      creationTimestamp: seconds(l.createdAt),
      ...(l.labels ? { labels: l.labels } : {}),
      ...(l.annotations ? { annotations: l.annotations } : {}),
    },
    spec: l.spec,
  };
}

const leasesOf = (s: ClusterState) =>
  Object.values(s.leases ?? {})
    .sort((a, b) => leaseKey(a.namespace, a.name).localeCompare(leaseKey(b.namespace, b.name)))
    .map(leaseObject);

export const listLeases: Handler = (req, t, ctx) => {
  const s = stateOf(ctx);
  return list(req, LEASE, t, leasesOf(s), listVersion(s), ctx.now());
};

export const getLease: Handler = (req, t, ctx) => getOne(req, LEASE, t, leasesOf(stateOf(ctx)), ctx.now());

interface Meta {
  name?: unknown;
  namespace?: unknown;
  resourceVersion?: unknown;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** The body's metadata, checked against the URL as kube-apiserver checks it; with fieldValidation=Strict,
 *  a field a Lease does not have is refused as its strict decoding refuses it. */
function metaOf(req: ApiRequest, t: Target): Meta | Reply {
  const unknown = unknownLeaseField(req.body);
  if (unknown && req.query.get('fieldValidation') === 'Strict')
    return badRequest(
      `Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "${unknown}"`,
    );
  const meta = ((req.body as { metadata?: Meta } | undefined)?.metadata ?? {}) as Meta;
  if (meta.namespace !== undefined && meta.namespace !== t.namespace)
    return badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (t.name !== undefined && meta.name !== t.name)
    return badRequest(`the name of the object (${String(meta.name)}) does not match the name on the URL (${t.name})`);
  if (typeof meta.name !== 'string' || meta.name === '')
    return invalid(QUALIFIED_KIND, '', 'metadata.name', 'Required value: name or generateName is required');
  return meta;
}

/** Stores the lease; returns its reply once written (read back: the new resourceVersion). */
function store(req: ApiRequest, t: Target, ctx: ApiContext, change: (s: ClusterState) => Reply | ClusterLease) {
  const r = updateClusterState(ctx.stateFile, (s) => {
    const out = change(s);
    if ('code' in out || dryRun(req)) return out;
    (s.leases ??= {})[leaseKey(out.namespace, out.name)] = out;
    return out;
  });
  if ('code' in r) return r;
  if (dryRun(req)) return written(LEASE, t, leaseObject(r));
  const saved = stateOf(ctx).leases![leaseKey(r.namespace, r.name)]!;
  return written(LEASE, t, leaseObject(saved), t.name === undefined ? 201 : 200);
}

export const createLease: Handler = (req, t, ctx) => {
  const meta = metaOf(req, t);
  if ('code' in meta) return meta;
  const spec = leaseSpec(req.body);
  const name = meta.name as string;
  if ('field' in spec) return invalid(QUALIFIED_KIND, name, spec.field, spec.detail);
  return store(req, t, ctx, (s) => {
    if (s.leases?.[leaseKey(t.namespace!, name)]) return alreadyExists(LEASE, name);
    const createdAt = new Date(ctx.now()).toISOString();
    return {
      name,
      namespace: t.namespace!,
      uid: fakeUid(`lease/${t.namespace}/${name}/${createdAt}`),
      createdAt,
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
      spec,
    };
  });
};

export const updateLease: Handler = (req, t, ctx) => {
  const meta = metaOf(req, t);
  if ('code' in meta) return meta;
  const spec = leaseSpec(req.body);
  if ('field' in spec) return invalid(QUALIFIED_KIND, t.name!, spec.field, spec.detail);
  return store(req, t, ctx, (s) => {
    const old = s.leases?.[leaseKey(t.namespace!, t.name!)];
    if (!old) return notFound(LEASE, t.name!);
    if (meta.resourceVersion !== undefined && meta.resourceVersion !== old.resourceVersion)
      return conflict(LEASE, t.name!);
    const { labels: _l, annotations: _a, ...kept } = old;
    return {
      ...kept,
      ...(meta.labels ? { labels: meta.labels } : {}),
      ...(meta.annotations ? { annotations: meta.annotations } : {}),
      spec,
    };
  });
};

/** RFC 7386 merge patch (a strategic merge patch is the same for a Lease: it has no lists). */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as object) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

const LEASE_PATCHES = ['application/strategic-merge-patch+json', 'application/merge-patch+json'];

/** A merge patch of a lease's labels, annotations and spec; a resourceVersion in it must be current. */
export const patchLease: Handler = (req, t, ctx) => {
  if (!LEASE_PATCHES.includes(req.contentType)) return unsupportedMediaType(LEASE_PATCHES);
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body))
    return badRequest('a patch must be an object');
  return store(req, t, ctx, (s) => {
    const old = s.leases?.[leaseKey(t.namespace!, t.name!)];
    if (!old) return notFound(LEASE, t.name!);
    const merged = mergePatch(leaseObject(old), req.body) as { metadata: Meta; spec?: unknown };
    if (merged.metadata.resourceVersion !== (old.resourceVersion ?? '1')) return conflict(LEASE, t.name!);
    if (merged.metadata.name !== old.name || merged.metadata.namespace !== old.namespace)
      return badRequest('metadata.name and metadata.namespace cannot be patched');
    const spec = leaseSpec(merged);
    if ('field' in spec) return invalid(QUALIFIED_KIND, t.name!, spec.field, spec.detail);
    const { labels: _l, annotations: _a, ...kept } = old;
    return {
      ...kept,
      ...(merged.metadata.labels ? { labels: merged.metadata.labels } : {}),
      ...(merged.metadata.annotations ? { annotations: merged.metadata.annotations } : {}),
      spec,
    };
  });
};

export const deleteLease: Handler = (req, t, ctx) =>
  updateClusterState(ctx.stateFile, (s) => {
    const key = leaseKey(t.namespace!, t.name!);
    const old = s.leases?.[key];
    if (!old) return notFound(LEASE, t.name!);
    const wanted = (req.body as { preconditions?: { resourceVersion?: string } } | undefined)?.preconditions
      ?.resourceVersion;
    if (wanted !== undefined && wanted !== old.resourceVersion)
      return conflict(
        LEASE,
        t.name!,
        `Precondition failed: ResourceVersion in precondition: ${wanted}, ResourceVersion in object meta: ${old.resourceVersion}`,
      );
    if (!dryRun(req)) delete s.leases![key];
    return success(200, { name: t.name, group: LEASE.group, kind: LEASE.resource, uid: old.uid });
  });
