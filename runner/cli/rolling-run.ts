// The two ways a rolling run goes once everything is loaded and valid: --check (plan, print, change
// nothing, no lock) and apply (lock and journal in the state store, plan or resume, batches, report).
import { writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { PlayError, RemoteError, UnreachableError } from '../core/errors.js';
import { redact } from '../core/secret.js';
import type { Host } from '../inventory/model.js';
import type { Playbook } from '../playbook/define.js';
import type { RunReport } from '../report/model.js';
import { planBatches } from '../rolling/batches.js';
import type { ClusterOps } from '../rolling/cluster.js';
import { checkOutcome, type GraphRuns, applyOutcome } from '../rolling/graph-runs.js';
import type { BatchPlan, RollingPolicy } from '../rolling/model.js';
import type { CycleDeps } from '../rolling/node-cycle.js';
import { foldEvent, hostProgress, NO_WORK, WAIVED } from '../rolling/progress.js';
import { waivedReason } from '../rolling/waived.js';
import type { HostResolver, Waiver } from '../drift/waivers.js';
import { rolloutReport } from '../rolling/report.js';
import { runRollout } from '../rolling/rollout.js';
import { allowedFailures } from '../rolling/serial.js';
import { eventLine, planText, summaryText } from '../rolling/text.js';
import { parseWindow } from '../rolling/window.js';
import type { JournalEvent, RolloutRecord, StateStore } from '../state/store.js';
import type { RollingArgs } from './rolling-command.js';

export interface RollingSession {
  readonly args: RollingArgs;
  readonly playbook: Playbook;
  /** The playbook's file, absolute. */
  readonly playbookFile: string;
  readonly policy: RollingPolicy;
  readonly runs: GraphRuns;
  readonly targets: readonly Host[];
  /** The waivers beside the inventory (waivers.yml, as play drift reads them) and their host patterns' resolver. */
  readonly waivers: readonly Waiver[];
  readonly resolve: HostResolver;
  /** The Kubernetes node names of every inventory host (node_name, else the host name lower-cased). */
  readonly inventoryNodes: readonly string[];
  readonly cluster: ClusterOps | null;
  reachable(host: string): Promise<boolean>;
  readonly out: Writable;
  readonly err: Writable;
  readonly signal?: AbortSignal;
}

interface Planned {
  plan: BatchPlan;
  ok: string[];
  waived: { host: string; reason: string }[];
  failed: { host: string; reason: string }[];
  changes: Record<string, string[]>;
}

/** A host's Kubernetes node name: its var node_name, else its name, lower-cased (as kubelet registers). */
export function nodeNameOfHost(h: Pick<Host, 'name' | 'vars'>): string {
  const v = h.vars.node_name;
  return (typeof v === 'string' && v !== '' ? v : h.name).toLowerCase();
}

function nodeNameOf(s: RollingSession): (host: string) => string {
  const byName = new Map(s.targets.map((h) => [h.name, h]));
  return (name) => nodeNameOfHost(byName.get(name) ?? { name, vars: {} });
}

function domainOf(s: RollingSession): (host: string) => string | null {
  const byName = new Map(s.targets.map((h) => [h.name, h]));
  return (name) => {
    const v = byName.get(name)?.vars[s.policy.domainVar];
    return v === undefined || v === null || v === '' ? null : String(v);
  };
}

/** Checks every targeted host and forms the batches from those that need work. */
async function plan(s: RollingSession, signal?: AbortSignal): Promise<Planned> {
  const report: RunReport = await s.runs.run(
    s.targets.map((h) => h.name),
    'check',
    signal,
  );
  const ok: string[] = [];
  const failed: { host: string; reason: string }[] = [];
  const waived: { host: string; reason: string }[] = [];
  const work: string[] = [];
  const changes: Record<string, string[]> = {};
  const now = new Date();
  for (const h of s.targets) {
    const hr = report.hosts[h.name];
    const o = checkOutcome(hr);
    const changed = (hr?.steps ?? []).filter((x) => x.status === 'changed' || x.status === 'unknown');
    const waiver =
      'work' in o && o.work
        ? waivedReason(
            h.name,
            s.playbook.name,
            // Unknown steps wait on an earlier task's output (reboot on hotfix): the changes decide.
            [...new Set(changed.filter((x) => x.status === 'changed').map((x) => x.task))],
            s.waivers,
            s.resolve,
            now,
          )
        : null;
    if ('error' in o) failed.push({ host: h.name, reason: o.error });
    else if (!o.work) ok.push(h.name);
    else if (waiver !== null) waived.push({ host: h.name, reason: waiver });
    else {
      work.push(h.name);
      changes[h.name] = changed.map(
        (x) => `${x.task}: ${x.status === 'unknown' ? (x.error ?? 'unknown') : `${x.action} ${x.fields.join(', ')}`}`,
      );
    }
  }
  const domain = domainOf(s);
  const batches = planBatches(
    work.map((name) => ({ name, domain: domain(name) })),
    s.policy.serial,
    s.policy.maxPerDomain,
  );
  return { plan: batches, ok, waived, failed, changes };
}

export async function rollingCheck(s: RollingSession): Promise<number> {
  const p = await plan(s, s.signal);
  const allowed = allowedFailures(s.policy.maxFail, s.targets.length);
  const text = planText({ ...p, allowedFailures: allowed, domainOf: domainOf(s) });
  if (s.args.json) {
    s.err.write(text);
    s.out.write(`${JSON.stringify({ ...p, allowedFailures: allowed, policy: s.policy }, null, 2)}\n`);
  } else s.out.write(text);
  if (s.signal?.aborted) return 130;
  if (p.failed.length > 0) return 3;
  return p.plan.batches.length > 0 ? 2 : 0;
}

export interface Controller {
  readonly inventoryKey: string;
  readonly pid: number;
  readonly controller: string;
  /** The unfinished run to continue (--resume), or null for a new run. */
  readonly resume: RolloutRecord | null;
}

export async function rollingApply(s: RollingSession, store: StateStore, who: Controller): Promise<number> {
  const journal = store.rollouts;
  const stop = stopSignal(s.signal);
  const view = s.args.json ? s.err : s.out;
  // What a resume needs to run the same again: `play resume RUN` finds the playbook file and the
  // inventory from here (the inventory is the run's key).
  const argsRecord = {
    limit: s.args.limit ?? null,
    policy: s.policy,
    extraVars: s.args.extraVars,
    playbookFile: s.playbookFile,
  };
  let run: RolloutRecord;
  const startMs = Date.now();
  const record = (host: string, phase: string, state: JournalEvent['state'], detail?: string, data?: object) => {
    const e: JournalEvent = {
      runId: run.id,
      host,
      phase,
      state,
      at: new Date().toISOString(),
      detail: detail ?? null,
      data: (data as Record<string, unknown>) ?? null,
    };
    journal.record(e);
    view.write(eventLine(e, startMs));
    return e;
  };
  if (who.resume) {
    run = journal.takeOver(who.resume.id, who.pid, who.controller);
    view.write(`resuming run ${run.id} of ${run.playbook}, started ${run.startedAt}\n`);
  } else {
    run = journal.begin({
      playbook: s.playbook.name,
      inventoryKey: who.inventoryKey,
      args: argsRecord,
      startedAt: new Date().toISOString(),
      pid: who.pid,
      controller: who.controller,
    });
    view.write(`run ${run.id} of ${s.playbook.name} (journal: ${store.location})\n`);
  }
  try {
    if (!who.resume) await firstPlan(s, record, stop.signal);
    return await batchesAndReport(s, store, run.id, record, stop.signal);
  } catch (e) {
    throw stoppedBy(e, journal, run.id);
  } finally {
    stop.dispose();
  }
}

/**
 * The control host or kubectl failing between nodes (a node's own failures stay in its cycle): the
 * run is recorded as interrupted, so `play resume` carries on once the cause is fixed, and the error
 * is one message (exit 3) saying where to look. Anything else is a bug in play and stays one.
 */
function stoppedBy(e: unknown, journal: StateStore['rollouts'], runId: number): unknown {
  const known = e instanceof PlayError || e instanceof RemoteError || e instanceof UnreachableError;
  if (!known) return e;
  const message = redact((e as Error).message);
  journal.setStatus(runId, 'interrupted', `stopped by an error: ${message}`);
  return e instanceof PlayError
    ? e
    : new PlayError(
        `run ${runId} stopped: ${message}; where every node is: play rollouts show ${runId}; to go on: play resume ${runId}`,
        3,
      );
}

type Record_ = (
  host: string,
  phase: string,
  state: JournalEvent['state'],
  detail?: string,
  data?: object,
) => JournalEvent;

async function firstPlan(s: RollingSession, record: Record_, signal: AbortSignal): Promise<void> {
  // The gate's baseline: the inventory's nodes that are Ready now. Nodes the inventory does not name
  // are someone else's to watch (they may come and go for reasons of their own).
  const ours = new Set(s.inventoryNodes);
  const ready = s.cluster
    ? (await s.cluster.nodes()).filter((n) => n.ready && ours.has(n.name)).map((n) => n.name)
    : [];
  record('', 'baseline', 'note', `${ready.length} nodes Ready`, { ready });
  const p = await plan(s, signal);
  for (const f of p.failed) record(f.host, 'check', 'fail', f.reason);
  for (const h of p.ok) record(h, 'planned', 'end', 'already in the desired state: not cordoned', { [NO_WORK]: true });
  for (const w of p.waived) record(w.host, 'planned', 'end', `waived: ${w.reason}`, { [WAIVED]: true });
  record('', 'plan', 'note', `${p.plan.batches.length} batches`, {
    batches: p.plan.batches,
    deferred: p.plan.deferred,
  });
  for (const [i, b] of p.plan.batches.entries())
    for (const h of b)
      record(h, 'planned', 'end', `batch ${i + 1}: ${(p.changes[h] ?? []).join('; ')}`, { batch: i + 1 });
}

async function batchesAndReport(
  s: RollingSession,
  store: StateStore,
  runId: number,
  record: Record_,
  stop: AbortSignal,
): Promise<number> {
  const journal = store.rollouts;
  const events = journal.events(runId);
  const planNote = [...events].reverse().find((e) => e.host === '' && e.phase === 'plan');
  const baseline = events.find((e) => e.host === '' && e.phase === 'baseline');
  const batches = (planNote?.data?.batches as string[][] | undefined) ?? [];
  const allowed = allowedFailures(s.policy.maxFail, s.targets.length);
  // The hosts' progress as the journal says, kept current as the run records.
  const progress = hostProgress(events);
  const deps: CycleDeps = {
    cluster: s.cluster,
    policy: s.policy,
    nodeName: nodeNameOf(s),
    record: (...a) => foldEvent(progress, record(...a)),
    check: async (h) => checkOutcome((await s.runs.run([h], 'check')).hosts[h]),
    apply: async (h) => applyOutcome((await s.runs.run([h], 'apply')).hosts[h]),
    reachable: (h, timeoutMs) => untilReachable(s, h, timeoutMs),
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    now: () => Date.now(),
    stop,
  };
  const end = await runRollout({
    ...deps,
    batches,
    progress,
    allowedFailures: allowed,
    window: s.policy.window ? parseWindow(s.policy.window) : null,
    readyAtStart: new Set((baseline?.data?.ready as string[] | undefined) ?? []),
  });
  journal.setStatus(runId, end.status, end.reason);
  const report = rolloutReport(journal.get(runId)!, journal.events(runId), allowed);
  (s.args.json ? s.err : s.out).write(summaryText(report));
  if (end.status === 'paused') (s.args.json ? s.err : s.out).write(`resume with: play ${s.playbook.name} --resume\n`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (s.args.report) writeFileSync(s.args.report, json);
  if (s.args.json) s.out.write(json);
  if (end.status === 'interrupted') return 130;
  if (end.status === 'paused') return 75;
  return report.budget.failed > 0 || end.status !== 'done' ? 3 : 0;
}

async function untilReachable(s: RollingSession, host: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await s.reachable(host)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/** Ctrl-C (the command's signal) or SIGTERM: start nothing new, bring nodes in flight to a safe point. */
function stopSignal(parent?: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const c = new AbortController();
  const onTerm = () => c.abort();
  process.on('SIGTERM', onTerm);
  const onParent = () => c.abort();
  parent?.addEventListener('abort', onParent, { once: true });
  if (parent?.aborted) c.abort();
  return {
    signal: c.signal,
    dispose: () => {
      process.off('SIGTERM', onTerm);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
