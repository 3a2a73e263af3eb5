// Limits new SSH handshakes and retries the ones sshd dropped. Why: sshd's MaxStartups 10:30:100
// starts dropping unauthenticated connections to one sshd beyond 10 (the lab saw 4-9 of 30 dropped),
// and each handshake costs client CPU (key exchange). So at most `perEndpoint` run to one
// address:port, at most `global` at once in all (a run sets it to its forks: MaxStartups is each
// sshd's own, and a handshake is most of a fresh host's round trips, so fewer slots than forks would
// leave forks waiting on the network's latency), and a dropped one is retried after an exponential
// backoff with jitter. Slots are held only while an attempt runs, never while backing off.
import pRetry from 'p-retry';
import { HandshakeError } from './errors.js';
import { Semaphore } from './semaphore.js';

export interface ThrottleOptions {
  /** Handshakes in flight at once, all hosts together (default 10; a run's pool: its forks). */
  global?: number;
  /** Handshakes in flight to one address:port (default 2). */
  perEndpoint?: number;
  /** Attempts for a transient failure, the first included (default 5). */
  attempts?: number;
  /** First backoff; doubles each retry (default 100 ms). */
  baseDelayMs?: number;
  /** Cap on one backoff (default 3 s). */
  maxDelayMs?: number;
  /** For tests: replaces Math.random in the jitter. */
  random?: () => number;
}

/**
 * How many attempts a failure deserves. Dropped/reset handshakes are what MaxStartups and a busy
 * sshd produce: retried. A refused port is usually final, but a restarting sshd refuses for a
 * moment, so it gets 3 attempts. Authentication, host keys, timeouts (readyTimeout already
 * waited), unreachable addresses and our own configuration are never retried.
 */
export function attemptsFor(error: unknown, transientAttempts: number): number {
  if (!(error instanceof HandshakeError)) return 1;
  switch (error.failure) {
    case 'dropped':
      return transientAttempts;
    case 'refused':
      return Math.min(3, transientAttempts);
    default:
      return 1;
  }
}

export class HandshakeThrottle {
  readonly global: Semaphore;
  readonly #perEndpoint = new Map<string, Semaphore>();
  readonly #endpointLimit: number;
  readonly #attempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;
  /** Retries made so far, all endpoints together. */
  retries = 0;
  #peakPerEndpoint = 0;

  constructor(options: ThrottleOptions = {}) {
    this.global = new Semaphore(options.global ?? 10);
    this.#endpointLimit = options.perEndpoint ?? 2;
    this.#attempts = Math.max(1, options.attempts ?? 5);
    this.#baseDelayMs = options.baseDelayMs ?? 100;
    this.#maxDelayMs = options.maxDelayMs ?? 3000;
    this.#random = options.random ?? Math.random;
  }

  /** Most handshakes seen in flight to one endpoint. */
  get peakPerEndpoint(): number {
    return this.#peakPerEndpoint;
  }

  /** Delay before retry number `retry` (1-based): base * 2^(retry-1), jittered to 50-100 %. */
  backoffMs(retry: number): number {
    const full = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (retry - 1));
    return Math.round(full * (0.5 + this.#random() * 0.5));
  }

  /** Runs `attempt` under both limits, retrying as attemptsFor() allows. */
  async run<T>(endpoint: string, attempt: (n: number) => Promise<T>): Promise<T> {
    const retrying = (error: Error, n: number) => n < attemptsFor(error, this.#attempts);
    let made = 0;
    try {
      return await pRetry((n) => this.#once(endpoint, n, attempt).finally(() => (made = n)), {
        retries: this.#attempts - 1,
        // The waits are backoffMs' (its jitter takes the injected random), slept with no slot held.
        minTimeout: 0,
        shouldRetry: ({ error, attemptNumber }) => retrying(error, attemptNumber),
        onFailedAttempt: async ({ error, attemptNumber }) => {
          if (!retrying(error, attemptNumber)) return;
          this.retries++;
          await new Promise((resolve) => setTimeout(resolve, this.backoffMs(attemptNumber)));
        },
      });
    } catch (error) {
      throw error instanceof HandshakeError ? error.withAttempts(made) : error;
    }
  }

  /** One attempt, holding a slot of its endpoint and a global one. */
  async #once<T>(endpoint: string, n: number, attempt: (n: number) => Promise<T>): Promise<T> {
    // Endpoint slot first: a caller queued behind its own host must not hold a global slot.
    const releaseEndpoint = await this.#endpoint(endpoint).acquire();
    const releaseGlobal = await this.global.acquire();
    try {
      return await attempt(n);
    } finally {
      releaseGlobal();
      releaseEndpoint();
      this.#forget(endpoint);
    }
  }

  #endpoint(endpoint: string): Semaphore {
    let s = this.#perEndpoint.get(endpoint);
    if (!s) this.#perEndpoint.set(endpoint, (s = new Semaphore(this.#endpointLimit)));
    return s;
  }

  #forget(endpoint: string): void {
    const s = this.#perEndpoint.get(endpoint);
    if (!s) return;
    this.#peakPerEndpoint = Math.max(this.#peakPerEndpoint, s.peak);
    if (s.idle) this.#perEndpoint.delete(endpoint);
  }
}
