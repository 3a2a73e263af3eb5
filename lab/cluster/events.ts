// The simulated cluster's event log (lab/cluster/, a TEST DOUBLE): every cordon, uncordon, eviction and
// eviction refusal, and each drain's outcome, with the time and the kubectl invocation that did it, so a
// test can assert what a rolling run did to the cluster ("never more than N nodes cordoned at once").
// One JSON object a line in a sibling of the state file (cluster-state.events.jsonl), appended by the
// writer that holds the state's lock, so lines are in the order the changes happened.
import { appendFileSync, readFileSync } from 'node:fs';
import type { ClusterState } from './cluster-state.js';

export interface EventActor {
  /** The kubectl invocation: ['kubectl', 'drain', 'node009', ...]. */
  argv: string[];
  pid: number;
  /** The SSH client's address when run over SSH (SSH_CONNECTION): the controller that ran it. */
  from?: string;
}

export interface ClusterEvent {
  /** 1, 2, ... in file order. */
  seq: number;
  at: string;
  who: EventActor;
  kind: 'cordon' | 'uncordon' | 'eviction' | 'eviction-refused' | 'drain';
  node?: string;
  /** cordon/uncordon: false when the node already was. */
  changed?: boolean;
  /** `namespace/name`. */
  pod?: string;
  /** eviction-refused: the budget (`namespace/name`) and the API's answer. */
  pdb?: string;
  reason?: string;
  /** eviction of a ReplicaSet's pod: its replacement, and where it went (no node: Pending). */
  replacement?: { pod: string; node?: string };
  /** drain: its outcome; failed with kubectl's last error line. */
  outcome?: 'drained' | 'failed';
  error?: string;
  /** Seconds into the drain on its own clock (its 5 s retries are not waited for in real time). */
  drainSeconds?: number;
  /** The cordoned nodes right after the event. */
  cordoned: string[];
}

export type NewEvent = Omit<ClusterEvent, 'seq' | 'at' | 'who' | 'cordoned'>;

export const eventsFile = (stateFile: string) => `${stateFile.replace(/\.json$/, '')}.events.jsonl`;

export function actor(args: readonly string[]): EventActor {
  const from = process.env.SSH_CONNECTION?.split(' ')[0];
  return { argv: ['kubectl', ...args], pid: process.pid, ...(from ? { from } : {}) };
}

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
