// The rolling lease: one rolling run at a time on an inventory, held by a random token with a heartbeat
// and an expiry, and a fencing number that grows each time the lease changes hands. Every journal write
// carries it, so a holder that was paused (SIGSTOP, a frozen VM, cut off from the store) and wakes after
// another took over writes nothing more. A lease is never broken by its age alone: it expires only when
// its holder stopped renewing it, or earlier when its process is provably gone (process-identity.ts).
// Pure: the backends keep the row, this file decides what a would-be holder may do with it.
import { PlayError } from '../core/errors.js';

/** Who a process is, precisely enough to tell on the same machine whether it still runs. */
export interface ProcessIdentity {
  /** The machine's name, for messages. */
  readonly host: string;
  /** The kernel's boot id: another boot, or another machine, cannot be checked from here. */
  readonly bootId: string;
  /** The pid namespace: two containers may run the same pid on one kernel. */
  readonly pidNamespace: string;
  readonly pid: number;
  /** When the process started (clock ticks since boot): a reused pid is another process. */
  readonly startTicks: string;
}

/** What a would-be holder brings to begin or take over a run. */
export interface LeaseClaim {
  /** Random, unique to this claim: the lease is this token's. */
  readonly token: string;
  readonly identity: ProcessIdentity;
  /** How long the lease lasts without a heartbeat. */
  readonly ttlMs: number;
}

export interface Lease {
  /** What is locked: the inventory's key. */
  readonly key: string;
  readonly runId: number;
  readonly token: string;
  readonly identity: ProcessIdentity;
  /** Grows by one each time the lease changes hands; journal writes carry it. */
  readonly fence: number;
  readonly acquiredAt: string;
  readonly heartbeatAt: string;
  readonly expiresAt: string;
  readonly ttlMs: number;
  /** Given up by its holder (the run ended, paused or was interrupted): free for anyone. */
  readonly released: boolean;
}

export const DEFAULT_LEASE_TTL_MS = 30_000;

export type LeaseState =
  | { readonly kind: 'free' }
  | { readonly kind: 'ours' }
  | { readonly kind: 'expired'; readonly holder: Lease }
  | { readonly kind: 'gone'; readonly holder: Lease }
  | { readonly kind: 'held'; readonly holder: Lease };

/**
 * What the lease row means for `claim` at `now`. `isGone` says whether a holder's process provably
 * no longer runs (false when it cannot tell: another machine, another boot, another pid namespace).
 */
export function judgeLease(
  current: Lease | null,
  claim: Pick<LeaseClaim, 'token'>,
  now: Date,
  isGone: (identity: ProcessIdentity) => boolean,
): LeaseState {
  if (!current || current.released) return { kind: 'free' };
  if (current.token === claim.token) return { kind: 'ours' };
  if (Date.parse(current.expiresAt) <= now.getTime()) return { kind: 'expired', holder: current };
  if (isGone(current.identity)) return { kind: 'gone', holder: current };
  return { kind: 'held', holder: current };
}

/** The lease a claim takes after `current` (null: none yet), at `now`. */
export function takenLease(key: string, runId: number, claim: LeaseClaim, current: Lease | null, now: Date): Lease {
  const at = now.toISOString();
  const ours = current !== null && !current.released && current.token === claim.token;
  return {
    key,
    runId,
    token: claim.token,
    identity: claim.identity,
    fence: ours ? current.fence : (current?.fence ?? 0) + 1,
    acquiredAt: ours ? current.acquiredAt : at,
    heartbeatAt: at,
    expiresAt: new Date(now.getTime() + claim.ttlMs).toISOString(),
    ttlMs: claim.ttlMs,
    released: false,
  };
}

/** The lease after a heartbeat at `now`. */
export function renewedLease(lease: Lease, now: Date): Lease {
  return {
    ...lease,
    heartbeatAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + lease.ttlMs).toISOString(),
  };
}

/** Whether `lease` still holds the row `current`: the same token and fencing number, not released. */
export function stillHeld(lease: Pick<Lease, 'token' | 'fence'>, current: Lease | null): boolean {
  return current !== null && !current.released && current.token === lease.token && current.fence === lease.fence;
}

/** For the journal's note when a lease is taken over: why it was free to take. */
export function takeOverReason(state: LeaseState): string | null {
  if (state.kind !== 'expired' && state.kind !== 'gone') return null;
  const h = state.holder;
  const who = `run ${h.runId} (pid ${h.identity.pid} on ${h.identity.host}, fence ${h.fence})`;
  return state.kind === 'expired'
    ? `took over the rolling lease of ${who}: its last heartbeat was at ${h.heartbeatAt}, it expired at ${h.expiresAt}`
    : `took over the rolling lease of ${who}: that process is gone`;
}

/** Another run holds the inventory's lease: exit 69 (EX_UNAVAILABLE). */
export class LeaseHeldError extends PlayError {
  constructor(
    readonly holder: Lease,
    playbook: string | null,
  ) {
    super(
      `another play run holds the rolling lease on this inventory: run ${holder.runId}${playbook ? ` (${playbook})` : ''}, ` +
        `pid ${holder.identity.pid} on ${holder.identity.host}, last heartbeat ${holder.heartbeatAt}, expires ${holder.expiresAt}; ` +
        `wait for it to finish, or if its controller is gone, run play resume ${holder.runId} once it has expired`,
      69,
    );
  }
}

/** This run's lease passed to another holder: it writes nothing more and stops (exit 69). */
export class LeaseLostError extends PlayError {
  constructor(
    readonly runId: number,
    readonly current: Lease | null,
  ) {
    super(
      `run ${runId} lost its rolling lease: ${
        current && !current.released
          ? `run ${current.runId} holds it now (pid ${current.identity.pid} on ${current.identity.host}, since ${current.acquiredAt})`
          : 'another controller took it over and has released it since (or play rollouts unlock did)'
      }; it was not renewed in time (this process paused, or cut off from the state store), so this controller ` +
        `stops and records nothing more; see play rollouts show ${current?.runId ?? runId}`,
      69,
    );
  }
}
