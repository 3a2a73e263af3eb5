// A counting semaphore with FIFO waiters, on p-queue (a slot is a queued job that lasts until it is
// released). Used for the channels of one connection (sshd's MaxSessions), whose slot is given back
// when the channel closes rather than when a function returns, and for handshakes (sshd's
// MaxStartups), where fairness keeps one busy caller from starving the others.
import PQueue from 'p-queue';

export type Release = () => void;

export class Semaphore {
  readonly #queue: PQueue;
  #peak = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`semaphore limit must be a positive integer, got ${limit}`);
    this.#queue = new PQueue({ concurrency: limit });
  }

  get active(): number {
    return this.#queue.pending;
  }
  /** The most slots ever held at once: tests and benchmarks read it. */
  get peak(): number {
    return this.#peak;
  }
  get waiting(): number {
    return this.#queue.size;
  }
  get idle(): boolean {
    return this.#queue.pending === 0 && this.#queue.size === 0;
  }

  /** Resolves with a release function once a slot is free; release is idempotent. */
  acquire(): Promise<Release> {
    return new Promise((granted) => {
      void this.#queue.add(
        () =>
          new Promise<void>((release) => {
            this.#peak = Math.max(this.#peak, this.#queue.pending);
            granted(release);
          }),
      );
    });
  }
}
