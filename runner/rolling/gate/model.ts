// A rolling gate: read-only checks a node must pass after it is Ready and before it is uncordoned
// (hotfix-windows: its pod network, docs/rolling.md#pod-network-gate). A playbook declares one under
// `gate` (runner/playbook/define.ts); a playbook without one (a Linux rolling playbook) has no such
// phase. Each check is a step's own probe (read-only) and a pure judge of what it saw. Types only.
import type { Probe } from '../../core/step.js';
import type { HostView } from '../../playbook/host-view.js';

/** What a gate knows of the node it looks at. */
export interface GateTarget {
  /** The inventory host (its vars: the adapter, pod_gateway, ...). */
  readonly host: HostView;
  /** Its Kubernetes node name. */
  readonly node: string;
  /** The pod CIDR the cluster gives the node (spec.podCIDR); null: none. */
  readonly podCidr: string | null;
}

/** One probed host's answer to a check's probe. */
export type Seen<A> =
  | { readonly host: string; readonly ok: true; readonly actual: A | null }
  | { readonly host: string; readonly ok: false; readonly error: string };

/** A check's verdict: `text` says what it saw (passing) or what is wrong (failing), for people. */
export interface CheckResult {
  readonly check: string;
  readonly ok: boolean;
  readonly text: string;
}

export interface GateCheck<A = unknown> {
  /** For the journal and tests: 'hns-network', 'service kubelet', ... */
  readonly name: string;
  /** Where the probe runs: on the node itself, or on every host of an inventory group (e.g. the tor hosts). */
  readonly on: 'node' | { readonly group: string };
  /** The read-only probe, built for the target (throws on a value it cannot check, e.g. no pod CIDR). */
  probe(t: GateTarget): Probe<A>;
  /** Pure: the verdict from every probed host's answer (none: the group has no host). */
  judge(t: GateTarget, seen: readonly Seen<A>[]): CheckResult;
}

export interface RollingGate {
  /** Names the gate in its messages: `pod-network gate: ...`. */
  readonly name: string;
  readonly checks: readonly GateCheck<any>[];
  /**
   * How long a node may take to pass once Ready (services still starting): the gate looks again every
   * poll until then, and fails with what its last look found.
   */
  readonly withinSec: number;
}

/** The gate's verdict on one look. */
export interface GateVerdict {
  readonly pass: boolean;
  /** One line: `pod-network gate: HNS network l2bridge missing; service kubeproxy Stopped`. */
  readonly message: string;
  readonly results: readonly CheckResult[];
}
