// The cluster as a rolling run sees it: cordon, drain and uncordon a node, and read whether nodes are
// Ready and schedulable, with kubectl on the control host over its SSH session (as the onboarding's
// kubectl steps run, delegated to a master). Every value reaches the shell quoted (sh``).
//
// Drain is kubectl's own: eviction through the Eviction API (a PodDisruptionBudget that would be
// violated answers 429 and kubectl retries every 5 s until --timeout), DaemonSet pods ignored,
// emptyDir pods allowed (--ignore-daemonsets --delete-emptydir-data); pods without a controller still
// stop it (no --force: deleting a bare pod loses it for good, an operator decides that). When a drain
// fails, the pods left on the node and the budgets that hold them are read back and named
// (blocking.ts), since kubectl's timeout message names only the pods.
import { InputError, RemoteError } from '../core/errors.js';
import { showValue, stringVar, type VarsOf } from '../playbook/host-vars.js';
import { sh } from '../core/quote.js';
import { redact } from '../core/secret.js';
import type { Remote } from '../core/step.js';
import { blockingBudgets, type PdbObject, type PodObject } from './blocking.js';
import type { DrainFlags } from './preflight/drain-simulation.js';
import { type ClusterSnapshot, clusterSnapshot } from './preflight/snapshot.js';

/** What play's drain passes to kubectl drain; the preflight simulates the same. */
export const DRAIN_FLAGS: DrainFlags = Object.freeze({
  ignoreDaemonSets: true,
  deleteEmptyDirData: true,
  force: false,
});

/** kubectl's path on a control host: its host var `kubectl` (default: kubectl from PATH). Shared
 *  with the playbooks' delegated kubectl steps (playbooks/shared/cluster.ts). */
export function kubectlOf(runsOn: VarsOf): string {
  const k = stringVar(runsOn, 'kubectl', 'kubectl');
  if (/\s/.test(k) || k.startsWith('-'))
    throw new InputError(`kubectl of ${runsOn.name} must be the path of kubectl, got ${showValue(k)}`);
  return k;
}

export interface NodeStatus {
  readonly name: string;
  readonly ready: boolean;
  /** Cordoned. */
  readonly unschedulable: boolean;
}

export type DrainOutcome =
  | { readonly ok: true; readonly evicted: number }
  | {
      readonly ok: false;
      readonly timedOut: boolean;
      /** One line for the report: what kubectl said, the pods left and the budgets that hold them. */
      readonly message: string;
      readonly podsLeft: readonly string[];
      readonly budgets: readonly string[];
    };

/** What the rolling run needs of the cluster (kubectl over SSH here; a test may give its own). */
export interface ClusterOps {
  /** null: the cluster has no such node. */
  node(name: string): Promise<NodeStatus | null>;
  nodes(): Promise<NodeStatus[]>;
  cordon(name: string): Promise<void>;
  uncordon(name: string): Promise<void>;
  drain(name: string, timeoutSec: number): Promise<DrainOutcome>;
  /** Pods, PodDisruptionBudgets and nodes, read at once: what the preflight simulates drains on. */
  snapshot(): Promise<ClusterSnapshot>;
}

interface NodeJson {
  metadata?: { name?: string };
  spec?: { unschedulable?: boolean };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** A node object of `kubectl get node(s) -o json`, as the run needs it. */
export function nodeStatus(o: NodeJson): NodeStatus {
  const name = o.metadata?.name;
  if (typeof name !== 'string') throw new Error('kubectl returned a node without metadata.name');
  const ready = (o.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  return { name, ready, unschedulable: o.spec?.unschedulable === true };
}

function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`${what} did not return JSON: ${text.slice(0, 200)}`);
  }
}

/** Pods named in kubectl drain's errors: `error when evicting pods/"web-1" -n "default"...`. */
export function podsInDrainErrors(stderr: string): string[] {
  const pods = new Set<string>();
  for (const m of stderr.matchAll(/error when evicting pods\/"([^"]+)" -n "([^"]+)"/g)) pods.add(`${m[2]}/${m[1]}`);
  return [...pods];
}

/** Pods a successful drain evicted: its `pod/NAME evicted` lines (kubectl 1.20 ends with
 *  `node/NAME evicted` where 1.32 says `drained`: not a pod). */
export function evictedPods(stdout: string): number {
  return (stdout.match(/^pod\/\S+ evicted$/gm) ?? []).length;
}

