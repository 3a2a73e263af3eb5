// A request to the API double (lab/cluster/api/, a TEST DOUBLE), read once: the REST path taken apart as
// kube-apiserver's request info resolver does (group, version, namespace, resource, name, subresource),
// the query, the JSON body, whether the client asked for a Table (kubectl get's human output), and who
// sent it (for the event log).
import type { IncomingHttpHeaders } from 'node:http';
import type { EventActor } from '../events.js';

export interface Target {
  /** '' for the core group (/api/v1). */
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
}

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined without one. */
  body: unknown;
  contentType: string;
  wantsTable: boolean;
  who: EventActor;
}

/**
 * `/api/v1/nodes/x`, `/api/v1/namespaces/default/pods/web/eviction`, `/apis/policy/v1/poddisruptionbudgets`
 * -> Target; undefined for a path that names no resource (discovery, or nothing).
 */
export function parseTarget(path: string): Target | undefined {
  const parts = path.split('/').filter((p) => p !== '');
  let rest: string[];
  let group = '';
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else return undefined;
  const namespaced = rest[0] === 'namespaces' && rest.length >= 3;
  const [resource, name, subresource, ...more] = namespaced ? rest.slice(2) : rest;
  if (more.length > 0 || resource === undefined) return undefined;
  return {
    group,
    version,
    ...(namespaced ? { namespace: rest[1]! } : {}),
    resource,
    ...(name !== undefined ? { name: decodeURIComponent(name) } : {}),
    ...(subresource !== undefined ? { subresource } : {}),
  };
}

const header = (h: IncomingHttpHeaders, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** kubectl get asks `application/json;as=Table;v=v1;g=meta.k8s.io,...`: a Table first, JSON as fallback. */
export function wantsTable(accept: string | undefined): boolean {
  const first = (accept ?? '').split(',')[0] ?? '';
  return /(^|;)\s*as=Table(;|$)/.test(first);
}

export function actorOf(headers: IncomingHttpHeaders, remoteAddress: string | undefined): EventActor {
  const agent = header(headers, 'user-agent');
  const command = header(headers, 'kubectl-command');
  const session = header(headers, 'kubectl-session');
  return {
    ...(remoteAddress ? { from: remoteAddress.replace(/^::ffff:/, '') } : {}),
    ...(agent ? { agent } : {}),
    ...(command ? { command } : {}),
    ...(session ? { session } : {}),
  };
}

export function readRequest(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  rawBody: string,
  remoteAddress: string | undefined,
): ApiRequest | { error: string } {
  const u = new URL(url, 'https://api.invalid');
  let body: unknown;
  if (rawBody.trim() !== '') {
    try {
      body = JSON.parse(rawBody);
    } catch (e) {
      return { error: `the body of the request was in an unknown format: ${(e as Error).message}` };
    }
  }
  return {
    method,
    path: u.pathname,
    query: u.searchParams,
    headers,
    body,
    contentType: (header(headers, 'content-type') ?? '').split(';')[0]!.trim(),
    wantsTable: wantsTable(header(headers, 'accept')),
    who: actorOf(headers, remoteAddress),
  };
}
