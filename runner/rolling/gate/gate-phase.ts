// The gate as a phase of a node's cycle (node-cycle.ts), after Ready and before uncordon, recorded
// begin and end like every phase: a controller that dies during it resumes at it (the gate only
// looks, so looking again is safe). A node that does not pass within the gate's time is failed with
// what the last look found, and left cordoned (it serves nothing until an operator has looked), which
// counts against the failure budget like any failed node.
import type { GateVerdict } from './model.js';
import type { NodeGate } from './look.js';

export interface GatePhaseDeps {
  readonly gate?: NodeGate | null;
  record(host: string, phase: string, state: 'begin' | 'end' | 'fail', detail?: string): Promise<void>;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Polling period (default 5 s: a look is a round trip to the node and to each ToR host). */
  readonly gatePollMs?: number;
}

/** Looks until the gate passes or its time is up; the last look's verdict. */
export async function awaitGate(gate: NodeGate, host: string, deps: GatePhaseDeps): Promise<GateVerdict> {
  const deadline = deps.now() + gate.withinSec * 1000;
  for (;;) {
    const verdict = await gate.look(host);
    if (verdict.pass || deps.now() >= deadline) return verdict;
    await deps.sleep(Math.min(deps.gatePollMs ?? 5000, Math.max(0, deadline - deps.now())));
  }
}

/** Runs the gate phase; false when the node failed it (recorded, left cordoned). */
export async function gatePhase(host: string, deps: GatePhaseDeps): Promise<boolean> {
  const gate = deps.gate;
  if (!gate) return true;
  await deps.record(host, 'gate', 'begin');
  const verdict = await awaitGate(gate, host, deps);
  if (!verdict.pass) {
    const within = gate.withinSec > 0 ? ` (still after ${gate.withinSec}s)` : '';
    await deps.record(host, 'gate', 'fail', `${verdict.message}${within}; left cordoned`);
    return false;
  }
  await deps.record(host, 'gate', 'end', verdict.message);
  return true;
}
