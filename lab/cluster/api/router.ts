// Which handler answers a request to the API double (lab/cluster/api/, a TEST DOUBLE): discovery,
// /version and OpenAPI v3, then the resource table (resources.ts) by group, version and resource, the verb from the
// method and whether a name is given. What the double does not serve is said plainly: an unknown path
// or resource is 404, a verb a resource lacks (or a watch) is 405.
import { type ApiContext, NoClusterError } from './context.js';
import { coreVersions, groupList, resourceList, SERVER_VERSION } from './discovery.js';
import { openApiDocument, openApiIndex } from './openapi.js';
import { type ApiRequest, parseTarget } from './request.js';
import { resourceFor, type Verb } from './resources.js';
import { methodNotAllowed, noSuchResource, type Reply, serviceUnavailable } from './status.js';

function discovery(req: ApiRequest, serverAddress: string): Reply | undefined {
  if (req.method !== 'GET') return undefined;
  if (req.path === '/version') return { code: 200, body: SERVER_VERSION };
  if (req.path === '/api') return { code: 200, body: coreVersions(serverAddress) };
  if (req.path === '/apis') return { code: 200, body: groupList() };
  if (req.path === '/openapi/v3') return { code: 200, body: openApiIndex() };
  if (req.path.startsWith('/openapi/v3/')) {
    const doc = openApiDocument(req.path.slice('/openapi/v3/'.length));
    return doc ? { code: 200, body: doc } : noSuchResource();
  }
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/?$/.exec(req.path);
  if (!m) return undefined;
  const list = m[1] ? resourceList('', m[1]) : resourceList(m[2]!, m[3]!);
  return list ? { code: 200, body: list } : noSuchResource();
}

function verbOf(method: string, named: boolean): Verb | undefined {
  if (method === 'GET') return named ? 'get' : 'list';
  if (method === 'POST' && !named) return 'create';
  if (method === 'PUT' && named) return 'update';
  if (method === 'PATCH' && named) return 'patch';
  if (method === 'DELETE' && named) return 'delete';
  return undefined;
}

export function route(req: ApiRequest, ctx: ApiContext, serverAddress: string): Reply {
  const found = discovery(req, serverAddress);
  if (found) return found;
  const t = parseTarget(req.path);
  const r = t && resourceFor(t.group, t.version, t.resource);
  if (!t || !r) return noSuchResource();
  // A namespaced resource is listed across namespaces without one; everything else about it needs one.
  const allNamespaces = r.namespaced && t.namespace === undefined;
  if ((!r.namespaced && t.namespace !== undefined) || (allNamespaces && (t.name !== undefined || req.method !== 'GET')))
    return noSuchResource();
  if (req.query.get('watch') === 'true' || req.query.get('watch') === '1') return methodNotAllowed();
  try {
    if (t.subresource !== undefined) {
      const sub = r.subresources?.[t.subresource];
      if (!sub) return noSuchResource();
      return req.method === 'POST' ? sub.create(req, t, ctx) : methodNotAllowed();
    }
    const verb = verbOf(req.method, t.name !== undefined);
    const handler = verb && r.verbs[verb];
    return handler ? handler(req, t, ctx) : methodNotAllowed();
  } catch (e) {
    if (!(e instanceof NoClusterError)) throw e;
    return serviceUnavailable(e.message);
  }
}
