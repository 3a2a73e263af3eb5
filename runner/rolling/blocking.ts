// Which PodDisruptionBudgets hold a node's drain, pure: kubectl drain's timeout names the pods it could
// not evict but not the budget that refused them, and an operator needs both to act. A budget holds
// a pod when it is in the pod's namespace and its selector's matchLabels all match the pod's labels
// (matchExpressions are read too: In, NotIn, Exists, DoesNotExist).
export interface PodObject {
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind?: string; controller?: boolean }[];
  };
}

interface Requirement {
  key?: string;
  operator?: string;
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Requirement[];
}

export interface PdbObject {
  metadata?: { name?: string; namespace?: string };
  spec?: { selector?: LabelSelector };
}

const key = (o: { metadata?: { name?: string; namespace?: string } }) =>
  `${o.metadata?.namespace ?? 'default'}/${o.metadata?.name ?? '?'}`;

function requirementHolds(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = r.key !== undefined && Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key!] : undefined;
  switch (r.operator) {
    case 'In':
      return has && (r.values ?? []).includes(value!);
    case 'NotIn':
      return !has || !(r.values ?? []).includes(value!);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    default:
      return false;
  }
}

/** A budget's label selector against a pod's labels; an empty one selects every pod (policy/v1). */
export function selectorMatches(sel: LabelSelector, labels: Readonly<Record<string, string>>): boolean {
  const byLabel = Object.entries(sel.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return byLabel && (sel.matchExpressions ?? []).every((r) => requirementHolds(r, labels));
}

/** Whether the budget covers the pod: the same namespace, and its selector matches. */
export function selects(pdb: PdbObject, pod: PodObject): boolean {
  if ((pdb.metadata?.namespace ?? 'default') !== (pod.metadata?.namespace ?? 'default')) return false;
  return selectorMatches(pdb.spec?.selector ?? {}, pod.metadata?.labels ?? {});
}

const isDaemonSetPod = (p: PodObject) => (p.metadata?.ownerReferences ?? []).some((o) => o.kind === 'DaemonSet');

/**
 * The pods a drain was still waiting for (those kubectl named, else every non-DaemonSet pod still on
 * the node), and the budgets (namespace/name) that select any of them, both sorted.
 */
export function blockingBudgets(
  podsOnNode: readonly PodObject[],
  pdbs: readonly PdbObject[],
  named: readonly string[],
): { podsLeft: string[]; budgets: string[] } {
  const onNode = podsOnNode.filter((p) => !isDaemonSetPod(p));
  const left = named.length ? onNode.filter((p) => named.includes(key(p))) : onNode;
  const podsLeft = (left.length ? left.map(key) : [...named]).sort();
  const budgets = new Set<string>();
  for (const b of pdbs) if (left.some((p) => selects(b, p))) budgets.add(key(b));
  return { podsLeft, budgets: [...budgets].sort() };
}
