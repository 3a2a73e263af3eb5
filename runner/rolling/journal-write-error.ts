// A rolling run's journal write that failed: the cycle that tried it does nothing more (nothing is done
// that is not recorded first), and the run stops, naming the cause.

/** The journal refused or failed a write (the store's error, or a lost lease): `cause` says which. */
export class JournalWriteError extends Error {
  constructor(
    readonly host: string,
    readonly what: string,
    override readonly cause: unknown,
  ) {
    super(
      `recording ${host ? `${host}'s` : "the run's"} ${what}: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = 'JournalWriteError';
  }
}
