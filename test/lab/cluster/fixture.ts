// A small simulated cluster for the in-process tests of the kubectl stand-in (lab/cluster/, a test double):
// control1 (master) and three Ready Windows workers, a temp state file, and the stand-in's handler.
import type { ExecutionContext } from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClusterState, newClusterState, registerNode } from '../../../lab/cluster/cluster-state.js';
import { readClusterEvents } from '../../../lab/cluster/events.js';
import { kubectl } from '../../../lab/cluster/kubectl.js';

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
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'cluster-state.json');
  const s = baseCluster();
  edit(s);
  writeFileSync(file, JSON.stringify(s));
  return {
    file,
    run: (...args: string[]) => kubectl(file, args),
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
