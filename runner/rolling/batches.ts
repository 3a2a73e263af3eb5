// The batch planner: which hosts go together in each batch of a rolling run. Pure.
//
// Host order within a run is the inventory's order, stable: batches are filled by walking the hosts
// still to place in the order given, and a batch lists its hosts in that order too.
//
// - Sizes are `serial`'s (serial.ts): batch k takes the k-th size (the last repeating), percentages
//   of all the hosts to place, capped by the hosts left.
// - With `maxPerDomain`, the walk passes over a host whose failure domain already has that many hosts
//   in the batch being filled; the host keeps its place in the order and is tried first for the next
//   batch. A host without a domain is never passed over. So a domain never loses more than
//   maxPerDomain hosts at once, and nothing further down the inventory jumps ahead of a host merely
//   because of the limit, beyond filling the room the limit left.
// - A batch may come out smaller than its size when the domains left cannot fill it (3 hosts all in
//   domain a, serial 3, one per domain: [a1], [a2], [a3]); the next batch takes the next size as
//   usual: a short batch does not carry its shortfall over.
// - `deferred` records each host passed over at least once: fromBatch is the batch being filled when
//   it was first passed over, toBatch the batch it lands in; in the order they were first passed
//   over (by fromBatch, then inventory order).
// Every host lands in exactly one batch: each batch takes at least the first host left (its domain
// has no host in a fresh batch yet), so the walk always ends.
import type { BatchPlan, DeferredHost, PlanHost, SerialStep } from './model.js';
import { stepSize } from './serial.js';

export function planBatches(
  hosts: readonly PlanHost[],
  steps: readonly SerialStep[],
  maxPerDomain: number | null,
): BatchPlan {
  if (steps.length === 0) throw new RangeError('planBatches: no serial steps');
  if (maxPerDomain !== null && !(Number.isInteger(maxPerDomain) && maxPerDomain >= 1)) {
    throw new RangeError(`planBatches: maxPerDomain must be a whole number of at least 1, got ${maxPerDomain}`);
  }
  const batches: string[][] = [];
  // Insertion order is the order first passed over; the record is completed when the host lands.
  const deferred = new Map<PlanHost, { fromBatch: number; toBatch: number }>();
  let left: readonly PlanHost[] = hosts;
  for (let k = 0; left.length > 0; k++) {
    const size = Math.min(stepSize(steps[Math.min(k, steps.length - 1)]!, hosts.length), left.length);
    const { batch, passedOver, rest } = fillBatch(left, size, maxPerDomain);
    for (const host of passedOver) if (!deferred.has(host)) deferred.set(host, { fromBatch: k + 1, toBatch: 0 });
    for (const host of batch) {
      const d = deferred.get(host);
      if (d) d.toBatch = k + 1;
    }
    batches.push(batch.map((h) => h.name));
    left = rest;
  }
  return {
    batches,
    deferred: [...deferred].map(([h, d]): DeferredHost => ({ host: h.name, domain: h.domain!, ...d })),
  };
}

/**
 * One batch of at most `size` hosts out of `left`, walking it in order: a host is taken unless its
 * domain is full in this batch (passed over). The walk stops once the batch is full; `rest` is every
 * host not taken, in order.
 */
function fillBatch(left: readonly PlanHost[], size: number, maxPerDomain: number | null) {
  const batch: PlanHost[] = [];
  const passedOver: PlanHost[] = [];
  const rest: PlanHost[] = [];
  const perDomain = new Map<string, number>();
  for (const host of left) {
    if (batch.length === size) {
      rest.push(host);
      continue;
    }
    const n = host.domain === null ? 0 : (perDomain.get(host.domain) ?? 0);
    if (maxPerDomain !== null && host.domain !== null && n >= maxPerDomain) {
      passedOver.push(host);
      rest.push(host);
      continue;
    }
    batch.push(host);
    if (host.domain !== null) perDomain.set(host.domain, n + 1);
  }
  return { batch, passedOver, rest };
}
