// OpenAPI v3 of the API double (lab/cluster/api/, a TEST DOUBLE), as little of it as kubectl reads: before
// `kubectl create -f` or `replace -f` sends an object, kubectl 1.32 looks in /openapi/v3 for a PATCH
// operation of the object's kind (its `x-kubernetes-group-version-kind`) that takes the `fieldValidation`
// query parameter (k8s.io/cli-runtime query_param_verifier_v3.go); finding one, it leaves field
// validation to the server and sends the object. Finding none, it would validate the file itself against
// /openapi/v2 (protobuf), which the double does not serve, and refuse. So each served group version gets
// a document with its kinds' schemas (allowing anything: the double keeps the fields it models and drops
// the rest, as the API server's default decoding does) and a PATCH operation for each resource that has
// one (nodes, leases). Kinds and verbs come from resources.ts.
import { createHash } from 'node:crypto';
import { SERVER_VERSION } from './discovery.js';
import { RESOURCES } from './resources.js';

/** `api/v1`, `apis/policy/v1`, ... for every group version served. */
function groupVersionPaths(): Map<string, { group: string; version: string }> {
  const out = new Map<string, { group: string; version: string }>();
  for (const r of RESOURCES)
    for (const version of r.versions)
      out.set(r.group ? `apis/${r.group}/${version}` : `api/${version}`, { group: r.group, version });
  return out;
}

/** kube-openapi's schema names: io.k8s.api.core.v1.Pod, io.k8s.api.coordination.v1.Lease. */
const schemaName = (group: string, version: string, kind: string) =>
  `io.k8s.api.${group === '' ? 'core' : group.split('.')[0]}.${version}.${kind}`;

function document(group: string, version: string): object {
  const schemas: Record<string, object> = {};
  const paths: Record<string, object> = {};
  for (const r of RESOURCES.filter((x) => x.group === group && x.versions.includes(version))) {
    const gvk = { group, kind: r.kind, version };
    schemas[schemaName(group, version, r.kind)] = { type: 'object', 'x-kubernetes-group-version-kind': [gvk] };
    if (!r.verbs.patch) continue;
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const path = `${base}${r.namespaced ? '/namespaces/{namespace}' : ''}/${r.resource}/{name}`;
    paths[path] = {
      patch: {
        operationId: `patch${r.kind}`,
        parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } }],
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': gvk,
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: SERVER_VERSION.gitVersion },
    paths,
    components: { schemas },
  };
}

const hashOf = (doc: object) => createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128);

/** GET /openapi/v3: the index of the group versions' documents. */
export function openApiIndex(): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [path, gv] of groupVersionPaths())
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hashOf(document(gv.group, gv.version))}` };
  return { paths };
}

/** GET /openapi/v3/PATH; undefined for a group version not served. */
export function openApiDocument(path: string): object | undefined {
  const gv = groupVersionPaths().get(path);
  return gv && document(gv.group, gv.version);
}
