// Nodes in the API double (lab/cluster/api/, a TEST DOUBLE): list, get, patch and delete. A patch may
// change spec.unschedulable only (what kubectl cordon, uncordon and drain send: a strategic merge patch
// `{"spec":{"unschedulable":true}}` or `null`; a merge patch or a JSON patch of /spec/unschedulable
// alike); any other change is refused (422) rather than ignored, since the double does not keep it.
// A change of the cordon is an event; uncordoning lets Pending pods be scheduled.
import { type ClusterState, updateClusterState } from '../cluster-state.js';
import { appendEvents } from '../events.js';
import { schedulePending } from '../pods.js';
import { dryRun, type Handler, newDrainSession, stateOf } from './context.js';
import { nodeObject } from './objects.js';
import { listVersion } from '../revision.js';
import { type Kind, getOne, list, written } from './serve.js';
import { badRequest, invalid, notFound, type Reply, unsupportedMediaType } from './status.js';

export const NODE: Kind = {
  kind: 'Node',
  resource: 'nodes',
  group: '',
  namespaced: false,
  fields: { 'spec.unschedulable': (o) => String(o.spec.unschedulable === true) },
};

const nodesOf = (s: ClusterState) =>
  Object.values(s.nodes)
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(nodeObject);

export const listNodes: Handler = (req, t, ctx) => {
  const s = stateOf(ctx);
  return list(req, NODE, t, nodesOf(s), listVersion(s), ctx.now());
};

export const getNode: Handler = (req, t, ctx) => {
  const name = t.name!;
  const s = stateOf(ctx);
  if (s.nodes[name] && newDrainSession(req, ctx, name))
    updateClusterState(ctx.stateFile, (st) =>
      appendEvents(ctx.stateFile, st, req.who, [{ kind: 'drain', node: name }]),
    );
  return getOne(req, NODE, t, nodesOf(s), ctx.now());
};

type Wanted = { unschedulable: boolean } | Reply;

const refuse = (name: string, what: string) =>
  invalid('Node', name, what, 'Forbidden: the play lab API double changes only spec.unschedulable of a node');

/** The spec.unschedulable a merge or strategic merge patch asks for. */
function fromMergePatch(name: string, body: unknown, current: boolean): Wanted {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return badRequest('a patch must be an object');
  const { spec, metadata, ...rest } = body as Record<string, unknown>;
  const other = Object.keys(rest).find((k) => k !== 'apiVersion' && k !== 'kind');
  if (other) return refuse(name, other);
  if (metadata !== undefined && Object.keys(metadata as object).length > 0) return refuse(name, 'metadata');
  if (spec === undefined) return { unschedulable: current };
  const { unschedulable, ...specRest } = spec as Record<string, unknown>;
  const otherSpec = Object.keys(specRest)[0];
  if (otherSpec) return refuse(name, `spec.${otherSpec}`);
  if (unschedulable === undefined) return { unschedulable: current };
  if (unschedulable !== null && typeof unschedulable !== 'boolean')
    return badRequest(
      `json: cannot unmarshal ${typeof unschedulable} into Go struct field NodeSpec.spec.unschedulable of type bool`,
    );
  return { unschedulable: unschedulable === true };
}

/** The spec.unschedulable a JSON patch (RFC 6902) of /spec/unschedulable asks for. */
function fromJsonPatch(name: string, body: unknown, current: boolean): Wanted {
  if (!Array.isArray(body)) return badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let value = current;
  for (const op of body as { op?: string; path?: string; value?: unknown }[]) {
    if (op.path !== '/spec/unschedulable') return refuse(name, String(op.path));
    if (op.op === 'remove') value = false;
    else if ((op.op === 'add' || op.op === 'replace') && typeof op.value === 'boolean') value = op.value;
    else if (op.op === 'test' && op.value === value) continue;
    else if (op.op === 'test')
      return invalid('Node', name, 'spec.unschedulable', 'testing value /spec/unschedulable failed');
    else return badRequest(`unexpected kind of JSON patch operation: ${JSON.stringify(op)}`);
  }
  return { unschedulable: value };
}

const PATCH_TYPES: Record<string, typeof fromMergePatch> = {
  'application/strategic-merge-patch+json': fromMergePatch,
  'application/merge-patch+json': fromMergePatch,
  'application/json-patch+json': fromJsonPatch,
};

export const patchNode: Handler = (req, t, ctx) => {
  const name = t.name!;
  const parse = PATCH_TYPES[req.contentType];
  if (!parse) return unsupportedMediaType(Object.keys(PATCH_TYPES));
  const answered = updateClusterState(ctx.stateFile, (s): Reply | undefined => {
    const n = s.nodes[name];
    if (!n) return notFound(NODE, name);
    const wanted = parse(name, req.body, n.unschedulable);
    if ('code' in wanted) return wanted;
    if (dryRun(req)) return written(NODE, t, nodeObject({ ...n, unschedulable: wanted.unschedulable }));
    if (wanted.unschedulable === n.unschedulable) return undefined;
    n.unschedulable = wanted.unschedulable;
    n.updatedAt = new Date(ctx.now()).toISOString();
    if (!n.unschedulable) schedulePending(s, new Date(ctx.now()));
    appendEvents(ctx.stateFile, s, req.who, [{ kind: n.unschedulable ? 'cordon' : 'uncordon', node: name }]);
    return undefined;
  });
  // Read back after the write: the answer carries the node's new resourceVersion.
  return answered ?? written(NODE, t, nodeObject(stateOf(ctx).nodes[name]!));
};

export const deleteNode: Handler = (req, t, ctx) =>
  updateClusterState(ctx.stateFile, (s) => {
    const n = s.nodes[t.name!];
    if (!n) return notFound(NODE, t.name!);
    const o = nodeObject(n);
    if (dryRun(req)) return written(NODE, t, o);
    delete s.nodes[t.name!];
    appendEvents(ctx.stateFile, s, req.who, [{ kind: 'node-deleted', node: t.name! }]);
    return written(NODE, t, o);
  });
