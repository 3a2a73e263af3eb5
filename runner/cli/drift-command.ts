// `play drift [PLAYBOOK...]`: the plan (probe + pure diff) of each drift-checked playbook on every
// targeted host, never an apply; each item compared with the last judgement of its host (new,
// persisting, resolved), recorded in the state store, and reported. Exit codes in model.ts.
import type { Writable } from 'node:stream';
import { InputError, PlayError, UsageError } from '../core/errors.js';
import { classify } from '../drift/classify.js';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { type Checked, collect, type Collected, mergeObserved } from '../drift/collect.js';
import { notificationOf, postNotification } from '../drift/notify.js';
import { renderHtml } from '../drift/report/html.js';
import { renderJson } from '../drift/report/json.js';
import { renderJunit } from '../drift/report/junit.js';
import { renderMarkdown } from '../drift/report/markdown.js';
import { renderMetrics } from '../drift/report/metrics.js';
import { countItems, type DriftRun, driftExit, type SkippedPlaybook } from '../drift/model.js';
import { skippedPlaybook } from '../drift/skipped.js';
import { driftRunText } from '../drift/text.js';
import {
  applyWaivers,
  defaultWaiversFile,
  inventoryResolver,
  loadWaivers,
  loadWaiversIfPresent,
} from '../drift/waivers.js';
import { resolveSecrets } from '../inventory/load.js';
import type { Inventory } from '../inventory/model.js';
import { compileGraph } from '../playbook/compile.js';
import type { Playbook } from '../playbook/define.js';
import { listPlaybookFiles, loadPlaybook, resolvePlaybook } from '../playbook/load.js';
import { prebuildSteps, runGraph } from '../run/run-graph.js';
import { openStore } from '../state/open-store.js';
import { controllerName } from '../state/process-identity.js';
import type { StateStore } from '../state/store.js';
import { ConnectionPool } from '../transport/pool.js';
import { type KeptConnections, type RunConnections, runConnections } from '../transport/kept-pool.js';
import { configuredPoolOptions } from '../ansible-config/run-settings.js';
import { inventoryLine } from './inventory-path.js';
import { openInventorySource } from './open-inventory.js';
import type { ConnectionSettings } from '../inventory/connection-defaults.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { RunOutputs } from '../report/run-output.js';

export interface DriftArgs {
  playbooks: string[];
  /** -i, given once or several times. */
  inventory?: string | readonly string[];
  limit?: string;
  forks: number;
  timeout: number;
  state?: string;
  /** `90d` (days) or a number of runs. */
  keep?: string;
  json: boolean;
  /** A waivers file; default waivers.yml beside the inventory (absent: no waivers). */
  waivers?: string;
  /** A URL to post a JSON message to when a run has new or resolved items. */
  notify?: string;
  /** Report files to write (each atomically: temp file, then rename). */
  junit?: string;
  html?: string;
  markdown?: string;
  metrics?: string;
  acceptNew: boolean;
  knownHosts?: string;
  /** The vault passwords, read once for every run of a schedule. */
  vault?: VaultKeyring;
  /** -u, --private-key, -b, -k, -K... (connection-flags.ts), read once for every run of a schedule. */
  connection?: ConnectionSettings;
  /** A schedule's connections, kept between its runs (kept-pool.ts); absent: this run opens and closes its own. */
  kept?: KeptConnections;
  /** -v count (0-3), --events FILE|-, --log FILE: what the check runs show and keep, as a playbook run's. */
  verbosity?: number;
  events?: string;
  log?: string;
  /** A schedule's outputs, opened once so that --events and --log get every tick's runs; absent: this run's own. */
  outputs?: RunOutputs;
}

/** The outputs of drift runs: the files opened now (one that cannot be written: exit 64, before any host). */
export function driftOutputs(args: DriftArgs, out: Writable, err: Writable): RunOutputs {
  const view = RunOutputs.consoleOf(args, out, err);
  return new RunOutputs({ ...args, verbosity: args.verbosity ?? 0, view, stdout: out, live: false });
}

/** The playbooks named, or every one that declares `drift: true`. */
async function drifted(names: readonly string[]): Promise<Playbook[]> {
  if (names.length > 0) return Promise.all(names.map(async (n) => loadPlaybook(resolvePlaybook(n))));
  const all = await Promise.all(listPlaybookFiles().map((f) => loadPlaybook(f)));
  const chosen = all.filter((p) => p.drift === true);
  if (chosen.length === 0) throw new UsageError('no playbook declares drift: true; name the playbooks to check');
  return chosen;
}

/** --keep 90d | 30 (runs). */
export function parseKeep(text: string | undefined, now: Date): { olderThan?: Date; keepCount?: number } {
  if (text === undefined) return { olderThan: new Date(now.getTime() - 90 * 86_400_000) };
  const days = /^(\d+)d$/.exec(text);
  if (days) return { olderThan: new Date(now.getTime() - Number(days[1]) * 86_400_000) };
  if (/^\d+$/.test(text) && Number(text) >= 1) return { keepCount: Number(text) };
  throw new UsageError(`--keep '${text}': expected a number of days like 90d, or a number of runs like 500`);
}

