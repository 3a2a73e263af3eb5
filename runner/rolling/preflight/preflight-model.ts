// What a rolling plan's preflight found: the simulated drains with each node's advice, and the run's
// time against the window. Its own module so that the planner (plan-preflight.ts) and its text
// (preflight-text.ts) both name it without importing each other.
import type { RunEstimate } from '../estimate.js';
import type { NodeAdvice } from './advice.js';
import type { NodeDrain } from './drain-simulation.js';
import type { RoomMode } from './room.js';

export interface PlanPreflight {
  /** null: a run without a cluster (--serial only): no drains to simulate. */
  readonly drains: {
    readonly room: RoomMode;
    readonly nodes: readonly (NodeDrain & NodeAdvice)[];
    /** Hosts whose drain would block: a run refuses them unless --try-blocked. */
    readonly blocked: readonly string[];
  } | null;
  readonly time: RunEstimate;
  /** Why the cluster could not be read for a check (the plan goes on without the drains); absent: it was. */
  readonly unread?: string;
}
