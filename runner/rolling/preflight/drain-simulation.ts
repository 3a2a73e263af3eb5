// The drains of a rolling run, simulated batch by batch on a snapshot of the cluster (snapshot.ts), to
// say before anything is cordoned which node's drain would block and why. Pure.
//
// A node's drain, as kubectl drain with play's flags (cluster.ts DRAIN_FLAGS) does it:
// - DaemonSet pods are left (--ignore-daemonsets), mirror pods of static pods always; finished pods
//   (Succeeded, Failed) are deleted whatever their owner, under no budget;
// - kubectl refuses the whole node, evicting nothing, for a pod without a controller (no --force) or a
//   pod with emptyDir data (without --delete-emptydir-data), or a DaemonSet pod without --ignore-daemonsets;
// - every other pod goes through the Eviction API: a pod under two budgets is refused (500), and a pod
//   under one is evicted only while the budget allows a disruption, else kubectl retries until its timeout.
// Budgets: the snapshot's disruptionsAllowed is spent by each eviction of a Ready pod by the nodes of a
// batch, in batch order (they drain at once; the nodes before a node in the batch are taken to spend it
// first), and comes back only once the batch's nodes are back and the evicted pods run again elsewhere:
// between batches, and never for a pod whose replacement found no room (room.ts), which stays Pending.
// A node predicted to block is not drained at all (the run refuses it: it evicts nothing here either).
import { selectorMatches } from '../blocking.js';
import { placeReplacement, type RoomMode, roomMode } from './room.js';
import type { ClusterSnapshot, SnapshotBudget, SnapshotPod } from './snapshot.js';

export interface DrainFlags {
  readonly ignoreDaemonSets: boolean;
  readonly deleteEmptyDirData: boolean;
  readonly force: boolean;
}

export type DrainBlock =
  | {
      readonly kind: 'budget';
      readonly pod: string;
      readonly budget: string;
      /** The budget when this node's turn comes: disruptions it allows, healthy pods, healthy pods required. */
      readonly allows: number;
      readonly healthy: number;
      readonly required: number;
      /** What it allowed when the batch began (before the batch's earlier nodes spent it). */
      readonly allowedAtBatchStart: number;
      /** Earlier nodes of the same batch that spent it. */
      readonly spentBy: readonly string[];
    }
  | { readonly kind: 'budgets'; readonly pod: string; readonly budgets: readonly string[] }
  | { readonly kind: 'bare' | 'emptyDir' | 'daemonSet'; readonly pod: string };

/** A replacement with no node to go to: Pending after the drain. */
export interface PendingPod {
  readonly pod: string;
  readonly why: string;
}

export interface NodeDrain {
  readonly host: string;
  readonly node: string;
  /** 1-based. */
  readonly batch: number;
  /** Pods its drain evicts (none when it blocks). */
  readonly evicts: readonly string[];
  /** Why its drain would block; empty: it passes. */
  readonly blocks: readonly DrainBlock[];
  readonly pending: readonly PendingPod[];
}

export interface DrainSimulation {
  readonly room: RoomMode;
  readonly nodes: readonly NodeDrain[];
}

export interface PlanNode {
  readonly host: string;
  /** Its Kubernetes node name. */
  readonly node: string;
}

/** A budget's spending through the run: `used` this batch (by whom), `lost` for good (Pending pods). */
interface BudgetUse {
  readonly b: SnapshotBudget;
  used: number;
  lost: number;
  spentBy: string[];
}

const allows = (u: BudgetUse, extra = 0) => Math.max(0, u.b.disruptionsAllowed - u.lost - u.used - extra);

type PodFate = 'leave' | 'delete' | 'evict' | 'bare' | 'emptyDir' | 'daemonSet';

function podFate(p: SnapshotPod, flags: DrainFlags): PodFate {
  if (p.mirror) return 'leave';
  if (p.finished) return 'delete';
  if (p.controller?.kind === 'DaemonSet') return flags.ignoreDaemonSets ? 'leave' : 'daemonSet';
  if (p.controller === null && !flags.force) return 'bare';
  if (p.emptyDir && !flags.deleteEmptyDirData) return 'emptyDir';
  return 'evict';
}

class ClusterModel {
  /** Where each pod is now (null: Pending); a pod deleted for good is removed. */
  readonly at = new Map<string, string | null>();
  readonly budgets: Map<string, BudgetUse>;

