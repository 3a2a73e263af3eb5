// A call that may take the connection down with it (creating an HNS L2Bridge network moves the
// adapter's configuration to a vNIC: the NIC blinks and open connections drop, docs/field-notes.md#a-hns-network-and-endpoint). When the
// connection is lost (ConnectionLostError) or cannot be reopened (UnreachableError), whether the
// call had its effect is unknown: the step treats it as "maybe applied", waits until the host
// answers again (each command reopens the connection once), and leaves the verdict to the runner's
// probe after apply, which compares the host with the desired state as always.
import { UnreachableError } from '../../../runner/core/errors.js';
import type { Clock } from './clock.js';

/** How long a step waits for a host to answer again after a drop it caused. */
export const RECONNECT_WINDOW_MS = 90_000;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

export function isConnectionProblem(e: unknown): e is UnreachableError {
  return e instanceof UnreachableError;
}

export type Outcome<T> = { applied: true; value: T } | { applied: 'maybe'; lost: UnreachableError };

/**
 * Runs `action`; on a connection problem, polls `answer` (a read-only call) with backoff until the
 * host answers (a result or an error from PowerShell; a timeout is no answer), then reports 'maybe'. If the host stays silent past the window, the last connection
 * error is thrown (the runner reports the host unreachable). Other errors propagate unchanged.
 */
export async function surviveConnectionLoss<T>(
  action: () => Promise<T>,
  answer: () => Promise<unknown>,
  clock: Clock,
  windowMs = RECONNECT_WINDOW_MS,
): Promise<Outcome<T>> {
  try {
    return { applied: true, value: await action() };
  } catch (e) {
    if (!isConnectionProblem(e)) throw e;
    const deadline = clock.now() + windowMs;
    let last: UnreachableError = e;
    for (let attempt = 0; ; attempt++) {
      const wait = Math.min(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!, deadline - clock.now());
      if (wait <= 0) throw last;
      await clock.sleep(wait);
      try {
        await answer();
        return { applied: 'maybe', lost: e };
      } catch (again) {
        // Any answer from PowerShell (even an error) means the host is back; silence is not.
        if (isConnectionProblem(again)) last = again;
        else if ((again as Error).name !== 'TimeoutError') return { applied: 'maybe', lost: e };
      }
    }
  }
}
