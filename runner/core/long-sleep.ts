// Waiting any length of time. Node's setTimeout takes at most 2^31-1 ms (24.8 days): a longer delay
// fires at once, with a TimeoutOverflowWarning. So a long wait is a chain of short timers, each one
// re-reading the wall clock for what is left. Short ones also because Node's timers count only time
// the machine is awake: after a laptop's suspend a timer runs late by up to its own length, so a
// minute-long chunk means a wait that fell due while asleep ends within a minute of waking.
// The clock and the timer functions are injectable, so tests simulate a year without waiting.

/** What play accepts for a step's time limit (--timeout), --soak, --drain-timeout and --ready-timeout. */
export const MAX_WAIT_SEC = 7 * 86_400;
/** The longest `play drift --every` interval (a cron schedule waits as long as its next match). */
export const MAX_INTERVAL_MS = 365 * 86_400_000;

/** Node's largest timer delay: 2^31-1 ms. */
const NODE_MAX_DELAY_MS = 2 ** 31 - 1;
/** How long one timer of a wait lasts at most (see above: a wait ends at most this late after a suspend). */
export const CHUNK_MS = 60_000;

/** The clock a wait reads and the timers it sets. */
export interface WaitClock {
  /** Milliseconds since the epoch, as Date.now. */
  now(): number;
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
  /** The longest single timer (default CHUNK_MS, never above Node's limit). */
  chunkMs?: number;
}

export const SYSTEM_CLOCK: WaitClock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => setTimeout(fire, ms),
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Calls `fire` once the clock reaches `deadline` (ms since the epoch), never synchronously; returns
 * a function that cancels it. A deadline already past fires on the next timer.
 */
export function timerUntil(deadline: number, fire: () => void, clock: WaitClock = SYSTEM_CLOCK): () => void {
  if (Number.isNaN(deadline)) throw new RangeError('a wait needs a deadline, got NaN');
  const chunk = Math.min(clock.chunkMs ?? CHUNK_MS, NODE_MAX_DELAY_MS);
  let handle: unknown;
  let cancelled = false;
  const schedule = () => {
    const left = deadline - clock.now();
    handle = clock.setTimer(tick, Math.max(0, Math.min(left, chunk)));
  };
  const tick = () => {
    if (cancelled) return;
    if (deadline - clock.now() > 0) return schedule();
    cancelled = true;
    fire();
  };
  schedule();
  return () => {
    if (cancelled) return;
    cancelled = true;
    clock.clearTimer(handle);
  };
}

/** setTimeout for any delay: `fire` after `ms`; returns a function that cancels it. */
export function longTimeout(fire: () => void, ms: number, clock: WaitClock = SYSTEM_CLOCK): () => void {
  return timerUntil(clock.now() + ms, fire, clock);
}

/**
 * Resolves at `deadline` (ms since the epoch), or as soon as `signal` aborts: it never rejects, so a
 * caller that must tell the two apart reads `signal.aborted`.
 */
export function sleepUntil(deadline: number, signal?: AbortSignal, clock: WaitClock = SYSTEM_CLOCK): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      cancel();
      resolve();
    };
    const cancel = timerUntil(
      deadline,
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      clock,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves after `ms`, or as soon as `signal` aborts (never rejects). The shape of a `sleep` dependency. */
export function sleepFor(ms: number, signal?: AbortSignal, clock: WaitClock = SYSTEM_CLOCK): Promise<void> {
  return sleepUntil(clock.now() + ms, signal, clock);
}
