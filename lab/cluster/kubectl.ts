// The kubectl stand-in (a TEST DOUBLE, not kubectl): answers the kubectl commands the playbooks run on
// a master, from the simulated cluster's state file (cluster-state.ts), with kubectl's output formats, error
// messages and exit codes. On the lab's control host it is /opt/play-lab/bin/kubectl, a shell wrapper:
//   exec node --import tsx lab/cluster/kubectl.ts --state FILE "$@"
// Supported (everything else exits 1 saying the stand-in does not implement it):
//   get nodes|node [NAME] [-o wide|json|name|jsonpath=TEMPLATE]
//   get svc|service [NAME] -n kube-system [-o wide|json|name|jsonpath=TEMPLATE]   (only kube-dns exists)
//   cordon NAME | uncordon NAME | drain NAME [--ignore-daemonsets] [--delete-emptydir-data] [--force] [--timeout=D]
//   delete node NAME
// jsonpath: kubectl's `{.a.b}`, `{.items[*].x}`, `{.a[0]}`, `{.a[?(@.k=="v")].x}` and literal text; no range/end.
import { pathToFileURL } from 'node:url';
import {
  type ClusterNode,
  type ClusterState,
  KUBERNETES_VERSION,
  readClusterState,
  updateClusterState,
} from './cluster-state.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

class KubectlError extends Error {}

const notFound = (kind: string, name: string) =>
  new KubectlError(`Error from server (NotFound): ${kind} "${name}" not found`);
const notImplemented = (what: string) =>
  new KubectlError(`error: the kubectl stand-in (play lab, a test double) does not implement ${what}`);

// ---- objects as the API server returns them ----

function nodeObject(n: ClusterNode): Record<string, unknown> {
  const os = n.os ?? 'linux';
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': os,
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': n.name,
    'kubernetes.io/os': os,
  };
  for (const role of n.roles ?? []) labels[`node-role.kubernetes.io/${role}`] = '';
  const changed = n.updatedAt ?? n.registeredAt;
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { creationTimestamp: n.registeredAt.replace(/\.\d+Z$/, 'Z'), labels, name: n.name },
    spec: {
      podCIDR: n.podCIDR,
      podCIDRs: [n.podCIDR],
      ...(n.unschedulable
        ? {
            taints: [
              {
                effect: 'NoSchedule',
                key: 'node.kubernetes.io/unschedulable',
                timeAdded: changed.replace(/\.\d+Z$/, 'Z'),
              },
            ],
            unschedulable: true,
          }
        : {}),
    },
    status: {
      addresses: n.addresses,
      conditions: [
        {
          lastHeartbeatTime: changed.replace(/\.\d+Z$/, 'Z'),
          lastTransitionTime: changed.replace(/\.\d+Z$/, 'Z'),
          message: n.ready ? 'kubelet is posting ready status' : 'kubelet stopped posting node status.',
          reason: n.ready ? 'KubeletReady' : 'NodeStatusUnknown',
          status: n.ready ? 'True' : 'False',
          type: 'Ready',
        },
      ],
      nodeInfo: {
        architecture: 'amd64',
        containerRuntimeVersion: n.containerRuntime ?? 'docker://19.3.5',
        kernelVersion: n.kernelVersion ?? '',
        kubeProxyVersion: n.kubeletVersion ?? KUBERNETES_VERSION,
        kubeletVersion: n.kubeletVersion ?? KUBERNETES_VERSION,
        operatingSystem: os,
        osImage: n.osImage ?? '',
      },
    },
  };
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

const list = (items: unknown[]) => ({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } });

// ---- printing ----

/** k8s.io/apimachinery's duration.HumanDuration, as in the AGE column. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
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

/** kubectl's tabwriter (minwidth 6, padding 3, blanks); the last column unpadded. */
export function table(rows: readonly string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(6, ...rows.map((r) => r[c]!.length + 3)));
  return rows
    .map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c]!))).join('') + '\n')
    .join('');
}

function nodeStatus(n: ClusterNode): string {
  return `${n.ready ? 'Ready' : 'NotReady'}${n.unschedulable ? ',SchedulingDisabled' : ''}`;
}

function nodeRows(nodes: readonly ClusterNode[], wide: boolean, now: number): string[][] {
  const head = ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'];
  if (wide) head.push('INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME');
  return [
    head,
    ...nodes.map((n) => {
      const row = [
        n.name,
        nodeStatus(n),
        n.roles?.length ? n.roles.join(',') : '<none>',
        humanDuration(now - Date.parse(n.registeredAt)),
        n.kubeletVersion ?? KUBERNETES_VERSION,
      ];
      if (wide) {
        row.push(
          n.addresses.find((a) => a.type === 'InternalIP')?.address ?? '<none>',
          '<none>',
          n.osImage || '<unknown>',
          n.kernelVersion || '<unknown>',
          n.containerRuntime ?? 'docker://19.3.5',
        );
      }
      return row;
    }),
  ];
}

// ---- jsonpath (kubectl's subset) ----

type Step = { field: string } | { index: number | '*' } | { filter: { path: string[]; value: string } };

