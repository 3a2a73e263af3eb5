// `play PLAYBOOK`: load, compile and check everything, then connect and run. Nothing touches a
// host before the inventory, the playbook, every step's options and every secret are valid.
import { writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { resolveSecrets } from '../inventory/load.js';
import { compileGraph } from '../playbook/compile.js';
import { loadPlaybook, resolvePlaybook } from '../playbook/load.js';
import { exitCode, type RunReport } from '../report/model.js';
import { LiveRenderer } from '../report/live.js';
import { CompactRenderer, type Renderer } from '../report/renderer.js';
import { prebuildSteps, runGraph } from '../run/run-graph.js';
import { ConnectionPool } from '../transport/pool.js';
import { parseExtraVars } from './extra-vars.js';
import { openInventory } from './open-inventory.js';

export interface RunArgs {
  playbook: string;
  inventory?: string;
  limit?: string;
  check: boolean;
  diff: boolean;
  forks: number;
  timeout: number;
  report?: string;
  json: boolean;
  extraVars: string[];
  acceptNew: boolean;
  knownHosts?: string;
  /** Live (listr2) view: 'auto' picks it on a terminal for up to 20 hosts. */
  live: 'auto' | 'never';
}

/** Up to this many hosts a terminal gets the live view; beyond, one line per host reads better. */
const LIVE_MAX_HOSTS = 20;

export async function runCommand(args: RunArgs, out: Writable, err: Writable, signal?: AbortSignal): Promise<{ code: number; report: RunReport }> {
  const inventory = openInventory(args.inventory, err);
  const playbook = await loadPlaybook(resolvePlaybook(args.playbook));
  const graph = compileGraph(playbook, inventory, { limit: args.limit });
  const extraVars = parseExtraVars(args.extraVars);
  const steps = prebuildSteps(graph, inventory, extraVars);
  const secrets = new Map(graph.hosts.map((h) => [h.name, resolveSecrets(h)]));

  const pool = new ConnectionPool({ knownHostsFile: args.knownHosts, acceptNew: args.acceptNew });
  const view = args.json ? err : out;
  const title = `${playbook.name}${args.check ? ' (check)' : ''}`;
  const useLive = args.live === 'auto' && (view as NodeJS.WriteStream).isTTY === true && graph.hosts.length <= LIVE_MAX_HOSTS;
  const renderer: Renderer = useLive
    ? new LiveRenderer({ out: view, diff: args.diff, title })
    : new CompactRenderer({ out: view, diff: args.diff, title });
  renderer.start(graph.hosts.map((h) => h.name));
  let report: RunReport;
  try {
    report = await runGraph(graph, inventory, steps, {
      mode: args.check ? 'check' : 'apply',
      forks: args.forks,
      timeoutMs: args.timeout * 1000,
      connect: (host) => pool.get(host, secrets.get(host.name)!),
      extraVars,
      signal,
      onEvent: (e) => renderer.onEvent(e),
    });
  } finally {
    await pool.closeAll();
  }
  await renderer.finish(report);
  const json = JSON.stringify(report, null, 2) + '\n';
  if (args.report) writeFileSync(args.report, json);
  if (args.json) out.write(json);
  return { code: exitCode(report), report };
}
