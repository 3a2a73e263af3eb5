// The cluster holds the rollout lock too: a coordination.k8s.io/v1 Lease (kube-system/play-rollout) that
// a rolling run takes through kubectl on the control host, renews with its heartbeat and releases at the
// end, as kured holds its lock in the cluster. Two controllers whose state stores differ (two laptops,
// two databases) cannot roll one cluster at once: the second finds the Lease held and stops (exit 69),
// and `kubectl get lease -n kube-system play-rollout` shows who holds it. Writes go through the API
// server's optimistic concurrency: a replace carries the resourceVersion read, and a controller that
// raced another gets 409 Conflict and reads again.
import pRetry from 'p-retry';
import { PlayError, RemoteError } from '../core/errors.js';
import { sh } from '../core/quote.js';
import type { Remote } from '../core/step.js';

/** A write another controller's write beat (409): read again and retry. */
class LeaseRaced extends RemoteError {}

export const LEASE_NAMESPACE = 'kube-system';
export const LEASE_NAME = 'play-rollout';

export interface LeaseObject {
  apiVersion: 'coordination.k8s.io/v1';
  kind: 'Lease';
  metadata: { name: string; namespace: string; resourceVersion?: string };
  spec: {
    holderIdentity?: string | null;
    leaseDurationSeconds?: number;
    acquireTime?: string | null;
    renewTime?: string | null;
    leaseTransitions?: number;
  };
}

export type ClusterLeaseState =
  | { readonly kind: 'free' }
  | { readonly kind: 'ours' }
  | { readonly kind: 'held'; readonly holder: string; readonly renewTime: string; readonly expiresAt: string };

/** MicroTime as the API server writes it: RFC 3339 with microseconds. */
export const microTime = (d: Date) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** Who holds the Lease for `holder` at `now`: free when absent, released or expired. */
export function judgeClusterLease(obj: LeaseObject | null, holder: string, now: Date): ClusterLeaseState {
  const spec = obj?.spec;
  if (!spec?.holderIdentity) return { kind: 'free' };
  if (spec.holderIdentity === holder) return { kind: 'ours' };
  const renewed = Date.parse(spec.renewTime ?? spec.acquireTime ?? '');
  const expires = renewed + (spec.leaseDurationSeconds ?? 0) * 1000;
  if (!Number.isFinite(expires) || expires <= now.getTime()) return { kind: 'free' };
  return {
    kind: 'held',
    holder: spec.holderIdentity,
    renewTime: spec.renewTime ?? spec.acquireTime ?? '',
    expiresAt: new Date(expires).toISOString(),
  };
}

/** The Lease `holder` writes over `current` (null: none yet) at `now`; `release` clears the holder. */
export function leaseFor(
  current: LeaseObject | null,
  holder: string,
  durationSec: number,
  now: Date,
  release = false,
): LeaseObject {
  const spec = current?.spec ?? {};
  const taking = spec.holderIdentity !== holder;
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: LEASE_NAME,
      namespace: LEASE_NAMESPACE,
      ...(current?.metadata.resourceVersion ? { resourceVersion: current.metadata.resourceVersion } : {}),
    },
    spec: release
      ? { ...spec, holderIdentity: null }
      : {
          holderIdentity: holder,
          leaseDurationSeconds: durationSec,
          acquireTime: taking ? microTime(now) : (spec.acquireTime ?? microTime(now)),
          renewTime: microTime(now),
          leaseTransitions: (spec.leaseTransitions ?? 0) + (taking && spec.holderIdentity ? 1 : 0),
        },
  };
}

/** The cluster's rollout Lease is another controller's: exit 69, as the store's lease held. */
export class ClusterLeaseHeldError extends PlayError {
  constructor(state: Extract<ClusterLeaseState, { kind: 'held' }>, control: string) {
    super(
      `the cluster's rollout lease (Lease ${LEASE_NAMESPACE}/${LEASE_NAME}, read on ${control}) is held by ` +
        `${state.holder}, renewed ${state.renewTime}, expires ${state.expiresAt}: another controller, perhaps ` +
        `with another state store, is rolling this cluster; see kubectl get lease -n ${LEASE_NAMESPACE} ${LEASE_NAME}`,
      69,
    );
  }
}