function parseExpression(expr: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  if (expr.startsWith('$')) i = 1;
  while (i < expr.length) {
    if (expr[i] === '.') {
      const m = /^\.([A-Za-z0-9_-]+)/.exec(expr.slice(i));
      if (!m)
        throw new KubectlError(`error: error parsing jsonpath {${expr}}, unrecognized character in action: U+002E '.'`);
      steps.push({ field: m[1]! });
      i += m[0].length;
    } else if (expr[i] === '[') {
      const rest = expr.slice(i);
      const index = /^\[(\*|\d+)\]/.exec(rest);
      const filter = /^\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]/.exec(rest);
      if (index) {
        steps.push({ index: index[1] === '*' ? '*' : Number(index[1]) });
        i += index[0].length;
      } else if (filter) {
        steps.push({ filter: { path: filter[1]!.slice(1).split('.'), value: filter[2] ?? filter[3]! } });
        i += filter[0].length;
      } else throw notImplemented(`the jsonpath expression {${expr}}`);
    } else throw notImplemented(`the jsonpath expression {${expr}}`);
  }
  return steps;
}

function evaluate(root: unknown, steps: readonly Step[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('field' in step) {
        if (v && typeof v === 'object' && !Array.isArray(v) && step.field in v)
          next.push((v as Record<string, unknown>)[step.field]);
      } else if ('index' in step) {
        if (!Array.isArray(v)) continue;
        if (step.index === '*') next.push(...v);
        else if (step.index < v.length) next.push(v[step.index]);
      } else if (Array.isArray(v)) {
        for (const item of v) {
          const got = evaluate(
            item,
            step.filter.path.map((field) => ({ field })),
          );
          if (got.length > 0 && String(got[0]) === step.filter.value) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

/** `{.a.b} text {.c}` against obj; missing keys print nothing (kubectl get allows missing keys). */
export function jsonpath(template: string, obj: unknown): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, open);
    const close = template.indexOf('}', open);
    if (close < 0) throw new KubectlError(`error: error parsing jsonpath ${template}, unclosed action`);
    const expr = template.slice(open + 1, close).trim();
    if (/^(range|end)\b/.test(expr)) throw notImplemented('jsonpath range/end');
    out += evaluate(obj, parseExpression(expr))
      .map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)))
      .join(' ');
    i = close + 1;
  }
  return out;
}

// ---- the command line ----

interface Parsed {
  words: string[];
  output?: string;
  namespace?: string;
  flags: Set<string>;
  timeout?: string;
}

const BOOLEAN_FLAGS = new Set(['--ignore-daemonsets', '--delete-emptydir-data', '--delete-local-data', '--force']);

function parseArgs(args: readonly string[]): Parsed {
  const p: Parsed = { words: [], flags: new Set() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (name: string): string => {
      const eq = a.indexOf('=');
      if (eq > 0) return a.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new KubectlError(`error: flag needs an argument: ${name}`);
      return v;
    };
    if (a === '-o' || a.startsWith('-o=') || a === '--output' || a.startsWith('--output='))
      p.output = value(a.split('=')[0]!);
    else if (/^-o[a-z]/.test(a)) p.output = a.slice(2);
    else if (a === '-n' || a.startsWith('-n=') || a === '--namespace' || a.startsWith('--namespace='))
      p.namespace = value(a.split('=')[0]!);
    else if (a.startsWith('--timeout=') || a === '--timeout') p.timeout = value('--timeout');
    else if (a.startsWith('--kubeconfig=') || a === '--kubeconfig')
      value('--kubeconfig'); // the stand-in has one cluster
    else if (BOOLEAN_FLAGS.has(a.split('=')[0]!)) p.flags.add(a.split('=')[0]!);
    else if (a.startsWith('-')) throw notImplemented(`the flag ${a}`);
    else p.words.push(a);
  }
  return p;
}

const NODE_KINDS = new Set(['node', 'nodes', 'no']);
const SERVICE_KINDS = new Set(['svc', 'service', 'services']);

/** `nodes NAME`, `node/NAME` -> [kind, name?] */
function resource(words: readonly string[]): [string, string | undefined] {
  const [first, second, ...more] = words;
  if (!first) throw new KubectlError('error: You must specify the type of resource to get.');
  if (more.length > 0) throw notImplemented('more than one resource name');
  const slash = first.indexOf('/');
  if (slash > 0) {
    if (second !== undefined)
      throw new KubectlError(
        'error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form',
      );
    return [first.slice(0, slash), first.slice(slash + 1)];
  }
  return [first, second];
}

function render(
  p: Parsed,
  one: unknown | undefined,
  all: unknown[],
  name: (o: unknown) => string,
  tableText: () => string,
): string {
  const out = p.output;
  const target = one ?? list(all);
  if (out === undefined || out === 'wide') return tableText();
  if (out === 'json') return `${JSON.stringify(target, null, 4)}\n`;
  if (out === 'name') return (one === undefined ? all : [one]).map((o) => `${name(o)}\n`).join('');
  const jp = /^jsonpath=(.*)$/s.exec(out);
  if (jp) return jsonpath(jp[1]!.replace(/^'(.*)'$/s, '$1'), target);
  throw notImplemented(`-o ${out}`);
}

