// How long a rolling run will take, and whether it fits its maintenance window. Pure.
// - A node's cycle (check, cordon, drain, tasks and reboot, Ready, uncordon) takes what it took in past
//   runs of the same playbook (the journal's phase spans, summed, so a resumed node counts its work and
//   not the pause): the median of that host's own cycles, else the median of every host's, else 15 min
//   when the journal has none (a Windows hotfix: a drain of a minute or two, DISM and a reboot of about
//   ten, Ready a few minutes later).
// - A batch takes its slowest node's cycle (its nodes go at once) plus the soak after it.
// - Windows: a batch starts only while the window is open and a batch under way finishes after it
//   closes, so batches are laid end to end from an opening and a new window is needed whenever one
//   would start at or after the close. The whole run fits when it ends by the close of one window.
import type { JournalEvent } from '../state/store.js';
import { closesAt, type MaintenanceWindow, nextOpening } from './window.js';
import { hostProgress } from './progress.js';

export const DEFAULT_CYCLE_SEC = 900;
const CYCLE_PHASES = new Set(['check', 'cordon', 'drain', 'apply', 'ready', 'uncordon']);

export interface CycleSample {
  readonly host: string;
  readonly sec: number;
}

export interface BatchEstimate {
  /** 1-based. */
  readonly batch: number;
  readonly hosts: readonly string[];
  readonly sec: number;
}

export interface WindowFit {
  readonly window: string;
  /** What the run has of its first opening (from its start), and how long a later one lasts. */
  readonly firstSec: number;
  readonly openSec: number;
  readonly fits: boolean;
  readonly windowsNeeded: number;
}

export interface RunEstimate {
  /** 'history': from `samples` past node cycles; 'default': none in the journal, DEFAULT_CYCLE_SEC a node. */
  readonly basis: 'history' | 'default';
  readonly samples: number;
  readonly batches: readonly BatchEstimate[];
  readonly totalSec: number;
  readonly window: WindowFit | null;
}

const seconds = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 1000;

/** The cycles of the nodes a past run finished (done), from its journal. */
export function cycleSamples(events: readonly JournalEvent[]): CycleSample[] {
  return [...hostProgress(events).values()]
    .filter((p) => p.outcome === 'done')
    .map((p) => ({
      host: p.host,
      sec: p.phases
        .filter((s) => CYCLE_PHASES.has(s.phase) && s.endedAt !== null)
        .reduce((sum, s) => sum + seconds(s.startedAt, s.endedAt!), 0),
    }))
    .filter((c) => c.sec > 0);
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Windows needed when batches of these lengths start only before a close: the first opening lasts
 * `firstSec` (what is left of it when the run starts), every later one `openSec`.
 */
export function windowsNeeded(batchSecs: readonly number[], firstSec: number, openSec: number): number {
  let windows = 1;
  let t = 0;
  let close = firstSec;
  for (const sec of batchSecs) {
    if (t >= close) {
      windows++;
      t = 0;
      close = openSec;
    }
    t += sec;
  }
  return windows;
}

/**
 * A run started at `now`: how long it has in its first opening (the one open now, from now; else the
 * next, whole) and how long the opening after that lasts.
 */
export function windowOpenings(w: MaintenanceWindow, now: Date): { firstSec: number; openSec: number } {
  const start = nextOpening(w, now);
  const close = closesAt(w, start)!;
  const next = nextOpening(w, close);
  return {
    firstSec: (close.getTime() - start.getTime()) / 1000,
    openSec: (closesAt(w, next)!.getTime() - next.getTime()) / 1000,
  };
}

export function estimateRun(o: {
  readonly batches: readonly (readonly string[])[];
  readonly samples: readonly CycleSample[];
  readonly soakSec: number;
  readonly window: { readonly text: string; readonly firstSec: number; readonly openSec: number } | null;
}): RunEstimate {
  const all = median(o.samples.map((s) => s.sec));
  const cycleOf = (h: string) =>
    median(o.samples.filter((s) => s.host === h).map((s) => s.sec)) ?? all ?? DEFAULT_CYCLE_SEC;
  const batches = o.batches.map((hosts, i) => ({
    batch: i + 1,
    hosts,
    sec: Math.round(Math.max(0, ...hosts.map(cycleOf)) + o.soakSec),
  }));
  const totalSec = batches.reduce((s, b) => s + b.sec, 0);
  const window = o.window
    ? {
        window: o.window.text,
        firstSec: o.window.firstSec,
        openSec: o.window.openSec,
        fits: totalSec <= o.window.firstSec,
        windowsNeeded: windowsNeeded(
          batches.map((b) => b.sec),
          o.window.firstSec,
          o.window.openSec,
        ),
      }
    : null;
  return { basis: all === null ? 'default' : 'history', samples: o.samples.length, batches, totalSec, window };
}

/** 45s, 15m, 1h 05m, 2d 3h. */
export function durationText(sec: number): string {
  const s = Math.round(sec);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${String(m % 60).padStart(2, '0')}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}
