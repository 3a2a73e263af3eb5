// `play PLAYBOOK`: load, compile and check everything, then connect and run. Nothing touches a
// host before the inventory, the playbook, every step's options and every secret are valid.
import { writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { resolveSecrets } from '../inventory/load.js';
import { compileGraph } from '../playbook/compile.js';
import { loadPlaybook, resolvePlaybook } from '../playbook/load.js';
import { exitCode, type RunReport } from '../report/model.js';
import { CompactRenderer, type Renderer } from '../report/renderer.js';
import { RunOutputs } from '../report/run-output.js';
import { headerLine } from '../report/header-line.js';
import { prebuildSteps, runGraph } from '../run/run-graph.js';
import { hotfixKbsByHost, refuseQuarantinedKbs } from '../rolling/quarantine-check.js';
import { ConnectionPool } from '../transport/pool.js';
import { flagOf } from './coerce.js';
import { listText } from './list-command.js';
import { refuseInRollingRun } from './part-options.js';
import { checkStepTerminal, StepPrompt } from './step-prompt.js';
import { parseExtraVars } from './extra-vars.js';
import { configuredPoolOptions } from '../ansible-config/run-settings.js';
import { inventoryLine } from './inventory-path.js';
import { openInventorySource } from './open-inventory.js';
import { openVault } from '../vault/passwords.js';
import type { RunArgs } from './run-args.js';
import { checkKeyFiles, checkReportFile } from './run-checks.js';

export type { RunArgs } from './run-args.js';

/** Up to this many hosts a terminal gets the live view; beyond, one line per host reads better. */
const LIVE_MAX_HOSTS = 20;

export async function runCommand(
  args: RunArgs,
  out: Writable,
  err: Writable,
  signal?: AbortSignal,
): Promise<{ code: number; report?: RunReport }> {
  // A mistyped playbook name (or command) is named before any inventory is looked for.
  const playbookFile = resolvePlaybook(args.playbook);
  const vault = args.vault ?? (await openVault());
  args = { ...args, vault };
  const { inventory, source } = openInventorySource(args.inventory, err, vault, args.connection);
  const playbook = await loadPlaybook(playbookFile);
  const rolling = args.rolling;
  const part = args.part;
  if (part?.list.length) {
    out.write(listText(compileGraph(playbook, inventory, { limit: args.limit, select: part.select }), part.list));
    return { code: 0 };
  }
  // Every run says which inventory it works on and why that one (rolling runs too: they start here).
  const isRolling = playbook.rolling || rolling?.overrides.serial !== undefined || rolling?.resume || rolling?.stage;
  const console = RunOutputs.consoleOf(args, out, err);
  const terminal = (console as NodeJS.WriteStream).isTTY === true;
  const mayBeLive = !isRolling && !args.verbosity && args.live === 'auto';
  console.write(headerLine(inventoryLine(source), { terminal, mayBeLive }, new Date()));
  if (isRolling) {
    const refused = part && refuseInRollingRun(part, playbook.name);
    if (refused) throw refused;
    const { rollingCommand } = await import('./rolling-command.js');
    const r = rolling ?? { overrides: {}, resume: false };
    const code = await rollingCommand({ ...args, ...r }, { playbook, playbookFile, inventory, out, err, signal });
    return { code };
  }
  const given = Object.entries(rolling?.overrides ?? {}).find(([, v]) => v !== undefined);
  if (given)
    throw new UsageError(
      `${playbook.name} is not a rolling playbook: ${flagOf(given[0])} needs --serial (or a playbook with rolling)`,
    );
  const graph = compileGraph(playbook, inventory, { limit: args.limit, select: part?.select });
  if (part?.step) checkStepTerminal(process.stdin);
  const extraVars = parseExtraVars(args.extraVars, process.env, vault);
  const steps = prebuildSteps(graph, inventory, extraVars);
  const secrets = new Map(graph.hosts.map((h) => [h.name, resolveSecrets(h)]));
  checkKeyFiles(graph.hosts);
  if (args.report) checkReportFile(args.report);
  // A KB a rollback quarantined is refused before any host is touched (a check installs nothing).
  if (!args.check) await refuseQuarantinedKbs(hotfixKbsByHost(graph, steps), args.rolling?.state);

  const view = RunOutputs.consoleOf(args, out, err);
  const title = `${playbook.name}${args.check ? ' (check)' : ''}`;
  const prompt = part?.step ? new StepPrompt(process.stdin, view, signal) : undefined;
  const useLive =
    !prompt &&
    !args.verbosity &&
    args.live === 'auto' &&
    (view as NodeJS.WriteStream).isTTY === true &&
    graph.hosts.length <= LIVE_MAX_HOSTS;
  const outputs = new RunOutputs({ ...args, verbosity: args.verbosity ?? 0, view, stdout: out, live: useLive });
  const pool = new ConnectionPool({
    knownHostsFile: args.knownHosts,
    ...configuredPoolOptions(args.acceptNew, err),
    handshakes: { global: args.forks },
    trace: outputs.connectionTrace(),
  });
  const shown = { out: outputs.view, diff: args.diff, title, failedOutput: !args.verbosity };
  // listr2 is loaded only for a live view (a terminal).
  const renderer: Renderer = useLive
    ? new (await import('../report/live.js')).LiveRenderer(shown)
    : new CompactRenderer(shown);
  renderer.start(graph.hosts.map((h) => h.name));
  let report: RunReport;
  try {
    report = await runGraph(graph, inventory, steps, {
      mode: args.check ? 'check' : 'apply',
      forks: args.forks,
      timeoutMs: args.timeout * 1000,
      connect: (host) => pool.shell(host, secrets.get(host.name)!),
      release: (host) => void pool.release(host),
      extraVars,
      signal,
      onEvent: (e) => {
        renderer.onEvent(e);
        outputs.onEvent(e);
      },
      ...(prompt ? { confirm: (task: string) => prompt.confirm(task) } : {}),
    });
  } finally {
    prompt?.close();
    await pool.closeAll();
  }
  await renderer.finish(report);
  outputs.close();
  const json = JSON.stringify(report, null, 2) + '\n';
  if (args.report) {
    try {
      writeFileSync(args.report, json);
    } catch (e) {
      throw new UsageError(
        `--report ${args.report}: cannot write the report (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }
  if (args.json) out.write(json);
  return { code: exitCode(report), report };
}
