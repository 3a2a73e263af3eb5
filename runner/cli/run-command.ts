// `play PLAYBOOK`: load, compile and check everything, then connect and run. Nothing touches a
// host before the inventory, the playbook, every step's options and every secret are valid.
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { InputError, UsageError } from '../core/errors.js';
import { resolveSecrets } from '../inventory/load.js';
import type { Host } from '../inventory/model.js';
import { compileGraph } from '../playbook/compile.js';
import { loadPlaybook, resolvePlaybook } from '../playbook/load.js';
import { exitCode, type RunReport } from '../report/model.js';
import { LiveRenderer } from '../report/live.js';
import { CompactRenderer, type Renderer } from '../report/renderer.js';
import { RunOutputs } from '../report/run-output.js';
import { prebuildSteps, runGraph } from '../run/run-graph.js';
import { ConnectionPool } from '../transport/pool.js';
import { keyFileCheck, type KeyProblem } from '../transport/ssh-auth.js';
import { flagOf } from './coerce.js';
import { listText } from './list-command.js';
import { type PartArgs, refuseInRollingRun } from './part-options.js';
import { checkStepTerminal, StepPrompt } from './step-prompt.js';
import { parseExtraVars } from './extra-vars.js';
import { configuredPoolOptions } from '../ansible-config/run-settings.js';
import { inventoryLine } from './inventory-path.js';
import { openInventorySource } from './open-inventory.js';
import type { RollingOverrides } from '../rolling/policy.js';
import type { VaultKeyring } from '../vault/keyring.js';
import type { ConnectionSettings } from '../inventory/connection-defaults.js';
import { openVault } from '../vault/passwords.js';

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
  /** The vault passwords (openVault); absent: ANSIBLE_VAULT_PASSWORD_FILE's, if set (`play resume`). */
  vault?: VaultKeyring;
  /** -u, --private-key, -b, -k, -K... (connection-flags.ts): defaults under the inventory's vars. */
  connection?: ConnectionSettings;
  acceptNew: boolean;
  knownHosts?: string;
  /** Live (listr2) view: 'auto' picks it on a terminal for up to 20 hosts. */
  live: 'auto' | 'never';
  /** -v count (0-3), --events FILE|-, --log FILE: runner/report/run-output.ts. */
  verbosity?: number;
  events?: string;
  log?: string;
  /** Rolling runs (a playbook with `rolling`, or --serial): docs/rolling.md. */
  rolling?: {
    overrides: RollingOverrides;
    resume: boolean;
    allowChanged?: boolean;
    state?: string;
    resumeRun?: number;
    /** Drain a node the preflight predicts to block instead of refusing it. */
    tryBlocked?: boolean;
  };
  /** --tags, --skip-tags, --start-at-task, --step, --list-*: part-options.ts. */
  part?: PartArgs;
}

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
  RunOutputs.consoleOf(args, out, err).write(inventoryLine(source));
  if (playbook.rolling || rolling?.overrides.serial !== undefined || rolling?.resume) {
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
    trace: outputs.connectionTrace(),
  });
  const shown = { out: outputs.view, diff: args.diff, title, failedOutput: !args.verbosity };
  const renderer: Renderer = useLive ? new LiveRenderer(shown) : new CompactRenderer(shown);
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

/** Every targeted host's private key files, and its jump host's, read now: a missing or unusable key is an
 *  inventory problem (65) found before any host is touched, not an unreachable host halfway through a run.
 *  ssh_config's IdentityFiles may be missing or encrypted (ssh passes over those, the agent may hold them),
 *  but not unprotected (readable by others) or something other than a key. */
export function checkKeyFiles(hosts: readonly Host[]): void {
  const problems = new Map<string, KeyProblem | undefined>();
  /** Per key file with a problem: how the first host to use it names it, and every host using it. */
  const culprits = new Map<string, { first: string; names: string[] }>();
  for (const h of hosts) {
    const { keyFile, keyFrom, jump, identityFiles } = h.connection;
    const bastion = `its jump host ${jump?.hostName}'s`;
    const uses: (readonly [file: string | undefined, named: string, fromConfig?: true])[] = [
      [keyFile, `host ${h.name}: ${keyFrom ?? 'ansible_ssh_private_key_file'} ${keyFile}`],
      [jump?.keyFile, `host ${h.name}: ${bastion} key file ${jump?.keyFile} (${jump?.keyFrom})`],
      ...(identityFiles ?? []).map(
        (f) => [f.file, `host ${h.name}: IdentityFile ${f.file} (${f.from})`, true] as const,
      ),
      ...(jump?.identityFiles ?? []).map(
        (f) => [f.file, `host ${h.name}: ${bastion} IdentityFile ${f.file} (${f.from})`, true] as const,
      ),
    ];
    for (const [file, named, fromConfig] of uses) {
      if (!file) continue;
      if (!problems.has(file)) problems.set(file, keyFileCheck(file));
      const p = problems.get(file);
      if (!p || (fromConfig && (p.kind === 'missing' || p.kind === 'encrypted'))) continue;
      const c = culprits.get(file) ?? { first: named, names: [] };
      if (!c.names.includes(h.name)) c.names.push(h.name);
      culprits.set(file, c);
    }
  }
  const [first] = culprits;
  if (!first) return;
  const [file, { first: named, names }] = first;
  const others =
    names.length > 1
      ? ` (also for ${names.slice(1, 6).join(', ')}${names.length > 6 ? ` and ${names.length - 6} more` : ''})`
      : '';
  const more =
    culprits.size > 1
      ? `; ${culprits.size - 1} other key file${culprits.size > 2 ? 's have' : ' has'} problems too`
      : '';
  throw new InputError(`${named}: ${problems.get(file)!.problem}${others}${more}`);
}

/** --report's directory must exist and be writable before the run, not found out after it. */
export function checkReportFile(file: string): void {
  const dir = dirname(resolve(file));
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--report ${file}: ${dir} is not a directory`);
    accessSync(dir, constants.W_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--report ${file}: ${code === 'ENOENT' ? `directory ${dir} does not exist` : `cannot write in ${dir} (${code})`}`,
    );
  }
}
