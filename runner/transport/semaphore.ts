// A counting semaphore with FIFO waiters. Used for the channels of one connection (sshd's
// MaxSessions) and for handshakes (sshd's MaxStartups), where fairness keeps one busy caller from
// starving the others.

export type Release = () => void;

export class Semaphore {
  #active = 0;
  #peak = 0;
  readonly #waiters: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`semaphore limit must be a positive integer, got ${limit}`);
  }

  get active(): number {
    return this.#active;
  }
  /** The most slots ever held at once: tests and benchmarks read it. */
  get peak(): number {
    return this.#peak;
  }
  get waiting(): number {
    return this.#waiters.length;
  }
  get idle(): boolean {
    return this.#active === 0 && this.#waiters.length === 0;
  }

  /** Resolves with a release function once a slot is free; release is idempotent. */
  async acquire(): Promise<Release> {
    if (this.#active >= this.limit) await new Promise<void>((resolve) => this.#waiters.push(resolve));
    else this.#active++;
    this.#peak = Math.max(this.#peak, this.#active);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      // The slot passes straight to the next waiter, so #active never dips and overshoots.
      if (next) next();
      else this.#active--;
    };
  }
}
