// coordination.k8s.io/v1 Leases in the simulated cluster (lab/cluster/, a TEST DOUBLE): what a client
// stores to hold a lock in the cluster (a holder, a duration, when it was acquired and renewed). The API
// double creates, reads, updates and deletes them with optimistic concurrency: an update or delete that
// names a resourceVersion other than the lease's current one is a conflict (409), as with etcd's
// compare-and-swap behind kube-apiserver. Validation is kube-apiserver's for Lease
// (pkg/apis/coordination/validation: a duration above 0, transitions not negative); fields a Lease does
// not have are dropped, as the API server's default decoding drops them, or refused when the client asks
// for strict field validation (kubectl create and replace do).
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime: RFC 3339 with microseconds, `2026-11-23T12:00:00.000000Z`. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface ClusterLease {
  name: string;
  namespace: string;
  uid: string;
  createdAt: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  spec: LeaseSpec;
  /** The revision of its last change (revision.ts). */
  resourceVersion?: string;
}

const SPEC_FIELDS: Record<keyof LeaseSpec, 'string' | 'number'> = {
  holderIdentity: 'string',
  leaseDurationSeconds: 'number',
  acquireTime: 'string',
  renewTime: 'string',
  leaseTransitions: 'number',
};

const MICRO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

/** The spec of a request body, or the first field error as kube-apiserver words it. */
export function leaseSpec(body: unknown): LeaseSpec | { field: string; detail: string } {
  const spec = ((body as { spec?: unknown })?.spec ?? {}) as Record<string, unknown>;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec))
    return { field: 'spec', detail: 'Invalid value: must be an object' };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec)) {
    const type = SPEC_FIELDS[k as keyof LeaseSpec];
    if (v === null || v === undefined) continue;
    if (!type) continue;
    if (typeof v !== type || (type === 'number' && !Number.isInteger(v)))
      return {
        field: `spec.${k}`,
        detail: `Invalid value: ${JSON.stringify(v)}: must be a${type === 'number' ? 'n integer' : ' string'}`,
      };
    if (k === 'leaseDurationSeconds' && (v as number) <= 0)
      return { field: `spec.${k}`, detail: `Invalid value: ${v}: must be greater than 0` };
    if (k === 'leaseTransitions' && (v as number) < 0)
      return { field: `spec.${k}`, detail: `Invalid value: ${v}: must be greater than or equal to 0` };
    if (k.endsWith('Time') && !MICRO_TIME.test(v as string))
      return { field: `spec.${k}`, detail: `Invalid value: ${JSON.stringify(v)}: not an RFC 3339 time` };
    out[k] = v;
  }
  return out as LeaseSpec;
}

const OBJECT_FIELDS = ['apiVersion', 'kind', 'metadata', 'spec'];
const META_FIELDS = [
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

function extraField(v: unknown, known: readonly string[], prefix: string): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const k = Object.keys(v).find((x) => !known.includes(x));
  return k === undefined ? undefined : `${prefix}${k}`;
}

/** The first field of a Lease body that Lease does not have (`spec.foo`), for fieldValidation=Strict. */
export function unknownLeaseField(body: unknown): string | undefined {
  const o = (body ?? {}) as Record<string, unknown>;
  return (
    extraField(o, OBJECT_FIELDS, '') ??
    extraField(o.metadata, META_FIELDS, 'metadata.') ??
    extraField(o.spec, Object.keys(SPEC_FIELDS), 'spec.')
  );
}

export const leaseKey = (namespace: string, name: string) => `${namespace}/${name}`;
