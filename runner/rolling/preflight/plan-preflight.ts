// The preflight of a rolling plan, put together: every batch's drains simulated on the cluster as it is
// (read once through the Cluster interface), each node's verdict with its advice, and the run's time
// against the window from the journal's past cycles. `--check` prints it and carries it in its JSON; a
// real run asks, before each batch, which of the batch's nodes to refuse (batchBlocks). The reading is
// here; the deciding is in the pure modules beside it.
import { RemoteError, UnreachableError } from '../../core/errors.js';
import { redact } from '../../core/secret.js';
import { DRAIN_FLAGS, type ClusterOps } from '../cluster.js';
import { type CycleSample, estimateRun, windowOpenings } from '../estimate.js';
import type { RollingPolicy } from '../model.js';
import { parseWindow } from '../window.js';
import { blockedReason, nodeAdvice } from './advice.js';
import { type PlanNode, simulateDrains } from './drain-simulation.js';
import type { ClusterSnapshot } from './snapshot.js';
import { pastCycles } from './past-cycles.js';
import type { PlanPreflight } from './preflight-model.js';
import { preflightText } from './preflight-text.js';

export type { PlanPreflight } from './preflight-model.js';

export interface PreflightInput {
  readonly batches: readonly (readonly string[])[];
  readonly nodeName: (host: string) => string;
  readonly policy: RollingPolicy;
  readonly samples: readonly CycleSample[];
  readonly now: Date;
}

const planNodes = (hosts: readonly string[], nodeName: (h: string) => string): PlanNode[] =>
  hosts.map((host) => ({ host, node: nodeName(host) }));

/** The preflight of a plan on a snapshot (null: no cluster). Pure. */
export function preflightOf(snap: ClusterSnapshot | null, o: PreflightInput): PlanPreflight {
  const w = o.policy.window ? parseWindow(o.policy.window) : null;
  const time = estimateRun({
    batches: o.batches,
    samples: o.samples,
    soakSec: o.policy.soakSec,
    window: w ? { text: w.text, ...windowOpenings(w, o.now) } : null,
  });
  if (!snap) return { drains: null, time };
  const sim = simulateDrains(
    snap,
    o.batches.map((b) => planNodes(b, o.nodeName)),
    DRAIN_FLAGS,
  );
  const nodes = sim.nodes.map((d) => ({ ...d, ...nodeAdvice(d) }));
  return {
    drains: { room: sim.room, nodes, blocked: nodes.filter((d) => d.blocks.length > 0).map((d) => d.host) },
    time,
  };
}

/** A check's preflight: a control host or kubectl that fails costs the drains, not the plan (it says why). */
export async function planPreflight(cluster: ClusterOps | null, o: PreflightInput): Promise<PlanPreflight> {
  try {
    return preflightOf(cluster ? await cluster.snapshot() : null, o);
  } catch (e) {
    if (!(e instanceof RemoteError || e instanceof UnreachableError)) throw e;
    return { ...preflightOf(null, o), unread: redact(e.message) };
  }
}

/** Before a batch of a real run: its nodes whose drain would block now, with the reason to record. */
export async function batchBlocks(
  cluster: ClusterOps,
  hosts: readonly string[],
  nodeName: (host: string) => string,
): Promise<Map<string, string>> {
  if (hosts.length === 0) return new Map();
  const sim = simulateDrains(await cluster.snapshot(), [planNodes(hosts, nodeName)], DRAIN_FLAGS);
  return new Map(sim.nodes.filter((d) => d.blocks.length > 0).map((d) => [d.host, blockedReason(d)]));
}

/** `--check`'s preflight: the cluster read once, the journal's past cycles of the playbook, now. */
export async function checkPreflight(o: {
  readonly cluster: ClusterOps | null;
  readonly batches: readonly (readonly string[])[];
  readonly nodeName: (host: string) => string;
  readonly policy: RollingPolicy;
  readonly playbook: string;
  /** --state. */
  readonly state: string | undefined;
}): Promise<{ preflight: PlanPreflight; text: string }> {
  const samples = await pastCycles(o.state, o.playbook);
  const preflight = await planPreflight(o.cluster, { ...o, samples, now: new Date() });
  return { preflight, text: preflightText(preflight, o.playbook) };
}
