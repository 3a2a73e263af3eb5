// This process's claim on a lease (a rolling run's, or a shared schedule's tick): a fresh random token,
// the process's identity, and the lease's length, PLAY_LEASE_TTL seconds (default 30).
import { randomUUID } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { DEFAULT_LEASE_TTL_MS, type LeaseClaim } from './lease.js';
import { currentIdentity } from './process-identity.js';

export function leaseClaim(env: NodeJS.ProcessEnv = process.env): LeaseClaim {
  const text = env.PLAY_LEASE_TTL;
  const seconds = text === undefined || text === '' ? DEFAULT_LEASE_TTL_MS / 1000 : Number(text);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600)
    throw new UsageError(`PLAY_LEASE_TTL '${text}': expected a number of seconds from 1 to 3600 (default 30)`);
  return { token: randomUUID(), identity: currentIdentity(), ttlMs: Math.round(seconds * 1000) };
}
