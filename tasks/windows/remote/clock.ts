// Time for the steps that wait (reboot, a network change that drops the connection): injectable,
// so tests can run a wait of minutes in no time.

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: Clock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms))),
});
