// The ready steps of one host, applied together. Ready steps are independent of each other (each one's
// dependencies are done), so their applies may share a round trip: each step's apply runs as usual,
// but the first sh script of each waits until every other has sent one too (or finished without
// one), and then all of them travel in one `/bin/sh -c`, each in a subshell of its own, one after the
// other, followed by the re-probe of every step of the host (apply-then-probe.ts). Convergence is
// still proven by that real probe,
// taken after all of them. Anything a step runs after its first script goes alone and makes that
// probe stale: the steps are then probed again. Steps that wait only for some of these may ride after
// them, guarded (chain.ts).
//
// The same for PowerShell: each step's first list of calls waits, then all of them travel in one
// program (each call in its own try, as alone), followed by the probe calls.
//
// Only steps that carry their probe (Step.applyThenProbe), on the run's time limit (one of their own
// would be lost in a shared round trip), share one; an sh input that is a secret travels alone.
import { isSecret } from '../core/secret.js';
import { PsCall, type PsCallResult } from '../core/ps-call.js';
import type { Script } from '../core/quote.js';
import {
  callAsExec,
  type CallProbe,
  type ExecOptions,
  type ExecResult,
  type Remote,
  type ShellProbe,
} from '../core/step.js';
import type { TaskNode } from '../playbook/compile.js';
import type { StepReport } from '../report/model.js';
import { SKIPPED, type ApplyInput } from './apply-then-probe.js';
import { CarriedProbe, channelOf } from './carried-probe.js';
import { chainOnto, NotChained, type Chained } from './chain.js';
import type { HostSession, ProbeOutcome } from './host-session.js';
import { OutputTail, secretsIn } from './output-tail.js';
import { probeOf } from './probe-of.js';
import {
  applyAlone,
  failedReport,
  isApply,
  prepare,
  probeBatch,
  probeWithOthers,
  runLifecycle,
  settle,
  timeLeft,
  withOutput,
  type Batch,
  type LifecycleEnv,
  type ToApply,
} from './step-lifecycle.js';

/** A group's reports, in the order of its nodes, and those of the dependents that rode after it. */
export interface GroupReports {
  readonly reports: StepReport[];
  readonly chained: ReadonlyMap<TaskNode, StepReport>;
}

/**
 * Reports of `nodes` (ready on one host, so independent), in their order; `dependents`: the host's
 * nodes that wait for some of them and may ride after them (chain.ts).
 */
export async function runGroup(
  nodes: readonly TaskNode[],
  session: HostSession,
  runEnv: LifecycleEnv,
  dependents: readonly TaskNode[] = [],
): Promise<GroupReports> {
  const reports = new Map<TaskNode, StepReport>();
  const ran = new Map<TaskNode, StepReport>();
  // A node with its report is done: no later probe batch of the group carries its probe.
  const env: LifecycleEnv = {
    ...runEnv,
    pendingOnHost: (host) => runEnv.pendingOnHost(host).filter((n) => !reports.has(n) && !ran.has(n)),
  };
  const toApply: ToApply[] = [];
  for (const node of nodes) {
    const tail = new OutputTail(secretsIn(session.host.vars));
    const prepared = await prepare(node, session, env, tail);
    if (isApply(prepared)) toApply.push(prepared);
    else reports.set(node, withOutput(prepared, tail));
  }
  // One channel per round trip: a host speaks sh or PowerShell, so in practice all that can share do.
  const lead = toApply.find(canShare);
  const shared = lead ? toApply.filter((p) => canShare(p) && channelOf(p.step) === channelOf(lead.step)) : [];
  const chained =
    lead && channelOf(lead.step) === 'sh' ? chainOnto(dependents, nodes, shared, reports, env, session.host.vars) : [];
  let changed = false;
  if (shared.length + chained.length >= 2) {
    for (const [p, report] of await applyTogether(shared, chained, session, env))
      (nodes.includes(p.node) ? reports : ran).set(p.node, withOutput(report, p.tail));
    changed = true;
  }
  // The others one at a time: the first on its probe if nothing was applied since, each later one probed again.
  for (const p of toApply) {
    if (reports.has(p.node)) continue;
    reports.set(
      p.node,
      changed ? await runLifecycle(p.node, session, env) : withOutput(await applyAlone(p, session, env), p.tail),
    );
    changed = true;
  }
  return { reports: nodes.map((n) => reports.get(n)!), chained: ran };
}

function canShare(p: ToApply): boolean {
  return p.step.applyThenProbe === true && p.node.spec.timeoutSec === undefined && channelOf(p.step) !== null;
}