/** One playbook in check mode over its targeted hosts. */
async function checkPlaybook(
  pb: Playbook,
  inventory: Inventory,
  args: DriftArgs,
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

export async function driftCommand(args: DriftArgs, out: Writable, err: Writable): Promise<number> {
  const outputs = args.outputs ?? driftOutputs(args, out, err);
  try {
    return await driftOnce(args, outputs, out, err);
  } finally {
    if (!args.outputs) outputs.close();
  }
}

async function driftOnce(args: DriftArgs, outputs: RunOutputs, out: Writable, err: Writable): Promise<number> {
  const started = new Date();
  const keep = parseKeep(args.keep, started);
  // The human view: stderr when stdout carries JSON (--json, --events -).
  const view = RunOutputs.consoleOf(args, out, err);
  const playbooks = await drifted(args.playbooks);
  const { inventory, source } = openInventorySource(args.inventory, err, args.vault, args.connection);
  view.write(inventoryLine(source));
  // Waivers are read before any host is probed: a mistake in the file stops the run at once (65).
  const waivers = args.waivers ? loadWaivers(args.waivers) : loadWaiversIfPresent(defaultWaiversFile(inventory.file));
  const store = await openStore(args.state);
  try {
    const pool = await runConnections(
      args.kept,
      () =>
        new ConnectionPool({
          knownHostsFile: args.knownHosts,
          ...configuredPoolOptions(args.acceptNew, err),
          trace: outputs.connectionTrace(),
        }),
    );
    const results: { pb: Playbook; collected: Collected; hosts: string[] }[] = [];
    const skipped: SkippedPlaybook[] = [];
    try {
      for (const pb of playbooks) {
        const r = await checkPlaybook(pb, inventory, args, pool, outputs);
        if ('skipped' in r) skipped.push(r.skipped);
        else results.push({ pb, ...r });
      }
    } finally {
      await pool.done();
    }
    if (results.length === 0)
      throw new InputError(
        `no playbook could be checked: ${skipped.map((s) => `${s.playbook}: ${s.reason}`).join('; ')}`,
      );
    // With --json stdout is the report: the console still hears of what was left out.
    if (args.json) for (const s of skipped) err.write(`play: warning: ${s.playbook} not checked: ${s.reason}\n`);
    const order = inventory.hosts.map((h) => h.name);
    const targeted = new Set(results.flatMap((r) => r.hosts));
    const hosts = order.filter((h) => targeted.has(h));
    const problems = dedupeProblems(results.flatMap((r) => r.collected.problems));
    const names = results.map((r) => r.pb.name);
    const previous = await store.drift.previousItems(hosts, names);
    const now = started.toISOString();
    const observed = mergeObserved(results.map((r) => r.collected.items));
    const checked = new Set(results.flatMap((r) => r.collected.checked.map((c) => c.key)));
    const classified = classify(observed, previous, checked, now, order);
    const { items, warnings } = applyWaivers(classified, waivers, started, inventoryResolver(inventory));
    const counts = countItems(items, problems);
    const run: Omit<DriftRun, 'id'> = {
      startedAt: now,
      durationMs: Date.now() - started.getTime(),
      playbooks: names,
      skipped,
      // As given with -i; otherwise the files the other sources (PLAY_INVENTORY, ansible.cfg, ...) named.
      inventory:
        args.inventory !== undefined
          ? [args.inventory].flat().join(',')
          : source.origin.kind === 'lab'
            ? 'lab'
            : source.paths.join(','),
      controller: controllerName(),
      hosts,
      items,
      problems,
      counts,
      exitCode: driftExit(counts),
      warnings,
    };
    // The run's id comes from the store: the message is built from what will be saved.
    const saved = await saveOrShow(store, run, view);
    const message = args.notify ? notificationOf(saved) : null;
    if (args.notify && message) {
      const failure = await postNotification(args.notify, message);
      if (failure) {
        saved.notifyError = failure;
        await store.drift.setNotifyError(saved.id, failure);
        err.write(`play: ${failure}\n`);
      }
    }
    await store.drift.prune(keep);
    const checkedCases = results.flatMap((r) => r.collected.checked);
    writeReports(args, saved, checkedCases);
    (args.json ? out : view).write(args.json ? renderJson(saved) : driftRunText(saved));
    return saved.exitCode;
  } finally {
    await store.close();
  }
}

/**
 * Saves the run; when the store fails (a full disk, a read-only file), the run's findings are printed
 * anyway, so the probing is not lost, and the store's error follows (its exit code).
 */
async function saveOrShow(store: StateStore, run: Omit<DriftRun, 'id'>, out: Writable): Promise<DriftRun> {
  try {
    return await store.drift.save(run);
  } catch (e) {
    out.write(driftRunText({ ...run, id: 0 }));
    throw e;
  }
}

/** The report files asked for; a file that cannot be written is a usage error naming it. */
function writeReports(args: DriftArgs, run: DriftRun, checked: Checked[]): void {
  const files: [string | undefined, string, () => string][] = [
    [args.junit, '--junit', () => renderJunit(run, { checked })],
    [args.html, '--html', () => renderHtml(run)],
    [args.markdown, '--markdown', () => renderMarkdown(run)],
    [args.metrics, '--metrics', () => renderMetrics(run)],
  ];
  for (const [file, flag, render] of files) {
    if (!file) continue;
    // Atomic, as node_exporter's textfile collector wants: it never reads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, render());
      renameSync(tmp, file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new UsageError(
        `${flag} ${file}: cannot write it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }
}

/** One problem per host: unreachable wins over failed, the first failure is kept. */
function dedupeProblems(problems: DriftRun['problems']): DriftRun['problems'] {
  const byHost = new Map<string, DriftRun['problems'][number]>();
  for (const p of problems) {
    const had = byHost.get(p.host);
    if (!had || (had.kind === 'failed' && p.kind === 'unreachable')) byHost.set(p.host, p);
  }
  return [...byHost.values()];
}
