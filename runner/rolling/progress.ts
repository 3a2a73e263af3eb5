// Where every host of a rolling run is, folded from the journal's events: pure. A resumed run starts
// each host from here; the report and `play rollouts show` print it.
import type { JournalEvent } from '../state/store.js';
import { PHASES, type Phase } from './model.js';

export type HostOutcome =
  | 'pending' // planned, not finished (not started, or cut short: see inFlight)
  | 'done' // every phase passed
  | 'ok' // needed nothing: never cordoned
  | 'waived' // its changes are waived (waivers.yml): never cordoned
  | 'failed';

export interface PhaseSpan {
  readonly phase: string;
  readonly startedAt: string;
  endedAt: string | null;
  detail: string | null;
}

export interface HostProgress {
  readonly host: string;
  batch: number | null;
  /** The last of the node phases that ended (null: none). */
  reached: Phase | null;
  /** A phase that began and did not end: the process died or was stopped in it. */
  inFlight: Phase | null;
  /** true: the run cordoned the node and uncordons it; false: it was cordoned before, never uncordon it. */
  ownsCordon: boolean | null;
  outcome: HostOutcome;
  reason: string | null;
  readonly phases: PhaseSpan[];
}

/** Events a run writes about a host (all through this module's constructors, so the fold reads them back). */
export const NO_WORK = 'no-work';
export const WAIVED = 'waived';

function fresh(host: string): HostProgress {
  return {
    host,
    batch: null,
    reached: null,
    inFlight: null,
    ownsCordon: null,
    outcome: 'pending',
    reason: null,
    phases: [],
  };
}

function applyEvent(p: HostProgress, e: JournalEvent): void {
  const phase = e.phase as Phase;
  const data = e.data ?? {};
  if (typeof data.batch === 'number') p.batch = data.batch;
  const open = [...p.phases].reverse().find((s) => s.phase === e.phase && s.endedAt === null);
  switch (e.state) {
    case 'begin':
      p.inFlight = PHASES.includes(phase) ? phase : null;
      p.phases.push({ phase: e.phase, startedAt: e.at, endedAt: null, detail: e.detail });
      if (phase === 'cordon' && typeof data.wasCordoned === 'boolean') p.ownsCordon = !data.wasCordoned;
      break;
    case 'end':
      if (open) {
        open.endedAt = e.at;
        open.detail = e.detail ?? open.detail;
      } else p.phases.push({ phase: e.phase, startedAt: e.at, endedAt: e.at, detail: e.detail });
      p.inFlight = null;
      // Only the node phases move a host on ('check' is a look, not a step of the cycle).
      if (PHASES.includes(phase)) p.reached = phase;
      if (phase === 'planned' && data[NO_WORK] === true) p.outcome = 'ok';
      if (phase === 'planned' && data[WAIVED] === true) {
        p.outcome = 'waived';
        p.reason = e.detail;
      }
      if (phase === 'done') p.outcome = 'done';
      if (phase === 'uncordon' && data.reset === true) {
        // Brought back to service before its tasks ran (an interrupt): it starts over when resumed.
        p.reached = 'planned';
        p.ownsCordon = null;
      }
      break;
    case 'fail':
      if (open) {
        open.endedAt = e.at;
        open.detail = e.detail;
      } else p.phases.push({ phase: e.phase, startedAt: e.at, endedAt: e.at, detail: e.detail });
      p.inFlight = null;
      p.outcome = 'failed';
      p.reason = e.detail;
      break;
    case 'note':
      p.phases.push({ phase: e.phase, startedAt: e.at, endedAt: e.at, detail: e.detail });
      break;
  }
}

/** Adds one event to the hosts' progress (a run keeps its map current as it records). */
export function foldEvent(hosts: Map<string, HostProgress>, e: JournalEvent): void {
  if (e.host === '') return;
  let p = hosts.get(e.host);
  if (!p) hosts.set(e.host, (p = fresh(e.host)));
  applyEvent(p, e);
}

/** Every host the run's events mention, in the order they first appear. */
export function hostProgress(events: readonly JournalEvent[]): Map<string, HostProgress> {
  const hosts = new Map<string, HostProgress>();
  for (const e of events) foldEvent(hosts, e);
  return hosts;
}

export const failedCount = (hosts: Iterable<HostProgress>): number =>
  [...hosts].filter((h) => h.outcome === 'failed').length;

/** Run-level notes (batch started, gate passed), in order. */
export function runNotes(events: readonly JournalEvent[]): JournalEvent[] {
  return events.filter((e) => e.host === '');
}
