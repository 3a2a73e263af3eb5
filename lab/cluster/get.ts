// kubectl get against the simulated cluster (lab/cluster/, a TEST DOUBLE): nodes, the kube-dns service,
// pods (-A, --field-selector spec.nodeName=NODE, -l) and PodDisruptionBudgets, as table, -o wide, json,
// name or jsonpath.
import {
  equalitySelector,
  type KubectlResult,
  KubectlError,
  notFound,
  notImplemented,
  type Parsed,
  resource,
} from './args.js';
import { type ClusterState, readClusterState, updateClusterState } from './cluster-state.js';
import { table } from './format.js';
import { jsonpath } from './jsonpath.js';
import { nodeObject, nodeRows } from './nodes-view.js';
import { pdbObject, pdbRows, pdbsOf } from './pdb.js';
import { matchesLabels, podsOf, schedulePending } from './pods.js';
import { podObject, podRows } from './pods-view.js';

const NODE_KINDS = new Set(['node', 'nodes', 'no']);
const SERVICE_KINDS = new Set(['svc', 'service', 'services']);
const POD_KINDS = new Set(['pod', 'pods', 'po']);
const PDB_KINDS = new Set(['pdb', 'pdbs', 'poddisruptionbudget', 'poddisruptionbudgets']);

const list = (items: unknown[]) => ({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } });
const metaName = (o: unknown) => (o as { metadata: { name: string } }).metadata.name;

export function mustState(file: string): ClusterState {
  const s = readClusterState(file);
  if (!s)
    throw new KubectlError(
      'The connection to the server 198.18.0.5:6443 was refused - did you specify the right host or port?',
    );
  return s;
}

function render(p: Parsed, one: unknown | undefined, all: unknown[], kind: string, tableText: () => string): string {
  const out = p.output;
  const target = one ?? list(all);
  if (out === undefined || out === 'wide') return tableText();
  if (out === 'json') return `${JSON.stringify(target, null, 4)}\n`;
  if (out === 'name') return (one === undefined ? all : [one]).map((o) => `${kind}/${metaName(o)}\n`).join('');
  const jp = /^jsonpath=(.*)$/s.exec(out);
  if (jp) return jsonpath(jp[1]!.replace(/^'(.*)'$/s, '$1'), target);
  throw notImplemented(`-o ${out}`);
}

const noneFound = (p: Parsed, ns: string | undefined): KubectlResult | undefined =>
  p.output === undefined || p.output === 'wide'
    ? {
        code: 0,
        stdout: '',
        stderr: ns === undefined ? 'No resources found\n' : `No resources found in ${ns} namespace.\n`,
      }
    : undefined;

function getNodes(s: ClusterState, p: Parsed, name: string | undefined, now: number): KubectlResult {
  const nodes = Object.values(s.nodes).sort((a, b) => a.name.localeCompare(b.name));
  const chosen = name === undefined ? nodes : [s.nodes[name]].filter((n) => n !== undefined);
  if (name !== undefined && chosen.length === 0) throw notFound('nodes', name);
  if (chosen.length === 0)
    return noneFound(p, undefined) ?? { code: 0, stdout: render(p, undefined, [], 'node', () => ''), stderr: '' };
  const stdout = render(
    p,
    name === undefined ? undefined : nodeObject(chosen[0]!),
    chosen.map(nodeObject),
    'node',
    () => table(nodeRows(chosen, p.output === 'wide', now)),
  );
  return { code: 0, stdout, stderr: '' };
}

function getService(s: ClusterState, p: Parsed, name: string | undefined): KubectlResult {
  const ns = p.namespace ?? 'default';
  const wide = p.output === 'wide';
  const services = ns === 'kube-system' ? [dnsServiceObject(s)] : [];
  if (name !== undefined && (ns !== 'kube-system' || name !== 'kube-dns')) throw notFound('services', name);
  if (services.length === 0)
    return noneFound(p, ns) ?? { code: 0, stdout: render(p, undefined, [], 'service', () => ''), stderr: '' };
  const rows = [
    ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', ...(wide ? ['SELECTOR'] : [])],
    [
      'kube-dns',
      'ClusterIP',
      s.dnsServiceIP,
      '<none>',
      '53/UDP,53/TCP,9153/TCP',
      '10d',
      ...(wide ? ['k8s-app=kube-dns'] : []),
    ],
  ];
  return {
    code: 0,
    stdout: render(p, name === undefined ? undefined : services[0], services, 'service', () => table(rows)),
    stderr: '',
  };
}

