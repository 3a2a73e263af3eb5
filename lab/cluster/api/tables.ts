// Server-side printing for the API double (lab/cluster/api/, a TEST DOUBLE): kubectl get's human output
// asks for a meta.k8s.io/v1 Table and prints its columns as they come (kubectl has no printers of its
// own for built-in kinds since server-side printing), so the columns and cells are kube-apiserver's
// (pkg/printers/internalversion/printers.go: printNode, printPod, printPodDisruptionBudget,
// printService, printNamespace, printLease; priority 1 columns are the -o wide ones). Pure.
import { seconds } from './objects.js';

interface Column {
  name: string;
  type: 'string' | 'integer' | 'date';
  priority?: number;
}

type Obj = Record<string, any>;
type Row = (o: Obj, now: number) => (string | number)[];

/** k8s.io/apimachinery's duration.HumanDuration, as in the AGE column. */
export function humanDuration(ms: number): string {
  const secs = Math.floor(ms / 1000);
  if (secs < -1) return '<invalid>';
  if (secs < 0) return '0s';
  if (secs < 120) return `${secs}s`;
  const minutes = Math.floor(secs / 60);
  if (minutes < 10) return secs % 60 === 0 ? `${minutes}m` : `${minutes}m${secs % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(secs / 3600);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8)
    return hours % 24 === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.floor(hours / 24) % 365;
    return days === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${days}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

const age = (o: Obj, now: number) => humanDuration(now - Date.parse(o.metadata.creationTimestamp));
const none = (v: string | undefined) => (v === undefined || v === '' ? '<none>' : v);

function nodeRow(o: Obj, now: number) {
  const ready = (o.status.conditions as Obj[]).find((c) => c.type === 'Ready')?.status === 'True';
  const roles = Object.keys(o.metadata.labels ?? {})
    .filter((k) => k.startsWith('node-role.kubernetes.io/'))
    .map((k) => k.slice('node-role.kubernetes.io/'.length))
    .sort();
  const info = o.status.nodeInfo;
  const ip = (type: string) => (o.status.addresses as Obj[]).find((a) => a.type === type)?.address;
  return [
    o.metadata.name,
    `${ready ? 'Ready' : 'NotReady'}${o.spec.unschedulable ? ',SchedulingDisabled' : ''}`,
    roles.length ? roles.join(',') : '<none>',
    age(o, now),
    info.kubeletVersion,
    none(ip('InternalIP')),
    none(ip('ExternalIP')),
    info.osImage || '<unknown>',
    info.kernelVersion || '<unknown>',
    info.containerRuntimeVersion || '<unknown>',
  ];
}

function podRow(o: Obj, now: number) {
  const statuses = (o.status.containerStatuses ?? []) as Obj[];
  const ready = statuses.filter((c) => c.ready).length;
  return [
    o.metadata.name,
    `${ready}/${o.spec.containers.length}`,
    o.status.phase,
    0,
    age(o, now),
    none(o.status.podIP),
    none(o.spec.nodeName),
    '<none>',
    '<none>',
  ];
}

const budgetRow: Row = (o, now) => [
  o.metadata.name,
  o.spec.minAvailable === undefined ? 'N/A' : String(o.spec.minAvailable),
  o.spec.maxUnavailable === undefined ? 'N/A' : String(o.spec.maxUnavailable),
  o.status.disruptionsAllowed,
  age(o, now),
];

const serviceRow: Row = (o, now) => [
  o.metadata.name,
  o.spec.type,
  o.spec.clusterIP,
  '<none>',
  (o.spec.ports as Obj[]).map((p) => `${p.port}/${p.protocol}`).join(','),
  age(o, now),
  Object.entries(o.spec.selector ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',') || '<none>',
];

const PRINTERS: Record<string, { columns: Column[]; row: Row }> = {
  nodes: {
    columns: [
      { name: 'Name', type: 'string' },
      { name: 'Status', type: 'string' },
      { name: 'Roles', type: 'string' },
      { name: 'Age', type: 'string' },
      { name: 'Version', type: 'string' },
      ...['Internal-IP', 'External-IP', 'OS-Image', 'Kernel-Version', 'Container-Runtime'].map(
        (name) => ({ name, type: 'string', priority: 1 }) as Column,
      ),
    ],
    row: nodeRow,
  },
  pods: {
    columns: [
      { name: 'Name', type: 'string' },
      { name: 'Ready', type: 'string' },
      { name: 'Status', type: 'string' },
      { name: 'Restarts', type: 'integer' },
      { name: 'Age', type: 'string' },
      ...['IP', 'Node', 'Nominated Node', 'Readiness Gates'].map(
        (name) => ({ name, type: 'string', priority: 1 }) as Column,
      ),
    ],
    row: podRow,
  },
  poddisruptionbudgets: {
    columns: [
      { name: 'Name', type: 'string' },
      { name: 'Min Available', type: 'string' },
      { name: 'Max Unavailable', type: 'string' },
      { name: 'Allowed Disruptions', type: 'integer' },
      { name: 'Age', type: 'string' },
    ],
    row: budgetRow,
  },
  services: {
    columns: [
      ...['Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age'].map(
        (name) => ({ name, type: 'string' }) as Column,
      ),
      { name: 'Selector', type: 'string', priority: 1 },
    ],
    row: serviceRow,
  },
  namespaces: {
    columns: [
      { name: 'Name', type: 'string' },
      { name: 'Status', type: 'string' },
      { name: 'Age', type: 'string' },
    ],
    row: (o, now) => [o.metadata.name, o.status.phase, age(o, now)],
  },
  leases: {
    columns: [
      { name: 'Name', type: 'string' },
      { name: 'Holder', type: 'string' },
      { name: 'Age', type: 'string' },
    ],
    row: (o, now) => [o.metadata.name, o.spec.holderIdentity ?? '', age(o, now)],
  },
};

/** The default printer's columns, for kinds without their own (kube-apiserver's NAME and AGE). */
const DEFAULT = {
  columns: [
    { name: 'Name', type: 'string' },
    { name: 'Age', type: 'string' },
  ] as Column[],
  row: ((o, now) => [o.metadata.name, age(o, now)]) as Row,
};

/** A meta.k8s.io/v1 Table of `objects` (API objects, as listed) of `resource`. */
export function table(resource: string, objects: readonly Obj[], resourceVersion: string, now: number): Obj {
  const p = PRINTERS[resource] ?? DEFAULT;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: p.columns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.name === 'Name' ? 'name' : '',
      description: '',
      priority: c.priority ?? 0,
    })),
    rows: objects.map((o) => ({
      cells: p.row(o, now),
      object: {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: { ...o.metadata, creationTimestamp: seconds(o.metadata.creationTimestamp) },
      },
    })),
  };
}