/** The cluster's rollout Lease no longer names this run's holder, and no other: exit 69, the run stops. */
export class ClusterLeaseReleasedError extends PlayError {
  /** `current`: the Lease as read (null: none), which names no live holder. */
  constructor(holder: string, control: string, current: LeaseObject | null) {
    const other = current?.spec.holderIdentity;
    const why = !current
      ? 'the Lease was deleted'
      : other
        ? `it names ${other}, whose time ran out (renewed ${current.spec.renewTime ?? current.spec.acquireTime ?? 'never'}): another controller took it and let it lapse`
        : 'it was released: another controller finished the run';
    super(
      `the cluster's rollout lease (Lease ${LEASE_NAMESPACE}/${LEASE_NAME}, read on ${control}) no longer names ` +
        `${holder}: ${why}; this controller stops`,
      69,
    );
  }
}

export class ClusterLease {
  constructor(
    private readonly remote: Remote,
    private readonly kubectl: string,
    /** Names this run: the controller, the run and its store (shown by kubectl get lease). */
    readonly holder: string,
    private readonly durationSec: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Takes the Lease, or throws ClusterLeaseHeldError naming its holder. */
  async acquire(): Promise<void> {
    await this.#write((current) => {
      const state = judgeClusterLease(current, this.holder, this.now());
      if (state.kind === 'held') throw new ClusterLeaseHeldError(state, this.remote.name);
      return leaseFor(current, this.holder, this.durationSec, this.now());
    });
  }

  /**
   * The heartbeat: renews the Lease while it names this holder. Throws ClusterLeaseHeldError when
   * another holder took it (this one had expired), and ClusterLeaseReleasedError when it names no live
   * holder: the run was finished by a controller that took it over, another took it and let it lapse,
   * or the Lease was deleted. A renewal never takes a free Lease: a controller that was paused past its
   * store lease would hold the cluster for a run that has ended.
   */
  async renew(): Promise<void> {
    await this.#write((current) => {
      const state = judgeClusterLease(current, this.holder, this.now());
      if (state.kind === 'held') throw new ClusterLeaseHeldError(state, this.remote.name);
      if (state.kind === 'free') throw new ClusterLeaseReleasedError(this.holder, this.remote.name, current);
      return leaseFor(current, this.holder, this.durationSec, this.now());
    });
  }

  /** Clears the holder (best effort: a Lease someone else holds now is left alone). */
  async release(): Promise<void> {
    await this.#write((current) =>
      current?.spec.holderIdentity === this.holder
        ? leaseFor(current, this.holder, this.durationSec, this.now(), true)
        : null,
    );
  }

  /** Reads the Lease and writes what `next` makes of it, again at once when another writer raced (409). */
  async #write(next: (current: LeaseObject | null) => LeaseObject | null): Promise<void> {
    await pRetry(() => this.#writeOnce(next), {
      retries: 2,
      minTimeout: 0,
      shouldRetry: ({ error }) => error instanceof LeaseRaced,
    });
  }

  async #writeOnce(next: (current: LeaseObject | null) => LeaseObject | null): Promise<void> {
    const current = await this.#get();
    const object = next(current);
    if (!object) return;
    const verb = current ? 'replace' : 'create';
    const r = await this.remote.run(sh`${this.kubectl} ${verb} -f -`, { stdin: JSON.stringify(object) });
    if (r.code === 0) return;
    const raced = /Conflict|AlreadyExists|already exists|has been modified/.test(r.stderr);
    throw new (raced ? LeaseRaced : RemoteError)(
      `kubectl ${verb} lease ${LEASE_NAMESPACE}/${LEASE_NAME} on ${this.remote.name} failed (exit ${r.code}): ${r.stderr.trim()}`,
      r.code,
      r.stderr,
    );
  }

  async #get(): Promise<LeaseObject | null> {
    const r = await this.remote.run(sh`${this.kubectl} get lease ${LEASE_NAME} -n ${LEASE_NAMESPACE} -o json`);
    // The API server's NotFound, not the shell's `kubectl: not found` (exit 127).
    if (r.code === 1 && /\(NotFound\)/.test(r.stderr)) return null;
    if (r.code !== 0)
      throw new RemoteError(
        `kubectl get lease ${LEASE_NAMESPACE}/${LEASE_NAME} on ${this.remote.name} failed (exit ${r.code}): ${r.stderr.trim()}`,
        r.code,
        r.stderr,
      );
    return JSON.parse(r.stdout) as LeaseObject;
  }
}
