// What every handler of the API double (lab/cluster/api/, a TEST DOUBLE) works with: the cluster's
// state file, the clock, and the kubectl drain sessions already seen (a drain is logged once, at its
// first request on the node: the server sees a drain only as requests sharing a Kubectl-Session).
import { type ClusterState, readClusterState } from '../cluster-state.js';
import type { ApiRequest, Target } from './request.js';
import type { Reply } from './status.js';

export interface ApiContext {
  readonly stateFile: string;
  now(): number;
  /** `SESSION/NODE` of the drains already logged (Kubectl-Session ids). */
  readonly drainSessions: Set<string>;
}

export type Handler = (req: ApiRequest, t: Target, ctx: ApiContext) => Reply;

/** The state; a server whose state file is gone has no cluster behind it (503, as an API server
 *  whose etcd is gone). */
export function stateOf(ctx: ApiContext): ClusterState {
  const s = readClusterState(ctx.stateFile);
  if (!s) throw new NoClusterError(`${ctx.stateFile}: no cluster state`);
  return s;
}

export class NoClusterError extends Error {}

/** `?dryRun=All`: validate and answer, store nothing. */
export const dryRun = (req: ApiRequest) => req.query.getAll('dryRun').includes('All');

/** True the first time a kubectl drain session reads `node` (one kubectl drain may name several). */
export function newDrainSession(req: ApiRequest, ctx: ApiContext, node: string): boolean {
  const { command, session } = req.who;
  const key = `${session}/${node}`;
  if (command !== 'kubectl drain' || session === undefined || ctx.drainSessions.has(key)) return false;
  ctx.drainSessions.add(key);
  // A long-lived server sees many drains: forget the oldest (a session lasts one kubectl run).
  if (ctx.drainSessions.size > 1000) ctx.drainSessions.delete(ctx.drainSessions.values().next().value!);
  return true;
}
