// A rolling run once everything is loaded and valid: the playbook's task runs, the targeted hosts, the
// cluster and its Lease, the gates, the waivers, and the streams (prepare.ts builds it). The check, the
// apply and the staging run (../stage-command.ts) all work on one.
import type { Writable } from 'node:stream';
import type { Remote } from '../../core/step.js';
import type { HostResolver, Waiver } from '../../drift/waivers.js';
import type { Host } from '../../inventory/model.js';
import type { Playbook } from '../../playbook/define.js';
import type { LeaseClaim } from '../../state/lease.js';
import type { RolloutRecord } from '../../state/store.js';
import type { AlertGateCheck } from '../alert-gate/check.js';
import type { ClusterOps } from '../cluster.js';
import type { ClusterLease } from '../cluster-lease.js';
import type { NodeGate } from '../gate/look.js';
import type { GraphRuns } from '../graph-runs.js';
import type { RollingPolicy } from '../model.js';
import type { RollingRunOptions } from './options.js';

export interface RollingSession {
  readonly args: RollingRunOptions;
  readonly playbook: Playbook;
  /** The playbook's file, absolute. */
  readonly playbookFile: string;
  readonly policy: RollingPolicy;
  readonly runs: GraphRuns;
  /** The playbook's staging tasks (`--stage`: runner/rolling/stage-command.ts), else null. */
  readonly stageRuns?: GraphRuns | null;
  readonly targets: readonly Host[];
  /** The waivers beside the inventory (waivers.yml, as play drift reads them) and their host patterns' resolver. */
  readonly waivers: readonly Waiver[];
  readonly resolve: HostResolver;
  /** The Kubernetes node names of every inventory host (node_name, else the host name lower-cased). */
  readonly inventoryNodes: readonly string[];
  readonly cluster: ClusterOps | null;
  /** The cluster's rollout Lease for a holder (null: a serial run without a cluster). */
  readonly clusterLease: ((holder: string, durationSec: number) => ClusterLease) | null;
  /** Prometheus asked before each batch (--gate-prometheus, rolling.alertGate), or null. */
  readonly alertGate?: AlertGateCheck | null;
  reachable(host: string): Promise<boolean>;
  /** Each targeted host's hotfix KBs, and a host's connection for a rollback (rollback-session.ts). */
  readonly hotfixKbs?: ReadonlyMap<string, readonly string[]>;
  readonly remoteOf?: (host: string) => Remote;
  /** The playbook's gate after Ready (null: it declares none, or there is no cluster). */
  readonly gate?: NodeGate | null;
  readonly out: Writable;
  readonly err: Writable;
  readonly signal?: AbortSignal;
}

export interface Controller {
  readonly inventoryKey: string;
  /** This process's claim on the inventory's rolling lease. */
  readonly claim: LeaseClaim;
  /** The unfinished run to continue (--resume), or null for a new run. */
  readonly resume: RolloutRecord | null;
}

/** A host's Kubernetes node name: its var node_name, else its name, lower-cased (as kubelet registers). */
export function nodeNameOfHost(h: Pick<Host, 'name' | 'vars'>): string {
  const v = h.vars.node_name;
  return (typeof v === 'string' && v !== '' ? v : h.name).toLowerCase();
}

/** The node name of a targeted host, by its name. */
export function nodeNameOf(s: RollingSession): (host: string) => string {
  const byName = new Map(s.targets.map((h) => [h.name, h]));
  return (name) => nodeNameOfHost(byName.get(name) ?? { name, vars: {} });
}

/** A targeted host's failure domain (the policy's domain var), or null. */
export function domainOf(s: RollingSession): (host: string) => string | null {
  const byName = new Map(s.targets.map((h) => [h.name, h]));
  return (name) => {
    const v = byName.get(name)?.vars[s.policy.domainVar];
    return v === undefined || v === null || v === '' ? null : String(v);
  };
}
