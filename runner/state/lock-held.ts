// The rolling lock: one rolling run at a time on an inventory (the journal keeps who holds it, see
// store.ts). When a holder counts as alive, and the error that names it when it does.
import { hostname } from 'node:os';
import { PlayError } from '../core/errors.js';
import type { LockHolder } from './store.js';

/** Whether the process holding a lock still runs: the journal's default (tests inject their own). */
export function isHolderAlive(pid: number, controller: string): boolean {
  // Another machine's process cannot be checked from here: assume it runs (`play rollouts unlock` is the
  // way out when it does not).
  if (controller !== hostname()) return true;
  // Not a process at all (kill(0) would signal our own process group).
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // Our own pid cannot be another process waiting on this inventory: it is a dead process whose pid we
  // got (containers start play as the same pid every time), or a run this process took over itself.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user. Only ESRCH says it is gone; anything else, assume it runs.
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The inventory's rolling lock is held by a live process: exit 69 (EX_UNAVAILABLE: another run has it). */
export class LockHeldError extends PlayError {
  constructor(
    readonly holder: LockHolder,
    playbook: string | null,
  ) {
    super(
      `another play run holds the rolling lock on this inventory: run ${holder.runId}` +
        `${playbook ? ` (${playbook})` : ''}, pid ${holder.pid} on ${holder.controller}, since ${holder.since}; ` +
        `wait for it, or if that process is gone on another machine, remove the lock with: play rollouts unlock ${holder.runId}`,
      69,
    );
  }
}
