// The simulated cluster's event log (lab/cluster/, a TEST DOUBLE): what clients did to the cluster, as the
// API double (lab/cluster/api/) saw it: every cordon and uncordon that changed a node, every eviction and
// eviction refusal, pod and node deletions, and the start of each `kubectl drain` (its first request on
// the node), with the time and the client, so a test can assert what a rolling run did to the cluster
// ("never more than N nodes cordoned at once", "no node drained twice"). A drain's outcome is the
// client's to know: the server sees only its requests. One JSON object a line in a sibling of the state
// file (cluster-state.events.jsonl), appended by the writer that holds the state's lock, so lines are
// in the order the changes happened.
import { appendFileSync, readFileSync } from 'node:fs';
import type { ClusterState } from './cluster-state.js';

/** The client of a request, from what it sent. */
export interface EventActor {
  /** The client's address as the API double saw it (control1's, for the lab's kubectl). */
  from?: string;
  /** The User-Agent: `kubectl/v1.32.4 (linux/amd64) kubernetes/4cb5f07`. */
  agent?: string;
  /** kubectl's Kubectl-Command header (kubectl 1.22 and later): `kubectl drain`. */
  command?: string;
  /** kubectl's Kubectl-Session header: one id per kubectl invocation. */
  session?: string;
}

export interface ClusterEvent {
  /** 1, 2, ... in file order. */
  seq: number;
  at: string;
  who: EventActor;
  kind: 'cordon' | 'uncordon' | 'eviction' | 'eviction-refused' | 'drain' | 'pod-deleted' | 'node-deleted';
  node?: string;
  /** `namespace/name`. */
  pod?: string;
  /** eviction-refused: the budget (`namespace/name`) and the API's answer. */
  pdb?: string;
  reason?: string;
  /** eviction or deletion of a ReplicaSet's pod: its replacement, and where it went (no node: Pending). */
  replacement?: { pod: string; node?: string };
  /** The cordoned nodes right after the event. */
  cordoned: string[];
}

export type NewEvent = Omit<ClusterEvent, 'seq' | 'at' | 'who' | 'cordoned'>;

export const eventsFile = (stateFile: string) => `${stateFile.replace(/\.json$/, '')}.events.jsonl`;

export function readClusterEvents(stateFile: string): ClusterEvent[] {
  let text: string;
  try {
    text = readFileSync(eventsFile(stateFile), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ClusterEvent);
}

export const cordonedNodes = (s: ClusterState) =>
  Object.values(s.nodes)
    .filter((n) => n.unschedulable)
    .map((n) => n.name)
    .sort();

/** Appends events; call it while holding the state's lock (inside updateClusterState), after the change. */
export function appendEvents(stateFile: string, s: ClusterState, who: EventActor, events: readonly NewEvent[]): void {
  if (events.length === 0) return;
  let seq = readClusterEvents(stateFile).length;
  const at = new Date().toISOString();
  const cordoned = cordonedNodes(s);
  const lines = events.map((e) => `${JSON.stringify({ seq: ++seq, at, who, ...e, cordoned })}\n`);
  appendFileSync(eventsFile(stateFile), lines.join(''), { mode: 0o644 });
}

/** The most nodes ever cordoned at once in the log, and the first moment it happened. */
export function maxCordoned(events: readonly ClusterEvent[]): { count: number; nodes: string[]; seq?: number } {
  let best: { count: number; nodes: string[]; seq?: number } = { count: 0, nodes: [] };
  for (const e of events)
    if (e.cordoned.length > best.count) best = { count: e.cordoned.length, nodes: e.cordoned, seq: e.seq };
  return best;
}