  constructor(readonly snap: ClusterSnapshot) {
    for (const p of snap.pods) this.at.set(p.key, p.node);
    this.budgets = new Map(snap.budgets.map((b) => [b.key, { b, used: 0, lost: 0, spentBy: [] }]));
  }

  podsOn(node: string): SnapshotPod[] {
    return this.snap.pods.filter((p) => this.at.get(p.key) === node);
  }

  covering(p: SnapshotPod): BudgetUse[] {
    return [...this.budgets.values()].filter(
      (u) => u.b.namespace === p.namespace && selectorMatches(u.b.selector, p.labels),
    );
  }

  load(): Map<string, number> {
    const load = new Map<string, number>();
    for (const node of this.at.values()) if (node !== null) load.set(node, (load.get(node) ?? 0) + 1);
    return load;
  }

  endBatch(): void {
    for (const u of this.budgets.values()) {
      u.used = 0;
      u.spentBy = [];
    }
  }
}

/** One node's turn: what would block it (nothing spent then), else the budgets it spends. */
function drainNode(m: ClusterModel, n: PlanNode, flags: DrainFlags): { blocks: DrainBlock[]; evict: SnapshotPod[] } {
  const blocks: DrainBlock[] = [];
  const evict: SnapshotPod[] = [];
  const spend = new Map<BudgetUse, number>();
  for (const p of m.podsOn(n.node)) {
    const fate = podFate(p, flags);
    if (fate === 'leave') continue;
    if (fate === 'delete') {
      evict.push(p);
      continue;
    }
    if (fate !== 'evict') {
      blocks.push({ kind: fate, pod: p.key });
      continue;
    }
    const cover = m.covering(p);
    if (cover.length > 1) blocks.push({ kind: 'budgets', pod: p.key, budgets: cover.map((u) => u.b.key) });
    const u = cover.length === 1 ? cover[0]! : null;
    if (u && allows(u, spend.get(u) ?? 0) <= 0) {
      const healthy = u.b.currentHealthy - u.lost - u.used - (spend.get(u) ?? 0);
      const atStart = Math.max(0, u.b.disruptionsAllowed - u.lost);
      blocks.push({
        kind: 'budget',
        pod: p.key,
        budget: u.b.key,
        allows: 0,
        healthy,
        required: u.b.desiredHealthy,
        allowedAtBatchStart: atStart,
        spentBy: [...u.spentBy],
      });
    } else if (u && p.ready) spend.set(u, (spend.get(u) ?? 0) + 1);
    evict.push(p);
  }
  if (blocks.length > 0) return { blocks, evict: [] };
  for (const [u, k] of spend) {
    u.used += k;
    if (!u.spentBy.includes(n.node)) u.spentBy.push(n.node);
  }
  return { blocks, evict };
}

/** The evicted pods' replacements placed, the batch's drained nodes away; a Pending one is lost to its budget. */
function placeEvicted(m: ClusterModel, drained: ReadonlySet<string>, evicted: readonly SnapshotPod[]): PendingPod[] {
  const pending: PendingPod[] = [];
  for (const p of evicted) {
    if (p.finished || p.controller === null) {
      m.at.delete(p.key);
      continue;
    }
    const to = placeReplacement(p, m.snap.nodes, drained, m.load());
    m.at.set(p.key, to.node);
    if (to.node !== null) continue;
    pending.push({ pod: p.key, why: to.why });
    if (p.ready) for (const u of m.covering(p)) u.lost++;
  }
  return pending;
}

/** Every batch's drains, in order, on the cluster as the snapshot has it. */
export function simulateDrains(
  snap: ClusterSnapshot,
  batches: readonly (readonly PlanNode[])[],
  flags: DrainFlags,
): DrainSimulation {
  const m = new ClusterModel(snap);
  const out: NodeDrain[] = [];
  for (const [i, batch] of batches.entries()) {
    const turns = batch.map((n) => ({ n, ...drainNode(m, n, flags) }));
    const drained = new Set(turns.filter((t) => t.blocks.length === 0).map((t) => t.n.node));
    for (const t of turns) {
      const pending = placeEvicted(m, drained, t.evict);
      out.push({
        host: t.n.host,
        node: t.n.node,
        batch: i + 1,
        evicts: t.evict.map((p) => p.key),
        blocks: t.blocks,
        pending,
      });
    }
    m.endBatch();
  }
  return { room: roomMode(snap.nodes), nodes: out };
}
