// Waiting for a Windows host to come back from a reboot, verified: polls Get-PlayOsInfo with
// backoff until LastBootUpTime is a new one (not merely "the host answers": it may answer before it
// goes down), then until the readiness checks pass (the listed services run). While the host is
// down every poll fails: the connection drops (ConnectionLostError), reopening it is refused or
// times out (UnreachableError), a command hangs (TimeoutError), or PowerShell fails while Windows
// shuts down or starts (RemoteError); all of these mean "not yet". Only a host key or local
// configuration problem on reconnect ends the wait at once: waiting cannot fix it. Bounded by the
// deadline; the error then says what the host last looked like.
import { RemoteError, UnreachableError } from '../../runner/core/errors.js';
import type { Remote } from '../../runner/core/step.js';
import { invoke } from './remote/calls.js';
import type { Clock } from './remote/clock.js';
import { isConnectionProblem } from './remote/connection-loss.js';
import { GET_OS_INFO } from './remote/ps-os.js';
import { GET_SERVICE } from './remote/ps-services.js';
import { parseScQueryex } from './parse/sc-output.js';

export interface RebootWait {
  readonly title: string;
  /** LastBootUpTime before the restart. */
  readonly before: string;
  readonly deadline: number;
  readonly clock: Clock;
  /** Services that must be running for the host to count as ready. */
  readonly services: readonly string[];
}

const BACKOFF_MS = [2000, 2000, 4000, 8000, 15_000];
const POLL_TIMEOUT_MS = 30_000;
/** LastBootUpTime is computed from uptime: readings of one boot can differ by rounding. */
const SAME_BOOT_MS = 5000;

export function isNewBoot(before: string, now: string): boolean {
  const a = Date.parse(before),
    b = Date.parse(now);
  if (Number.isNaN(a) || Number.isNaN(b)) return before !== now;
  return b - a > SAME_BOOT_MS;
}

function fatal(e: unknown): boolean {
  return e instanceof UnreachableError && e.lasting;
}

function describe(e: unknown): string {
  const err = e as Error;
  if (isConnectionProblem(e)) return `unreachable (${err.message})`;
  if (err.name === 'TimeoutError') return `no answer (${err.message})`;
  if (e instanceof RemoteError) return `answering with errors (${err.message})`;
  return err.message;
}

async function notRunning(remote: Remote, w: RebootWait, timeoutMs: number): Promise<string[]> {
  const waiting: string[] = [];
  for (const name of w.services) {
    const value = await invoke(remote, GET_SERVICE, { name }, `${w.title}: readiness of ${name}`, timeoutMs);
    if (value === null) {
      waiting.push(`${name} (no such service)`);
      continue;
    }
    const status = parseScQueryex(value.queryex);
    if (status.state !== 'Running') waiting.push(`${name} (${status.stateName.toLowerCase()})`);
  }
  return waiting;
}

/** Resolves with the new LastBootUpTime once the host is back and ready; throws at the deadline. */
export async function waitForReboot(remote: Remote, w: RebootWait): Promise<string> {
  const { clock } = w;
  let last = 'it was not polled yet';
  for (let attempt = 0; ; attempt++) {
    const pause = Math.min(BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!, w.deadline - clock.now());
    if (pause <= 0) break;
    await clock.sleep(pause);
    const timeoutMs = Math.max(1000, Math.min(POLL_TIMEOUT_MS, w.deadline - clock.now()));
    try {
      const info = await invoke(remote, GET_OS_INFO, {}, `${w.title}: Get-PlayOsInfo`, timeoutMs);
      if (!isNewBoot(w.before, info.lastBootUpTime)) {
        last = `it was still up since ${w.before} (the restart had not happened yet)`;
        continue;
      }
      const waiting = await notRunning(remote, w, timeoutMs);
      if (waiting.length === 0) return info.lastBootUpTime;
      last = `it was back (up since ${info.lastBootUpTime}) but not ready: ${waiting.join(', ')}`;
    } catch (e) {
      if (fatal(e))
        throw new Error(`${w.title}: the host came back but cannot be reconnected to: ${(e as Error).message}`);
      last = `it was ${describe(e)}`;
    }
  }
  throw new Error(`${w.title}: the host did not come back ready before the timeout; when last polled, ${last}`);
}