/**
 * Applies `shared`, then `chained` where their guards hold, in one round trip with the host's
 * re-probe: the report of each that ran. A chained step that did not run is left for its turn, with
 * the re-probe as its probe.
 */
async function applyTogether(
  shared: readonly ToApply[],
  chained: readonly Chained[],
  session: HostSession,
  env: LifecycleEnv,
): Promise<[ToApply, StepReport][]> {
  env.prefetched.clear(); // the host is about to change: every earlier probe may be stale
  const members: readonly ToApply[] = [...shared, ...chained];
  const all = probeBatch(members[0]!.node, members[0]!.step, session, env);
  const first = new Set(members.map((p) => p.node));
  const ordered = [...members.map((p) => ({ node: p.node, step: p.step })), ...all.filter((b) => !first.has(b.node))];
  const batch = CarriedProbe.of(members[0]!.step, ordered)!.batch;
  const gather = new ApplyGather(session, shared, chained, batch);
  const applied = await Promise.allSettled(members.map((_, i) => gather.apply(i)));
  const carried = gather.carried;
  const ran = members.filter((_, i) => i < shared.length || gather.ran(i));
  if (carried) {
    batch.forEach((b, i) => {
      const member = members[i];
      if ((member === undefined || !ran.includes(member)) && carried[i]!.ok) env.prefetched.set(b.node.id, carried[i]!);
    });
  }
  const reports: [ToApply, StepReport][] = [];
  for (const [i, p] of members.entries()) {
    if (!ran.includes(p)) continue;
    const a = applied[i]!;
    const after =
      carried?.[i] ?? (await probeWithOthers(p.node, p.step, session, env, Math.max(1000, p.deadline - Date.now())));
    reports.push([
      p,
      a.status === 'fulfilled'
        ? settle(p, a.value, after, env)
        : failedReport(p.node, p.step, p.change, p.started, a.reason as Error, env),
    ]);
  }
  return reports;
}

/** A step's first sh script, or its first PowerShell calls, waiting for the others'. */
type Waiting =
  | {
      readonly kind: 'sh';
      readonly script: Script;
      readonly stdin: Buffer | null;
      readonly timeoutMs: number;
      resolve(r: ExecResult): void;
      reject(e: unknown): void;
    }
  | {
      readonly kind: 'ps-calls';
      readonly calls: readonly PsCall[];
      readonly timeoutMs: number;
      resolve(r: PsCallResult[]): void;
      reject(e: unknown): void;
    };

/** Holds each step's first sh script (or PowerShell calls) until all have one or are done, then sends
 *  them together with the re-probe; a chained step's (members from shared.length on) guarded. */
class ApplyGather {
  readonly #waiting = new Map<number, Waiting>();
  readonly #done = new Set<number>();
  /** Chained members whose first script ran in the round trip. */
  readonly #ran = new Set<number>();
  #sent = false;
  /** Something ran after the shared round trip: its probes no longer show the host. */
  #stale = false;
  #outcomes: ProbeOutcome[] | null = null;

  /** The channel the group's applies and probes share: sh scripts, or PowerShell calls. */
  private readonly channel: 'sh' | 'ps-calls';

  private readonly members: readonly ToApply[];

  constructor(
    private readonly session: HostSession,
    private readonly shared: readonly ToApply[],
    private readonly chained: readonly Chained[],
    private readonly batch: Readonly<Batch>,
  ) {
    this.members = [...shared, ...chained];
    this.channel = channelOf(this.members[0]!.step)!;
  }

  /** Whether member `i` ran in the round trip: always for a shared one; a chained one if its guard held. */
  ran(i: number): boolean {
    return i < this.shared.length || this.#ran.has(i);
  }

  /** One outcome per batch entry, from after every apply; null when there is none that still holds. */
  get carried(): ProbeOutcome[] | null {
    return this.#stale ? null : this.#outcomes;
  }

