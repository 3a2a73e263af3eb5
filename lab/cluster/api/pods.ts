// Pods in the API double (lab/cluster/api/, a TEST DOUBLE): list (fieldSelector spec.nodeName=, as kubectl
// drain and play ask, and labelSelector), get, delete, and the eviction subresource (policy/v1 and
// v1beta1 Eviction bodies alike) with the disruption budget's answer (eviction.ts): 201, 429 naming the
// budget, 500 for a pod under two. Reading pods first places Pending ones that a node can now take
// (the scheduler runs between requests here). An evicted or deleted pod with a controller is replaced
// at once.
import { type ClusterState, updateClusterState } from '../cluster-state.js';
import { appendEvents, type NewEvent } from '../events.js';
import { evict } from '../eviction.js';
import { type ClusterPod, podKey, podsOf, replacePod, schedulePending } from '../pods.js';
import { listVersion } from '../revision.js';
import { type ApiContext, dryRun, type Handler, stateOf } from './context.js';
import { podObject } from './objects.js';
import { type Kind, getOne, list, written } from './serve.js';
import { badRequest, bare, notFound, type Reply, success, tooManyRequests } from './status.js';

export const POD: Kind = {
  kind: 'Pod',
  resource: 'pods',
  group: '',
  namespaced: true,
  fields: {
    'spec.nodeName': (o) => o.spec.nodeName ?? '',
    'spec.schedulerName': (o) => o.spec.schedulerName,
    'status.phase': (o) => o.status.phase,
    'status.podIP': (o) => o.status.podIP ?? '',
  },
};

/** The state after the scheduler's turn (written only when it placed something). */
export function scheduled(ctx: ApiContext): ClusterState {
  updateClusterState(ctx.stateFile, (s) => void schedulePending(s, new Date(ctx.now())));
  return stateOf(ctx);
}

const podsIn = (s: ClusterState, now: number) => podsOf(s).map((p) => podObject(s, p, now));

export const listPods: Handler = (req, t, ctx) => {
  const s = scheduled(ctx);
  return list(req, POD, t, podsIn(s, ctx.now()), listVersion(s), ctx.now());
};

export const getPod: Handler = (req, t, ctx) => getOne(req, POD, t, podsIn(scheduled(ctx), ctx.now()), ctx.now());

const replaced = (r: ClusterPod | undefined) =>
  r ? { replacement: { pod: podKey(r), ...(r.nodeName ? { node: r.nodeName } : {}) } } : {};

export const deletePod: Handler = (req, t, ctx) =>
  updateClusterState(ctx.stateFile, (s) => {
    const key = `${t.namespace}/${t.name}`;
    const pod = s.pods?.[key];
    if (!pod) return notFound(POD, t.name!);
    const o = podObject(s, pod, ctx.now());
    if (dryRun(req)) return written(POD, t, o);
    delete s.pods![key];
    const r = pod.owner ? replacePod(s, pod, new Date(ctx.now())) : undefined;
    appendEvents(ctx.stateFile, s, req.who, [{ kind: 'pod-deleted', pod: key, ...replaced(r) }]);
    return written(POD, t, o);
  });

/** An Eviction body names the pod it evicts; kube-apiserver refuses one naming another. */
function evictionBodyProblem(body: unknown, name: string, namespace: string): Reply | undefined {
  const b = body as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | undefined;
  if (b === undefined || typeof b !== 'object' || b === null) return badRequest('an Eviction body is required');
  if (b.kind !== undefined && b.kind !== 'Eviction') return badRequest(`a ${String(b.kind)} is not an Eviction`);
  if (b.metadata?.name !== undefined && b.metadata.name !== name)
    return badRequest(`name in URL does not match name in Eviction object`);
  if (b.metadata?.namespace !== undefined && b.metadata.namespace !== namespace)
    return badRequest('the namespace of the provided object does not match the namespace sent on the request');
  return undefined;
}

export const evictPod: Handler = (req, t, ctx) => {
  const problem = evictionBodyProblem(req.body, t.name!, t.namespace!);
  if (problem) return problem;
  const key = `${t.namespace}/${t.name}`;
  const decide = (s: ClusterState): Reply => {
    schedulePending(s, new Date(ctx.now()));
    const a = evict(s, key, new Date(ctx.now()));
    const events: NewEvent[] = [];
    let reply: Reply;
    if (a.code === 404) return notFound(POD, t.name!);
    if (a.code === 201) {
      events.push({ kind: 'eviction', pod: key, ...replaced(a.replacement) });
      reply = success(201);
    } else if (a.code === 429) {
      events.push({ kind: 'eviction-refused', pod: key, pdb: podKey(a.pdb), reason: a.cause });
      reply = tooManyRequests(a.message, a.cause);
    } else reply = bare(500, a.message);
    if (!dryRun(req)) appendEvents(ctx.stateFile, s, req.who, events);
    return reply;
  };
  if (dryRun(req)) return decide(structuredClone(stateOf(ctx)));
  return updateClusterState(ctx.stateFile, decide);
};
