// Runs a compiled graph: builds every step it can before any host is touched (prebuildSteps), then
// hands the graph to the scheduler (scheduler.ts) and assembles the run report.
import type { AnyStep } from '../core/step.js';
import type { Inventory } from '../inventory/model.js';
import type { TaskGraph } from '../playbook/compile.js';
import { summarize, type HostReport, type RunReport } from '../report/model.js';
import { REPORT_SCHEMA_VERSION } from '../report/schema-version.js';
import { ContextFactory, OutputStore, UnknownOutput } from './context.js';
import { Scheduler, type SchedulerOptions } from './scheduler.js';
import { buildStep } from './step-lifecycle.js';
import { StepBuildError } from './user-step.js';

export { isBenignSkip, type RunEvent } from './scheduler.js';

export interface RunOptions extends SchedulerOptions {
  extraVars?: Readonly<Record<string, unknown>>;
  signal?: AbortSignal;
}

/** Builds every step that does not need outputs, so bad options fail before any host is touched. */
export function prebuildSteps(
  graph: TaskGraph,
  inventory: Inventory,
  extraVars: Readonly<Record<string, unknown>> = {},
): Map<string, AnyStep> {
  const steps = new Map<string, AnyStep>();
  const env = { contexts: new ContextFactory(inventory, new OutputStore(), extraVars), steps };
  for (const node of graph.nodes) {
    try {
      buildStep(node, env);
    } catch (e) {
      if (e instanceof UnknownOutput) continue;
      const err = e as Error;
      const of = err instanceof StepBuildError ? ` of playbook ${graph.playbook.name}` : '';
      err.message = `task '${node.task}'${of} for host ${node.target.name}: ${err.message}`;
      throw err;
    }
  }
  return steps;
}

export async function runGraph(
  graph: TaskGraph,
  inventory: Inventory,
  steps: Map<string, AnyStep>,
  options: RunOptions,
): Promise<RunReport> {
  const startedAt = new Date();
  const outputs = new OutputStore();
  const contexts = new ContextFactory(inventory, outputs, options.extraVars ?? {});
  const scheduler = new Scheduler(graph, steps, options, { contexts, outputs });
  const names = graph.hosts.map((h) => h.name);
  options.onEvent?.({
    type: 'run-start',
    playbook: graph.playbook.name,
    mode: options.mode,
    hosts: names,
    inventory: inventory.file,
  });
  await scheduler.run(options.signal);
  const hosts: Record<string, HostReport> = {};
  for (const h of graph.hosts) hosts[h.name] = scheduler.hostReport(h.name);
  const report: RunReport = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'run',
    playbook: graph.playbook.name,
    mode: options.mode,
    startedAt: startedAt.toISOString(),
    durationMs: Date.now() - startedAt.getTime(),
    interrupted: scheduler.interrupted,
    hosts,
    summary: summarize(hosts),
  };
  options.onEvent?.({ type: 'run-done', report });
  return report;
}
