// The cluster as the preflight sees it: pods (owner, node, nodeSelector, tolerations, emptyDir, Ready),
// PodDisruptionBudgets (selector and the disruption controller's status) and nodes (labels, cordon,
// taints, Ready, allocatable pods), read once with `kubectl get pods,pdb,nodes -A -o json` and folded
// into plain data here. Pure: the simulator (drain-simulation.ts) works on this model alone.
import type { LabelSelector } from '../blocking.js';

export interface Toleration {
  readonly key: string | null;
  /** 'Exists' or 'Equal' (the API's default). */
  readonly operator: string;
  readonly value: string | null;
  /** null: every effect. */
  readonly effect: string | null;
}

export interface Taint {
  readonly key: string;
  readonly value: string | null;
  readonly effect: string;
}

export interface SnapshotPod {
  /** namespace/name. */
  readonly key: string;
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>>;
  /** null: Pending, on no node. */
  readonly node: string | null;
  /** The controller among its owners (kind/name); null: a bare pod. */
  readonly controller: { readonly kind: string; readonly name: string } | null;
  /** A static pod's mirror (kubernetes.io/config.mirror): the kubelet owns it, drain leaves it. */
  readonly mirror: boolean;
  /** Uses an emptyDir volume (its data goes with the pod). */
  readonly emptyDir: boolean;
  readonly nodeSelector: Readonly<Record<string, string>>;
  readonly tolerations: readonly Toleration[];
  /** Its Ready condition is True (a budget counts it healthy). */
  readonly ready: boolean;
  /** Succeeded or Failed: drain deletes it whatever its owner, and no budget counts it. */
  readonly finished: boolean;
}

export interface SnapshotBudget {
  readonly key: string;
  readonly namespace: string;
  /** The spec's selector as the API gives it (matchLabels, matchExpressions). */
  readonly selector: LabelSelector;
  readonly disruptionsAllowed: number;
  readonly currentHealthy: number;
  readonly desiredHealthy: number;
}

export interface SnapshotNode {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly unschedulable: boolean;
  readonly ready: boolean;
  readonly taints: readonly Taint[];
  /** status.allocatable.pods; null when the node does not say. */
  readonly allocatablePods: number | null;
}

export interface ClusterSnapshot {
  readonly pods: readonly SnapshotPod[];
  readonly budgets: readonly SnapshotBudget[];
  readonly nodes: readonly SnapshotNode[];
}

// The JSON kubectl prints, as far as it is read here (every field optional: the API omits empty ones).
interface Meta {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { kind?: string; name?: string; controller?: boolean }[];
}
interface ApiObject {
  kind?: string;
  metadata?: Meta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const keyOf = (m: Meta | undefined) => `${m?.namespace ?? 'default'}/${m?.name ?? '?'}`;
const record = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {};
const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const readyIn = (status: Record<string, unknown> | undefined) =>
  list<{ type?: string; status?: string }>(status?.conditions).some((c) => c.type === 'Ready' && c.status === 'True');

function podOf(o: ApiObject): SnapshotPod {
  const spec = o.spec ?? {};
  const owner = (o.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
  const phase = o.status?.phase;
  return {
    key: keyOf(o.metadata),
    namespace: o.metadata?.namespace ?? 'default',
    labels: o.metadata?.labels ?? {},
    node: typeof spec.nodeName === 'string' && spec.nodeName !== '' ? spec.nodeName : null,
    controller: owner ? { kind: owner.kind ?? '?', name: owner.name ?? '?' } : null,
    mirror: Object.hasOwn(o.metadata?.annotations ?? {}, MIRROR_ANNOTATION),
    emptyDir: list<{ emptyDir?: unknown }>(spec.volumes).some((v) => v.emptyDir !== undefined),
    nodeSelector: record(spec.nodeSelector),
    tolerations: list<Record<string, unknown>>(spec.tolerations).map((t) => ({
      key: typeof t.key === 'string' && t.key !== '' ? t.key : null,
      operator: t.operator === 'Exists' ? 'Exists' : 'Equal',
      value: typeof t.value === 'string' ? t.value : null,
      effect: typeof t.effect === 'string' && t.effect !== '' ? t.effect : null,
    })),
    ready: readyIn(o.status),
    finished: phase === 'Succeeded' || phase === 'Failed',
  };
}

function budgetOf(o: ApiObject): SnapshotBudget {
  const st = o.status ?? {};
  return {
    key: keyOf(o.metadata),
    namespace: o.metadata?.namespace ?? 'default',
    selector: (o.spec?.selector as LabelSelector | undefined) ?? {},
    disruptionsAllowed: num(st.disruptionsAllowed),
    currentHealthy: num(st.currentHealthy),
    desiredHealthy: num(st.desiredHealthy),
  };
}

function nodeOf(o: ApiObject): SnapshotNode {
  const pods = record(record(o.status?.allocatable)).pods;
  return {
    name: o.metadata?.name ?? '?',
    labels: o.metadata?.labels ?? {},
    unschedulable: o.spec?.unschedulable === true,
    ready: readyIn(o.status),
    taints: list<Record<string, unknown>>(o.spec?.taints).map((t) => ({
      key: String(t.key ?? ''),
      value: typeof t.value === 'string' ? t.value : null,
      effect: String(t.effect ?? ''),
    })),
    allocatablePods: pods !== undefined && /^\d+$/.test(String(pods)) ? Number(pods) : null,
  };
}

/** The items of `kubectl get pods,pdb,nodes -A -o json` (a List of mixed kinds), sorted by key. */
export function clusterSnapshot(items: readonly unknown[]): ClusterSnapshot {
  const objects = items as ApiObject[];
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const byKey = <T extends { key: string }>(a: T, b: T) => a.key.localeCompare(b.key);
  return {
    pods: of('Pod').map(podOf).sort(byKey),
    budgets: of('PodDisruptionBudget').map(budgetOf).sort(byKey),
    nodes: of('Node')
      .map(nodeOf)
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}
