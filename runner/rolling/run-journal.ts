// One rolling run's side of the journal: every record goes under the run's lease (so a controller that
// lost it writes nothing), the lease is renewed by a heartbeat, and the first write that fails (the
// store's error, or the lease taken by another controller) stops the run: it aborts the run's stop
// signal, so every node in flight goes to a safe point as on Ctrl-C, and is kept to be reported.
import { PlayError } from '../core/errors.js';
import type { RolloutStatus } from './model.js';
import { JournalWriteError } from './journal-write-error.js';
import { type Lease, LeaseLostError } from '../state/lease.js';
import type { JournalEvent, RolloutJournal } from '../state/store.js';

export class RunJournal {
  #lease: Lease;
  #heartbeat: NodeJS.Timeout | null = null;
  #failure: JournalWriteError | null = null;

  constructor(
    private readonly journal: RolloutJournal,
    lease: Lease,
    private readonly stop: AbortController,
    private readonly onEvent: (e: JournalEvent) => void = () => {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.#lease = lease;
  }

  get runId(): number {
    return this.#lease.runId;
  }

  get lease(): Lease {
    return this.#lease;
  }

  /** The first write that failed, if any: the run stops because of it. */
  get failure(): JournalWriteError | null {
    return this.#failure;
  }

  /** Whether the lease passed to another controller (then nothing more may be written). */
  get leaseLost(): boolean {
    return this.#failure?.cause instanceof LeaseLostError;
  }

  /**
   * Renews the lease every third of its length; a renewal that finds it taken stops the run. `also`
   * renews what else the run holds on the same beat (the cluster's Lease), after the store's lease and
   * only while the run still holds that: its refusal stops the run too.
   */
  startHeartbeat(also?: () => Promise<void>): void {
    const every = Math.max(200, Math.floor(this.#lease.ttlMs / 3));
    this.#heartbeat = setInterval(() => void this.#beat(also), every);
    this.#heartbeat.unref();
  }

  async #beat(also?: () => Promise<void>): Promise<void> {
    await this.renew();
    if (this.leaseLost) return;
    await also?.().catch((e: unknown) => {
      if (e instanceof PlayError && e.exitCode === 69) this.failed(new JournalWriteError('', 'cluster lease', e));
    });
  }

  stopHeartbeat(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  private async renew(): Promise<void> {
    try {
      this.#lease = await this.journal.renew(this.#lease);
    } catch (e) {
      // A store that is busy or away for a moment: the next beat tries again; the lease only passes to
      // another controller once it has expired, and then the next record or renewal says so.
      if (e instanceof LeaseLostError) this.failed(new JournalWriteError('', 'heartbeat', e));
    }
  }

  private failed(e: JournalWriteError): JournalWriteError {
    if (!this.#failure) {
      this.#failure = e;
      this.stopHeartbeat();
      this.stop.abort();
    }
    return e;
  }

  /** Appends an event; JournalWriteError when it could not be written (nothing else is done then). */
  async record(
    host: string,
    phase: string,
    state: JournalEvent['state'],
    detail?: string,
    data?: object,
  ): Promise<JournalEvent> {
    const e: JournalEvent = {
      runId: this.runId,
      host,
      phase,
      state,
      at: this.now().toISOString(),
      detail: detail ?? null,
      data: (data as Record<string, unknown>) ?? null,
    };
    // After a lost lease nothing is tried: the store would refuse it, and the attempt is noise.
    if (this.leaseLost) throw new JournalWriteError(host, `${phase} ${state}`, this.#failure!.cause);
    try {
      await this.journal.record(this.#lease, e);
    } catch (cause) {
      throw this.failed(new JournalWriteError(host, `${phase} ${state}`, cause));
    }
    this.onEvent(e);
    return e;
  }

  /** The run's final status (releases the lease unless running); never tried after the lease was lost. */
  async finish(status: RolloutStatus, reason: string | null): Promise<void> {
    this.stopHeartbeat();
    if (this.leaseLost) return;
    await this.journal.setStatus(this.#lease, status, reason);
  }
}
