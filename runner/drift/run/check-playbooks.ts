// The check half of a drift run: each drift-checked playbook in check mode over its targeted hosts,
// read as drift items and problems (collect.ts). A playbook of the default set that targets no host
// here is left out with the reason; one named on the command line must fit.
import { PlayError, UsageError } from '../../core/errors.js';
import { resolveSecrets } from '../../inventory/load.js';
import type { Inventory } from '../../inventory/model.js';
import { compileGraph } from '../../playbook/compile.js';
import type { Playbook } from '../../playbook/define.js';
import { listPlaybookFiles, loadPlaybook, resolvePlaybook } from '../../playbook/load.js';
import type { RunOutputs } from '../../report/run-output.js';
import { prebuildSteps, runGraph } from '../../run/run-graph.js';
import type { RunConnections } from '../../transport/kept-pool.js';
import { collect, type Collected } from '../collect.js';
import type { SkippedPlaybook } from '../model.js';
import { skippedPlaybook } from '../skipped.js';
import type { DriftRunOptions } from './options.js';

export interface CheckedPlaybook {
  readonly pb: Playbook;
  readonly collected: Collected;
  readonly hosts: string[];
}

/** The playbooks named, or every one that declares `drift: true`. */
export async function drifted(names: readonly string[]): Promise<Playbook[]> {
  if (names.length > 0) return Promise.all(names.map(async (n) => loadPlaybook(resolvePlaybook(n))));
  const all = await Promise.all(listPlaybookFiles().map((f) => loadPlaybook(f)));
  const chosen = all.filter((p) => p.drift === true);
  if (chosen.length === 0) throw new UsageError('no playbook declares drift: true; name the playbooks to check');
  return chosen;
}

/** Every playbook, one after another, over the run's connections. */
export async function checkPlaybooks(
  playbooks: readonly Playbook[],
  inventory: Inventory,
  args: DriftRunOptions,
  pool: RunConnections,
  outputs: RunOutputs,
): Promise<{ results: CheckedPlaybook[]; skipped: SkippedPlaybook[] }> {
  const results: CheckedPlaybook[] = [];
  const skipped: SkippedPlaybook[] = [];
  for (const pb of playbooks) {
    const r = await checkPlaybook(pb, inventory, args, pool, outputs);
    if ('skipped' in r) skipped.push(r.skipped);
    else results.push({ pb, ...r });
  }
  return { results, skipped };
}

/** One playbook in check mode over its targeted hosts. */
async function checkPlaybook(
  pb: Playbook,
  inventory: Inventory,
  args: DriftRunOptions,
  pool: RunConnections,
  outputs: RunOutputs,
): Promise<{ collected: Collected; hosts: string[] } | { skipped: SkippedPlaybook }> {
  let graph: ReturnType<typeof compileGraph>;
  try {
    graph = compileGraph(pb, inventory, { limit: args.limit });
  } catch (e) {
    // Of the default set, a playbook with no host in this inventory (or this --limit) has nothing to
    // check; a playbook named on the command line must fit.
    if (args.playbooks.length === 0 && e instanceof PlayError)
      return { skipped: skippedPlaybook(pb, inventory, args.limit, e) };
    throw e;
  }
  if (graph.hosts.length === 0) return { skipped: skippedPlaybook(pb, inventory, args.limit) };
  const steps = prebuildSteps(graph, inventory, {});
  const secrets = new Map(graph.hosts.map((h) => [h.name, resolveSecrets(h)]));
  const report = await runGraph(graph, inventory, steps, {
    mode: 'check',
    forks: args.forks,
    timeoutMs: args.timeout * 1000,
    connect: (host) => pool.shell(host, secrets.get(host.name)!),
    release: (host) => void pool.release(host),
    extraVars: {},
    onEvent: (e) => outputs.onEvent(e),
  });
  return { collected: collect(report), hosts: graph.hosts.map((h) => h.name) };
}
