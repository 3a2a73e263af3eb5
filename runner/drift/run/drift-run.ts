// `play drift [PLAYBOOK...]`: the plan (probe + pure diff) of each drift-checked playbook on every
// targeted host, never an apply; each item compared with the last judgement of its host (new,
// persisting, resolved), recorded in the state store, and reported. Exit codes in ../model.ts.
import type { Writable } from 'node:stream';
import { InputError } from '../../core/errors.js';
import { RunOutputs } from '../../report/run-output.js';
import { openStore } from '../../state/open-store.js';
import { controllerName } from '../../state/process-identity.js';
import type { StateStore } from '../../state/store.js';
import { type RunConnections, runConnections } from '../../transport/kept-pool.js';
import { ConnectionPool } from '../../transport/pool.js';
import { configuredPoolOptions } from '../../ansible-config/run-settings.js';
import type { DriftRun } from '../model.js';
import { notificationOf, postNotification } from '../notify.js';
import { renderJson } from '../report/json.js';
import { driftRunText } from '../text.js';
import { defaultWaiversFile, inventoryResolver, loadWaivers, loadWaiversIfPresent } from '../waivers.js';
import { checkPlaybooks, drifted } from './check-playbooks.js';
import { judgeRun, runScope } from './judge.js';
import { parseKeep } from './keep.js';
import type { DriftRunOptions, OpenedInventory } from './options.js';
import { driftOutputs } from './outputs.js';
import { writeReports } from './report-files.js';

export async function driftRun(args: DriftRunOptions, out: Writable, err: Writable): Promise<number> {
  const outputs = args.outputs ?? driftOutputs(args, out, err);
  try {
    return await driftOnce(args, outputs, out, err);
  } finally {
    if (!args.outputs) outputs.close();
  }
}

async function driftOnce(args: DriftRunOptions, outputs: RunOutputs, out: Writable, err: Writable): Promise<number> {
  const started = new Date();
  const keep = parseKeep(args.keep, started);
  // The human view: stderr when stdout carries JSON (--json, --events -).
  const view = RunOutputs.consoleOf(args, out, err);
  const playbooks = await drifted(args.playbooks);
  const opened = args.inventories.open(err);
  const { inventory } = opened;
  view.write(opened.line);
  // Waivers are read before any host is probed: a mistake in the file stops the run at once (65).
  const waivers = args.waivers ? loadWaivers(args.waivers) : loadWaiversIfPresent(defaultWaiversFile(inventory.file));
  const store = await openStore(args.state);
  try {
    const pool = await connectionsOf(args, outputs, err);
    let checked: Awaited<ReturnType<typeof checkPlaybooks>>;
    try {
      checked = await checkPlaybooks(playbooks, inventory, args, pool, outputs);
    } finally {
      await pool.done();
    }
    const { results, skipped } = checked;
    if (results.length === 0)
      throw new InputError(
        `no playbook could be checked: ${skipped.map((s) => `${s.playbook}: ${s.reason}`).join('; ')}`,
      );
    // With --json stdout is the report: the console still hears of what was left out.
    if (args.json) for (const s of skipped) err.write(`play: warning: ${s.playbook} not checked: ${s.reason}\n`);
    const order = inventory.hosts.map((h) => h.name);
    const scope = runScope(results, order);
    const previous = await store.drift.previousItems(scope.hosts, scope.playbooks);
    const run = judgeRun({
      results,
      skipped,
      previous,
      waivers,
      resolve: inventoryResolver(inventory),
      order,
      started,
      finished: new Date(),
      inventory: recordedInventory(args, opened),
      controller: controllerName(),
    });
    // The run's id comes from the store: the message is built from what will be saved.
    const saved = await saveOrShow(store, run, view);
    await notify(args, saved, store, err);
    await store.drift.prune(keep);
    writeReports(
      args,
      saved,
      results.flatMap((r) => r.collected.checked),
    );
    (args.json ? out : view).write(args.json ? renderJson(saved) : driftRunText(saved));
    return saved.exitCode;
  } finally {
    await store.close();
  }
}

/** A schedule's kept connections, or this run's own pool. */
function connectionsOf(args: DriftRunOptions, outputs: RunOutputs, err: Writable): Promise<RunConnections> {
  return runConnections(
    args.kept,
    () =>
      new ConnectionPool({
        knownHostsFile: args.knownHosts,
        ...configuredPoolOptions(args.acceptNew, err),
        handshakes: { global: args.forks },
        trace: outputs.connectionTrace(),
      }),
  );
}

/** As given with -i; otherwise the files the other sources (PLAY_INVENTORY, ansible.cfg, ...) named. */
function recordedInventory(args: DriftRunOptions, opened: OpenedInventory): string {
  if (args.inventory !== undefined) return [args.inventory].flat().join(',');
  return opened.isLab ? 'lab' : opened.paths.join(',');
}

/** --notify: a message when the run has new or resolved items; a failure to post is kept with the run. */
async function notify(args: DriftRunOptions, saved: DriftRun, store: StateStore, err: Writable): Promise<void> {
  const message = args.notify ? notificationOf(saved) : null;
  if (!args.notify || !message) return;
  const failure = await postNotification(args.notify, message);
  if (!failure) return;
  saved.notifyError = failure;
  await store.drift.setNotifyError(saved.id, failure);
  err.write(`play: ${failure}\n`);
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
