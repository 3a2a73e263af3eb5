// How the API double (lab/cluster/api/, a TEST DOUBLE) answers reads, for every resource alike: one
// object with its kind and apiVersion, a list (`NodeList`, items without kind, the cluster's revision as
// its resourceVersion) narrowed by namespace, labelSelector and fieldSelector, or either as a Table when
// the client asked for one (kubectl get without -o). The whole list in one page: `limit` is honoured by
// giving everything at once with no `continue`, which a client must accept.
import type { ApiRequest, Target } from './request.js';
import { type Reply, badRequest, notFound } from './status.js';
import { fieldSelector, labelSelector, SelectorError } from './selectors.js';
import { table } from './tables.js';

type Obj = Record<string, any>;

export interface Kind {
  kind: string;
  resource: string;
  group: string;
  namespaced: boolean;
  /** Field selectors the API server indexes for it, beyond metadata.name and metadata.namespace. */
  fields?: Record<string, (o: Obj) => string | undefined>;
}

export const groupVersion = (t: Target) => (t.group ? `${t.group}/${t.version}` : t.version);

const typed = (k: Kind, t: Target, o: Obj) => ({ kind: k.kind, apiVersion: groupVersion(t), ...o });

function fieldsOf(k: Kind): Record<string, (o: Obj) => string | undefined> {
  return {
    'metadata.name': (o) => o.metadata.name,
    ...(k.namespaced ? { 'metadata.namespace': (o: Obj) => o.metadata.namespace } : {}),
    ...k.fields,
  };
}

function selected(req: ApiRequest, k: Kind, t: Target, objects: readonly Obj[]): Obj[] | Reply {
  try {
    const fields = fieldsOf(k);
    const bySelector = fieldSelector(req.query.get('fieldSelector'), Object.keys(fields));
    const byLabel = labelSelector(req.query.get('labelSelector'));
    return objects.filter(
      (o) =>
        (t.namespace === undefined || o.metadata.namespace === t.namespace) &&
        bySelector((f) => fields[f]!(o)) &&
        byLabel((l) => o.metadata.labels?.[l]),
    );
  } catch (e) {
    if (!(e instanceof SelectorError)) throw e;
    const gvr = `${k.group}/${t.version}, Resource=${k.resource}`;
    return badRequest(
      `Unable to find "${gvr}" that match label selector "${req.query.get('labelSelector') ?? ''}", field selector "${req.query.get('fieldSelector') ?? ''}": ${e.message}`,
    );
  }
}

/** GET on a collection. */
export function list(
  req: ApiRequest,
  k: Kind,
  t: Target,
  objects: readonly Obj[],
  revision: string,
  now: number,
): Reply {
  const chosen = selected(req, k, t, objects);
  if (!Array.isArray(chosen)) return chosen;
  if (req.wantsTable) return { code: 200, body: table(k.resource, chosen, revision, now) };
  return {
    code: 200,
    body: {
      kind: `${k.kind}List`,
      apiVersion: groupVersion(t),
      metadata: { resourceVersion: revision },
      items: chosen,
    },
  };
}

/** GET on one object by name (in the target's namespace); 404 naming it when there is none. */
export function getOne(req: ApiRequest, k: Kind, t: Target, objects: readonly Obj[], now: number): Reply {
  const o = objects.find(
    (x) => x.metadata.name === t.name && (t.namespace === undefined || x.metadata.namespace === t.namespace),
  );
  if (!o) return notFound(k, t.name!);
  if (req.wantsTable) return { code: 200, body: table(k.resource, [o], o.metadata.resourceVersion, now) };
  return { code: 200, body: typed(k, t, o) };
}

/** One object as a write returns it. */
export const written = (k: Kind, t: Target, o: Obj, code = 200): Reply => ({ code, body: typed(k, t, o) });