function getPods(s: ClusterState, p: Parsed, name: string | undefined, now: number): KubectlResult {
  const ns = p.allNamespaces ? undefined : (p.namespace ?? 'default');
  const fields = p.fieldSelector === undefined ? {} : equalitySelector(p.fieldSelector, '--field-selector');
  for (const f of Object.keys(fields))
    if (f !== 'spec.nodeName' && f !== 'metadata.namespace' && f !== 'metadata.name')
      throw new KubectlError(
        `Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "", field selector "${p.fieldSelector}": field label not supported: ${f}`,
      );
  const labels = p.labelSelector === undefined ? {} : equalitySelector(p.labelSelector, '--selector');
  const pods = podsOf(s).filter(
    (x) =>
      (ns === undefined || x.namespace === ns) &&
      (name === undefined || x.name === name) &&
      (fields['spec.nodeName'] === undefined || (x.nodeName ?? '') === fields['spec.nodeName']) &&
      (fields['metadata.namespace'] === undefined || x.namespace === fields['metadata.namespace']) &&
      (fields['metadata.name'] === undefined || x.name === fields['metadata.name']) &&
      matchesLabels(x.labels, labels),
  );
  if (name !== undefined && pods.length === 0) throw notFound('pods', name);
  if (pods.length === 0)
    return noneFound(p, ns) ?? { code: 0, stdout: render(p, undefined, [], 'pod', () => ''), stderr: '' };
  const objects = pods.map((x) => podObject(s, x));
  const rows = () => table(podRows(s, pods, { wide: p.output === 'wide', allNamespaces: ns === undefined, now }));
  return { code: 0, stdout: render(p, name === undefined ? undefined : objects[0], objects, 'pod', rows), stderr: '' };
}

function getPdbs(s: ClusterState, p: Parsed, name: string | undefined, now: number): KubectlResult {
  const ns = p.allNamespaces ? undefined : (p.namespace ?? 'default');
  const budgets = pdbsOf(s).filter(
    (b) => (ns === undefined || b.namespace === ns) && (name === undefined || b.name === name),
  );
  if (name !== undefined && budgets.length === 0) throw notFound('poddisruptionbudgets.policy', name);
  if (budgets.length === 0)
    return (
      noneFound(p, ns) ?? {
        code: 0,
        stdout: render(p, undefined, [], 'poddisruptionbudget.policy', () => ''),
        stderr: '',
      }
    );
  const objects = budgets.map((b) => pdbObject(s, b));
  const rows = () => table(pdbRows(s, budgets, { allNamespaces: ns === undefined, now }));
  return {
    code: 0,
    stdout: render(p, name === undefined ? undefined : objects[0], objects, 'poddisruptionbudget.policy', rows),
    stderr: '',
  };
}

export function getCommand(file: string, p: Parsed, now: number): KubectlResult {
  const [kind, name] = resource(p.words.slice(1));
  if (POD_KINDS.has(kind) || PDB_KINDS.has(kind)) updateClusterState(file, (st) => void schedulePending(st));
  const s = mustState(file);
  if (NODE_KINDS.has(kind)) return getNodes(s, p, name, now);
  if (SERVICE_KINDS.has(kind)) return getService(s, p, name);
  if (POD_KINDS.has(kind)) return getPods(s, p, name, now);
  if (PDB_KINDS.has(kind)) return getPdbs(s, p, name, now);
  throw notImplemented(`get ${kind}`);
}

function dnsServiceObject(s: ClusterState): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'KubeDNS' },
      name: 'kube-dns',
      namespace: 'kube-system',
    },
    spec: {
      clusterIP: s.dnsServiceIP,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
      selector: { 'k8s-app': 'kube-dns' },
      type: 'ClusterIP',
    },
    status: { loadBalancer: {} },
  };
}
