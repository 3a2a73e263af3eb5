// The two ways a rolling run goes once everything is loaded and valid: --check (plan, print, change
// nothing, no lock) and apply (lock and journal in the state store, plan or resume, batches, report).
import { writeFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { PlayError, RemoteError, UnreachableError } from '../core/errors.js';
import { sleepFor } from '../core/long-sleep.js';
import { redact } from '../core/secret.js';
import type { Host } from '../inventory/model.js';
import type { Playbook } from '../playbook/define.js';
import type { RunReport } from '../report/model.js';
import { planBatches } from '../rolling/batches.js';
import type { ClusterOps } from '../rolling/cluster.js';
import { checkOutcome, type GraphRuns } from '../rolling/graph-runs.js';
import type { BatchPlan, RollingPolicy } from '../rolling/model.js';
import type { CycleDeps } from '../rolling/node-cycle.js';
import type { OnFailure } from '../rolling/rollback.js';
import { rollbackSession } from '../rolling/rollback-session.js';
import type { Remote } from '../core/step.js';
import type { NodeGate } from '../rolling/gate/look.js';
import { foldEvent, hostProgress, NO_WORK, WAIVED } from '../rolling/progress.js';
import { waivedReason } from '../rolling/waived.js';
import type { HostResolver, Waiver } from '../drift/waivers.js';
import { rolloutReport } from '../rolling/report.js';
import { runRollout } from '../rolling/rollout.js';
import { sourceHashes } from '../rolling/source-hash.js';
import { allowedFailures } from '../rolling/serial.js';
import { eventLine, planText, summaryText } from '../rolling/text.js';
import { parseWindow } from '../rolling/window.js';
import { JournalWriteError } from '../rolling/journal-write-error.js';
import { RunJournal } from '../rolling/run-journal.js';
import { checkPreflight } from '../rolling/preflight/plan-preflight.js';
import { type ClusterLease, ClusterLeaseHeldError } from '../rolling/cluster-lease.js';
import { type LeaseClaim, LeaseLostError } from '../state/lease.js';
import type { RolloutRecord, StateStore } from '../state/store.js';
import type { RollingArgs } from './run-args.js';
import { inventorySources } from '../rolling/inventory-key.js';
import type { AlertGateCheck } from '../rolling/alert-gate/check.js';
import { RollingNotices } from '../rolling/notify-queue.js';

export interface RollingSession {
  readonly args: RollingArgs;
  readonly playbook: Playbook;
  /** The playbook's file, absolute. */
  readonly playbookFile: string;
  readonly policy: RollingPolicy;
  readonly runs: GraphRuns;
  /** The playbook's staging tasks (`--stage`: runner/rolling/stage-command.ts), else null. */
  readonly stageRuns?: GraphRuns | null;
  readonly targets: readonly Host[];
  /** The waivers beside the inventory (waivers.yml, as play drift reads them) and their host patterns' resolver. */
  readonly waivers: readonly Waiver[];
  readonly resolve: HostResolver;
  /** The Kubernetes node names of every inventory host (node_name, else the host name lower-cased). */
  readonly inventoryNodes: readonly string[];
  readonly cluster: ClusterOps | null;
  /** The cluster's rollout Lease for a holder (null: a serial run without a cluster). */
  readonly clusterLease: ((holder: string, durationSec: number) => ClusterLease) | null;
  /** Prometheus asked before each batch (--gate-prometheus, rolling.alertGate), or null. */
  readonly alertGate?: AlertGateCheck | null;
  reachable(host: string): Promise<boolean>;
  /** Each targeted host's hotfix KBs, and a host's connection for a rollback (rollback-session.ts). */
  readonly hotfixKbs?: ReadonlyMap<string, readonly string[]>;
  readonly remoteOf?: (host: string) => Remote;
  /** The playbook's gate after Ready (null: it declares none, or there is no cluster). */
  readonly gate?: NodeGate | null;
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
export async function plan(s: RollingSession, signal?: AbortSignal): Promise<Planned> {
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
  const { preflight, text: preflightLines } = await checkPreflight({
    ...s,
    batches: p.plan.batches,
    nodeName: nodeNameOf(s),
    playbook: s.playbook.name,
    state: s.args.state,
  });
  const text = planText({ ...p, allowedFailures: allowed, domainOf: domainOf(s) }) + preflightLines;
  if (s.args.json) {
    s.err.write(text);
    s.out.write(`${JSON.stringify({ ...p, allowedFailures: allowed, policy: s.policy, preflight }, null, 2)}\n`);
  } else s.out.write(text);
  if (s.signal?.aborted) return 130;
  if (p.failed.length > 0) return 3;
  return p.plan.batches.length > 0 ? 2 : 0;
}

export interface Controller {
  readonly inventoryKey: string;
  /** This process's claim on the inventory's rolling lease. */
  readonly claim: LeaseClaim;
  /** The unfinished run to continue (--resume), or null for a new run. */
  readonly resume: RolloutRecord | null;
}

export async function rollingApply(s: RollingSession, store: StateStore, who: Controller): Promise<number> {
  const stop = stopSignal(s.signal);
  const view = s.args.json ? s.err : s.out;
  // What a resume needs to run the same again: `play resume RUN` finds the playbook file and the
  // inventory from here (the inventory is the run's key).
  const argsRecord = {
    limit: s.args.limit ?? null,
    policy: s.policy,
    extraVars: s.args.extraVars,
    playbookFile: s.playbookFile,
    // A resume rolls back (or not) as the run started.
    onFailure: s.args.onFailure ?? 'stop',
    // Another controller resuming compares its files with these.
    sources: sourceHashes(s.playbookFile, inventorySources(who.inventoryKey)),
  };
  const startMs = Date.now();
  const { run, lease } = who.resume
    ? await store.rollouts.takeOver(who.resume.id, who.claim)
    : await store.rollouts.begin(
        {
          playbook: s.playbook.name,
          inventoryKey: who.inventoryKey,
          args: argsRecord,
          startedAt: new Date().toISOString(),
        },
        who.claim,
      );
  view.write(
    who.resume
      ? `resuming run ${run.id} of ${run.playbook}, started ${run.startedAt}\n`
      : `run ${run.id} of ${s.playbook.name} (journal: ${store.location})\n`,
  );
  const notices = new RollingNotices(
    s.args.overrides.notify,
    { run: run.id, playbook: run.playbook, inventory: who.inventoryKey },
    (line) => view.write(line),
  );
  notices.started(who.resume !== null);
  const journal = new RunJournal(store.rollouts, lease, stop.controller, (e) => {
    view.write(eventLine(e, startMs));
    notices.event(e);
  });
  let cluster: ClusterLease | null = null;
  let thrown: unknown = null;
  try {
    cluster = await clusterLeaseOf(s, store, run, who.claim.ttlMs);
    const held = cluster;
    journal.startHeartbeat(held ? () => held.renew() : undefined);
    if (!who.resume) await firstPlan(s, journal, stop.signal);
    return await batchesAndReport(s, store, journal, stop.signal);
  } catch (e) {
    thrown = await stoppedBy(e, journal, store.location);
    throw thrown;
  } finally {
    journal.stopHeartbeat();
    // A run that lost its store lease leaves the cluster's Lease to the controller that took the run
    // over: the holder names the run, not the controller.
    if (!journal.leaseLost) await cluster?.release().catch(() => {});
    stop.dispose();
    await endNotices(notices, store, run.id, thrown, `play ${s.playbook.name} --resume`);
  }
}

/**
 * The cluster's rollout Lease for this run, taken before anything is done: its holder names the run and
 * its store, so the run's own resume (any controller on the same store) holds it again, and a controller
 * with another store is refused (exit 69) while this one renews it. A refusal, like the control host
 * failing, leaves the run interrupted and resumable (stoppedBy).
 */
async function clusterLeaseOf(s: RollingSession, store: StateStore, run: RolloutRecord, ttlMs: number) {
  const lease = s.clusterLease?.(
    `play run ${run.id} of store ${store.id} (${store.location})`,
    Math.ceil(ttlMs / 1000),
  );
  await lease?.acquire();
  return lease ?? null;
}

/**
 * Why the run stopped, as the message the user sees. The journal failing (a lost lease, a store that
 * cannot be written) or the control host and kubectl failing between nodes (a node's own failures stay
 * in its cycle): the run is recorded as interrupted where the store allows, so `play resume` carries on
 * once the cause is fixed. Anything else is a bug in play and stays one.
 */
async function stoppedBy(e: unknown, journal: RunJournal, location: string): Promise<unknown> {
  const runId = journal.runId;
  const failure = journal.failure ?? (e instanceof JournalWriteError ? e : null);
  if (failure) return journalStopped(failure, journal, location);
  const known = e instanceof PlayError || e instanceof RemoteError || e instanceof UnreachableError;
  if (!known) return e;
  const message = redact((e as Error).message);
  await journal.finish('interrupted', `stopped by an error: ${message}`).catch(() => {});
  return e instanceof PlayError
    ? e
    : new PlayError(
        `run ${runId} stopped: ${message}; where every node is: play rollouts show ${runId}; to go on: play resume ${runId}`,
        3,
      );
}

/** The journal failed: the lease's loss as it is (exit 69), or the store's error naming what to do. */
async function journalStopped(failure: JournalWriteError, journal: RunJournal, location: string): Promise<PlayError> {
  const cause = failure.cause;
  if (cause instanceof LeaseLostError) return cause;
  if (cause instanceof ClusterLeaseHeldError) {
    await journal.finish('interrupted', redact(cause.message)).catch(() => {});
    return new PlayError(
      `run ${journal.runId} stopped: ${cause.message}. Nothing more was started and the nodes in flight were ` +
        `brought to a safe point; once it is free: play resume ${journal.runId}`,
      69,
    );
  }
  const runId = journal.runId;
  const why = redact(cause instanceof Error ? cause.message : String(cause));
  // The store may take this write even if it refused the last (a busy moment): try, never insist.
  await journal.finish('interrupted', `the journal could not be written: ${why}`).catch(() => {});
  const code = cause instanceof PlayError ? cause.exitCode : 74;
  return new PlayError(
    `run ${runId} stopped: the state store ${location} failed while ${redact(failure.message)}. Nothing more was ` +
      `started and the nodes in flight were brought to a safe point; the journal holds every step up to there. ` +
      `Fix the store, then: play resume ${runId} (play rollouts show ${runId} says where every node is)`,
    code,
  );
}

async function firstPlan(s: RollingSession, journal: RunJournal, signal: AbortSignal): Promise<void> {
  // The gate's baseline: the inventory's nodes that are Ready now. Nodes the inventory does not name
  // are someone else's to watch (they may come and go for reasons of their own).
  const ours = new Set(s.inventoryNodes);
  const ready = s.cluster
    ? (await s.cluster.nodes()).filter((n) => n.ready && ours.has(n.name)).map((n) => n.name)
    : [];
  await journal.record('', 'baseline', 'note', `${ready.length} nodes Ready`, { ready });
  const p = await plan(s, signal);
  for (const f of p.failed) await journal.record(f.host, 'check', 'fail', f.reason);
  for (const h of p.ok)
    await journal.record(h, 'planned', 'end', 'already in the desired state: not cordoned', { [NO_WORK]: true });
  for (const w of p.waived) await journal.record(w.host, 'planned', 'end', `waived: ${w.reason}`, { [WAIVED]: true });
  await journal.record('', 'plan', 'note', `${p.plan.batches.length} batches`, {
    batches: p.plan.batches,
    deferred: p.plan.deferred,
  });
  for (const [i, b] of p.plan.batches.entries())
    for (const h of b)
      await journal.record(h, 'planned', 'end', `batch ${i + 1}: ${(p.changes[h] ?? []).join('; ')}`, { batch: i + 1 });
}

async function batchesAndReport(
  s: RollingSession,
  store: StateStore,
  journal: RunJournal,
  stop: AbortSignal,
): Promise<number> {
  const runId = journal.runId;
  const events = await store.rollouts.events(runId);
  const planNote = [...events].reverse().find((e) => e.host === '' && e.phase === 'plan');
  const baseline = events.find((e) => e.host === '' && e.phase === 'baseline');
  const batches = (planNote?.data?.batches as string[][] | undefined) ?? [];
  const allowed = allowedFailures(s.policy.maxFail, s.targets.length);
  // The hosts' progress as the journal says, kept current as the run records.
  const progress = hostProgress(events);
  const rollback = rollbackSession({
    onFailure: ((await store.rollouts.get(runId))?.args.onFailure as OnFailure | undefined) ?? 'stop',
    kbsOf: (h) => s.hotfixKbs?.get(h) ?? [],
    remoteOf: (h) => s.remoteOf!(h),
    events,
    quarantine: store.quarantine,
    runId,
    playbook: s.playbook.name,
    rebootTimeoutSec: Math.max(900, s.policy.readyTimeoutSec),
  });
  const deps: CycleDeps = {
    cluster: s.cluster,
    policy: s.policy,
    nodeName: nodeNameOf(s),
    record: async (...a) => void foldEvent(progress, await journal.record(...a)),
    check: async (h) => checkOutcome((await s.runs.run([h], 'check')).hosts[h]),
    apply: (h) => rollback.apply(h, async () => (await s.runs.run([h], 'apply')).hosts[h]),
    rollback: s.cluster && rollback.ops.onFailure === 'rollback' ? rollback.ops : null,
    reachable: (h, timeoutMs) => untilReachable(s, h, timeoutMs),
    // Bounded chunks: a soak or a Ready wait of any length never overflows a Node timer.
    sleep: (ms) => sleepFor(ms),
    now: () => Date.now(),
    stop,
    tryBlocked: s.args.tryBlocked,
    gate: s.gate ?? null,
  };
  const end = await runRollout({
    ...deps,
    batches,
    progress,
    allowedFailures: allowed,
    window: s.policy.window ? parseWindow(s.policy.window) : null,
    readyAtStart: new Set((baseline?.data?.ready as string[] | undefined) ?? []),
    alertGate: s.alertGate,
  });
  if (journal.failure) throw journal.failure;
  await journal.finish(end.status, end.reason);
  const report = rolloutReport((await store.rollouts.get(runId))!, await store.rollouts.events(runId), allowed);
  (s.args.json ? s.err : s.out).write(summaryText(report));
  if (end.status === 'paused') (s.args.json ? s.err : s.out).write(`resume with: play ${s.playbook.name} --resume\n`);
  const json = `${JSON.stringify(report, null, 2)}\n`;
  if (s.args.report) writeFileSync(s.args.report, json);
  if (s.args.json) s.out.write(json);
  if (end.status === 'interrupted') return 130;
  if (end.status === 'paused') return 75;
  return report.budget.failed > 0 || end.status !== 'done' ? 3 : 0;
}

/** The end as the journal has it (or, when it cannot be read, the error that stopped the run). */
async function endNotices(n: RollingNotices, store: StateStore, runId: number, thrown: unknown, resume: string) {
  const rec = await store.rollouts.get(runId).catch(() => null);
  const why = thrown instanceof Error ? redact(thrown.message) : null;
  await n.ended(rec?.status ?? 'interrupted', (rec?.status === 'running' ? why : rec?.reason) ?? why, resume);
}

async function untilReachable(s: RollingSession, host: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await s.reachable(host)) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/**
 * Ctrl-C (the command's signal), SIGTERM, or the journal failing (through `controller`): start nothing
 * new, bring nodes in flight to a safe point.
 */
function stopSignal(parent?: AbortSignal): { signal: AbortSignal; controller: AbortController; dispose(): void } {
  const c = new AbortController();
  const onTerm = () => c.abort();
  process.on('SIGTERM', onTerm);
  const onParent = () => c.abort();
  parent?.addEventListener('abort', onParent, { once: true });
  if (parent?.aborted) c.abort();
  return {
    signal: c.signal,
    controller: c,
    dispose: () => {
      process.off('SIGTERM', onTerm);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