function mustState(file: string): ClusterState {
  const s = readClusterState(file);
  if (!s)
    throw new KubectlError(
      'The connection to the server 198.18.0.5:6443 was refused - did you specify the right host or port?',
    );
  return s;
}

function get(file: string, p: Parsed, now: number): KubectlResult {
  const [kind, name] = resource(p.words.slice(1));
  const s = mustState(file);
  if (NODE_KINDS.has(kind)) {
    const nodes = Object.values(s.nodes).sort((a, b) => a.name.localeCompare(b.name));
    const chosen =
      name === undefined
        ? nodes
        : [
            s.nodes[name] ??
              (() => {
                throw notFound('nodes', name);
              })(),
          ];
    if (chosen.length === 0 && (p.output === undefined || p.output === 'wide'))
      return { code: 0, stdout: '', stderr: 'No resources found\n' };
    const stdout = render(
      p,
      name === undefined ? undefined : nodeObject(chosen[0]!),
      chosen.map(nodeObject),
      (o) => `node/${(o as { metadata: { name: string } }).metadata.name}`,
      () => table(nodeRows(chosen, p.output === 'wide', now)),
    );
    return { code: 0, stdout, stderr: '' };
  }
  if (SERVICE_KINDS.has(kind)) {
    const ns = p.namespace ?? 'default';
    const services = ns === 'kube-system' ? [dnsServiceObject(s)] : [];
    if (name !== undefined && (ns !== 'kube-system' || name !== 'kube-dns')) throw notFound('services', name);
    if (services.length === 0 && (p.output === undefined || p.output === 'wide'))
      return { code: 0, stdout: '', stderr: `No resources found in ${ns} namespace.\n` };
    const rows = [
      ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', ...(p.output === 'wide' ? ['SELECTOR'] : [])],
      ...services.map(() => [
        'kube-dns',
        'ClusterIP',
        s.dnsServiceIP,
        '<none>',
        '53/UDP,53/TCP,9153/TCP',
        '10d',
        ...(p.output === 'wide' ? ['k8s-app=kube-dns'] : []),
      ]),
    ];
    const stdout = render(
      p,
      name === undefined ? undefined : services[0],
      services,
      () => 'service/kube-dns',
      () => table(rows),
    );
    return { code: 0, stdout, stderr: '' };
  }
  throw notImplemented(`get ${kind}`);
}

function oneNode(p: Parsed, verb: string): string {
  const names = p.words.slice(1);
  if (names.length !== 1) throw notImplemented(`${verb} with ${names.length} node names (give exactly one)`);
  return names[0]!.replace(/^(node|nodes|no)\//, '');
}

function setUnschedulable(file: string, name: string, value: boolean): boolean {
  return updateClusterState(file, (s) => {
    const n = s.nodes[name];
    if (!n) throw notFound('nodes', name);
    if (n.unschedulable === value) return false;
    n.unschedulable = value;
    n.updatedAt = new Date().toISOString();
    return true;
  });
}

export function kubectl(file: string, args: readonly string[], now = Date.now()): KubectlResult {
  try {
    const p = parseArgs(args);
    const verb = p.words[0];
    mustState(file);
    switch (verb) {
      case 'get':
        return get(file, p, now);
      case 'cordon':
      case 'uncordon': {
        const name = oneNode(p, verb);
        const changed = setUnschedulable(file, name, verb === 'cordon');
        return { code: 0, stdout: `node/${name} ${changed ? '' : 'already '}${verb}ed\n`, stderr: '' };
      }
      case 'drain': {
        // No pods are modelled: cordoning is all there is, and nothing is evicted.
        const name = oneNode(p, verb);
        const changed = setUnschedulable(file, name, true);
        return {
          code: 0,
          stdout: `node/${name} ${changed ? '' : 'already '}cordoned\nnode/${name} drained\n`,
          stderr: '',
        };
      }
      case 'delete': {
        const [kind, name] = resource(p.words.slice(1));
        if (!NODE_KINDS.has(kind)) throw notImplemented(`delete ${kind}`);
        if (name === undefined) throw notImplemented('delete without a node name');
        updateClusterState(file, (s) => {
          if (!s.nodes[name]) throw notFound('nodes', name);
          delete s.nodes[name];
        });
        return { code: 0, stdout: `node "${name}" deleted\n`, stderr: '' };
      }
      default:
        throw notImplemented(verb === undefined ? 'kubectl without a command' : `"${verb}"`);
    }
  } catch (e) {
    if (e instanceof KubectlError) return { code: 1, stdout: '', stderr: `${e.message}\n` };
    throw e;
  }
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--state');
  const file = at >= 0 ? argv[at + 1] : undefined;
  if (!file) {
    process.stderr.write('kubectl stand-in: --state FILE is required (the wrapper gives it)\n');
    process.exitCode = 64;
    return;
  }
  const result = kubectl(file, [...argv.slice(0, at), ...argv.slice(at + 2)]);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