  async apply(i: number): ReturnType<ToApply['step']['apply']> {
    const p = this.members[i]!;
    try {
      return await p.step.apply(this.#remote(i), p.change, p.actual, p.step.desired);
    } finally {
      this.#done.add(i);
      this.#sendWhenAllWait();
    }
  }

  #remote(i: number): Remote {
    const p = this.members[i]!;
    const within = (options?: ExecOptions): number => timeLeft(p.deadline, options);
    return {
      name: this.session.name,
      run: async (script: Script, options?: ExecOptions) => {
        const timeoutMs = within(options);
        const alone =
          this.#sent ||
          this.#waiting.has(i) ||
          this.channel !== 'sh' ||
          script.shell !== 'sh' ||
          script instanceof PsCall ||
          isSecret(options?.stdin);
        // A chained step's first script rides guarded, without input, or not at all (nothing of it runs).
        if (i >= this.shared.length && !this.#sent && (alone || options?.stdin !== undefined)) throw new NotChained();
        if (this.#sent) this.#stale = true;
        const r = alone
          ? await this.session.run(script, { ...options, timeoutMs })
          : await new Promise<ExecResult>((resolve, reject) => {
              const stdin = options?.stdin === undefined ? null : Buffer.from(options.stdin as string | Buffer);
              this.#wait(i, { kind: 'sh', script, stdin, timeoutMs, resolve, reject });
            });
        p.tail.add(r);
        return r;
      },
      callPowerShell: async (calls: readonly PsCall[], options?: ExecOptions): Promise<PsCallResult[]> => {
        const timeoutMs = within(options);
        const alone = this.#sent || this.#waiting.has(i) || this.channel !== 'ps-calls';
        if (this.#sent) this.#stale = true;
        const results = alone
          ? await this.session.callPowerShell(calls, { ...options, timeoutMs })
          : await new Promise<PsCallResult[]>((resolve, reject) => {
              this.#wait(i, { kind: 'ps-calls', calls, timeoutMs, resolve, reject });
            });
        for (const r of results) p.tail.add(callAsExec(r));
        return results;
      },
    };
  }

  #wait(i: number, w: Waiting): void {
    this.#waiting.set(i, w);
    this.#sendWhenAllWait();
  }

  #sendWhenAllWait(): void {
    if (this.#sent) return;
    const settled = [...this.#done].filter((i) => !this.#waiting.has(i)).length;
    if (this.#waiting.size + settled < this.members.length) return;
    this.#sent = true;
    if (this.#waiting.size > 0) void this.#send();
  }

  async #send(): Promise<void> {
    if (this.channel === 'sh') return this.#sendSh();
    const ps = [...this.#waiting].sort(([a], [b]) => a - b).map(([, w]) => w as Extract<Waiting, { kind: 'ps-calls' }>);
    try {
      const probes = this.batch.map((b) => probeOf(b.step) as CallProbe<unknown>);
      const { results, outcomes } = await this.session.callThenProbe(
        ps.flatMap((w) => w.calls),
        probes,
        { timeoutMs: Math.max(...ps.map((w) => w.timeoutMs)) },
      );
      this.#outcomes = outcomes;
      let from = 0;
      for (const w of ps) {
        w.resolve(results.slice(from, from + w.calls.length));
        from += w.calls.length;
      }
    } catch (e) {
      for (const w of ps) w.reject(e);
    }
  }

  /** The sh scripts in member order, a chained one guarded: only if each dependency's script is here. */
  async #sendSh(): Promise<void> {
    const entries = [...this.#waiting].sort(([a], [b]) => a - b) as [number, Extract<Waiting, { kind: 'sh' }>][];
    const position = new Map<number, number>();
    const sent: [number, Extract<Waiting, { kind: 'sh' }>][] = [];
    const applies: ApplyInput[] = [];
    for (const [i, w] of entries) {
      const chained = i >= this.shared.length ? this.chained[i - this.shared.length]! : null;
      const after = chained?.after.map((d) => position.get(d));
      if (after?.some((d) => d === undefined)) {
        w.reject(new NotChained()); // a dependency's script went alone, or it ran none: it must wait
        continue;
      }
      position.set(i, applies.length);
      sent.push([i, w]);
      applies.push({
        script: w.script,
        stdin: w.stdin,
        ...(chained && {
          guard: {
            probe: (probeOf(chained.step) as ShellProbe<unknown>).script,
            seen: chained.seen,
            after: after as number[],
          },
        }),
      });
    }
    if (sent.length === 0) return; // each is probed on its own turn
    try {
      const probes = this.batch.map((b) => probeOf(b.step) as ShellProbe<unknown>);
      const options = { timeoutMs: Math.max(...sent.map(([, w]) => w.timeoutMs)) };
      const { results, outcomes } = await this.session.runAllThenProbe(applies, probes, options);
      this.#outcomes = outcomes;
      for (const [k, [i, w]] of sent.entries()) {
        const r = results[k]!;
        if (r === SKIPPED) w.reject(new NotChained());
        else {
          if (i >= this.shared.length) this.#ran.add(i);
          w.resolve(r);
        }
      }
    } catch (e) {
      for (const [, w] of sent) w.reject(e);
    }
  }
}