export class KubectlCluster implements ClusterOps {
  constructor(
    private readonly remote: Remote,
    private readonly kubectl: string,
  ) {}

  async #run(args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
    const r = await this.remote.run(sh`${this.kubectl} ${args}`);
    return { stdout: r.stdout, stderr: redact(r.stderr), code: r.code };
  }

  async #must(args: readonly string[], what: string): Promise<string> {
    const r = await this.#run(args);
    if (r.code !== 0)
      throw new RemoteError(
        `${what} on ${this.remote.name} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().slice(-1000)}`,
        r.code,
        r.stderr,
      );
    return r.stdout;
  }

  async node(name: string): Promise<NodeStatus | null> {
    const r = await this.#run(['get', 'node', name, '-o', 'json']);
    if (r.code !== 0 && /NotFound|not found/.test(r.stderr)) return null;
    if (r.code !== 0)
      throw new RemoteError(`kubectl get node ${name} on ${this.remote.name} failed: ${r.stderr.trim()}`, r.code);
    return nodeStatus(parseJson<NodeJson>(r.stdout, `kubectl get node ${name}`));
  }

  async nodes(): Promise<NodeStatus[]> {
    const out = await this.#must(['get', 'nodes', '-o', 'json'], 'kubectl get nodes');
    return (parseJson<{ items?: NodeJson[] }>(out, 'kubectl get nodes').items ?? []).map(nodeStatus);
  }

  async cordon(name: string): Promise<void> {
    await this.#must(['cordon', name], `kubectl cordon ${name}`);
  }

  async uncordon(name: string): Promise<void> {
    await this.#must(['uncordon', name], `kubectl uncordon ${name}`);
  }

  async drain(name: string, timeoutSec: number): Promise<DrainOutcome> {
    const r = await this.#run([
      'drain',
      name,
      ...(DRAIN_FLAGS.ignoreDaemonSets ? ['--ignore-daemonsets'] : []),
      ...(DRAIN_FLAGS.deleteEmptyDirData ? ['--delete-emptydir-data'] : []),
      ...(DRAIN_FLAGS.force ? ['--force'] : []),
      `--timeout=${timeoutSec}s`,
    ]);
    if (r.code === 0) return { ok: true, evicted: evictedPods(r.stdout) };
    const timedOut = /global timeout reached/.test(r.stderr);
    const named = podsInDrainErrors(r.stderr);
    const { podsLeft, budgets } = await this.#whatHolds(name, named);
    const firstError = /error: (unable to drain node[^\n]*)/.exec(r.stderr)?.[1] ?? r.stderr.trim().split('\n').pop();
    const parts = [
      timedOut ? `drain timed out after ${timeoutSec}s` : `drain failed: ${firstError ?? `exit ${r.code}`}`,
      podsLeft.length ? `pods still on the node: ${podsLeft.join(', ')}` : '',
      budgets.length ? `held by PodDisruptionBudget ${budgets.join(', ')}` : '',
    ];
    return { ok: false, timedOut, message: parts.filter(Boolean).join('; '), podsLeft, budgets };
  }

  async snapshot(): Promise<ClusterSnapshot> {
    const what = 'kubectl get pods,pdb,nodes';
    const out = await this.#must(['get', 'pods,pdb,nodes', '-A', '-o', 'json'], what);
    return clusterSnapshot(parseJson<{ items?: unknown[] }>(out, what).items ?? []);
  }

  /** The node's pods that a drain would evict and are still there, and the budgets covering them. */
  async #whatHolds(node: string, named: readonly string[]): Promise<{ podsLeft: string[]; budgets: string[] }> {
    try {
      const pods = parseJson<{ items?: PodObject[] }>(
        await this.#must(
          ['get', 'pods', '-A', '--field-selector', `spec.nodeName=${node}`, '-o', 'json'],
          'kubectl get pods',
        ),
        'kubectl get pods',
      ).items;
      const pdbs = parseJson<{ items?: PdbObject[] }>(
        await this.#must(['get', 'pdb', '-A', '-o', 'json'], 'kubectl get pdb'),
        'kubectl get pdb',
      ).items;
      return blockingBudgets(pods ?? [], pdbs ?? [], named);
    } catch {
      // The drain's own message still says what failed; the details are a help, not a must.
      return { podsLeft: [...named], budgets: [] };
    }
  }
}
