// Which kept connections to close (pure): the policy of kept-pool.ts, whose connections outlive one
// run of a schedule. Memory stays bounded two ways: a host no run used for `idleTicks` ticks is closed
// when the next tick starts (it left the inventory or the --limit), and the open connections never
// exceed `cap`: before a new one opens, the least recently used idle ones are closed first. A
// connection a run is using now is never closed, so a run wider than the cap briefly holds more.

export interface KeptEntry {
  readonly host: string;
  /** Order of last use: higher is more recent (a counter, not a clock, so ties cannot happen). */
  readonly lastUse: number;
  /** The tick (run of the schedule) that last used it. */
  readonly lastTick: number;
  /** A run holds it now (between its first command and the run's release of the host). */
  readonly inUse: boolean;
}

export interface KeepLimits {
  /** Open connections at most; 0 keeps none between runs. */
  readonly cap: number;
  /** Ticks a connection may go unused before it is closed. */
  readonly idleTicks: number;
}

/** Hosts to close as tick `tick` starts: those no run used in the last `idleTicks` ticks. */
export function idleToClose(entries: readonly KeptEntry[], tick: number, limits: KeepLimits): string[] {
  return entries.filter((e) => !e.inUse && tick - e.lastTick > limits.idleTicks).map((e) => e.host);
}

/** Hosts to close so that `adding` more connections fit under the cap: least recently used first, never one in use. */
export function overCapToClose(entries: readonly KeptEntry[], adding: number, limits: KeepLimits): string[] {
  const excess = entries.length + adding - limits.cap;
  if (excess <= 0) return [];
  return entries
    .filter((e) => !e.inUse)
    .sort((a, b) => a.lastUse - b.lastUse)
    .slice(0, excess)
    .map((e) => e.host);
}
