// A small simulated cluster for the tests of the Kubernetes API double (lab/cluster/api/, a test double)
// and of play's cluster code: control1 (master) and three Ready Windows workers in a temp state file,
// the double serving it on 127.0.0.1 (started at the first request, closed after the test), and the
// real kubectl in front of it.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClusterState, newClusterState, registerNode } from '../../../lab/cluster/cluster-state.js';
import { readClusterEvents } from '../../../lab/cluster/events.js';
import { type ApiDouble, type HttpAnswer, type Run, startApiDouble } from './api-double.js';

export const WORKERS = ['node001', 'node002', 'node003'] as const;

export function baseCluster(): ClusterState {
  const s = newClusterState();
  const at = new Date(Date.now() - 86_400_000);
  registerNode(s, { name: 'control1', ready: true, roles: ['master'], os: 'linux', addresses: [] }, at);
  for (const [i, name] of WORKERS.entries()) {
    registerNode(
      s,
      { name, ready: true, os: 'windows', addresses: [{ type: 'InternalIP', address: `198.18.1.${i + 1}` }] },
      at,
    );
  }
  return s;
}

export function cluster(t: ExecutionContext, edit: (s: ClusterState) => void = () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'play-cluster-'));
  const file = join(dir, 'cluster-state.json');
  const s = baseCluster();
  edit(s);
  writeFileSync(file, JSON.stringify(s));
  let api: Promise<ApiDouble> | undefined;
  const double = () => (api ??= startApiDouble(file));
  t.teardown(async () => {
    if (api) await (await api).close();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    file,
    /** The real kubectl against the double. */
    kubectl: async (...args: string[]): Promise<Run> => (await double()).kubectl(args),
    /** The same, given `stdin` (`kubectl replace -f -`). */
    kubectlWithInput: async (stdin: string, ...args: string[]): Promise<Run> =>
      (await double()).kubectl(args, undefined, stdin),
    /** An HTTPS request to the double. */
    request: async (...a: Parameters<ApiDouble['request']>): Promise<HttpAnswer> => (await double()).request(...a),
    read: () => JSON.parse(readFileSync(file, 'utf8')) as ClusterState,
    events: () => readClusterEvents(file),
    write: (st: ClusterState) => writeFileSync(file, JSON.stringify(st)),
  };
}

/** Where each pod is: `namespace/name@node` (Pending: `@-`), sorted. */
export const placement = (s: ClusterState) =>
  Object.values(s.pods ?? {})
    .map((p) => `${p.namespace}/${p.name}@${p.nodeName ?? '-'}`)
    .sort();
