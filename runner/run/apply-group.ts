// The ready steps of one host, applied together. Ready steps are independent of each other (each one's
// dependencies are done), so their applies may share a round trip: each step's apply runs as usual,
// but the first sh script of each waits until every other has sent one too (or finished without
// one), and then all of them travel in one `/bin/sh -c`, each in a subshell of its own, one after the
// other, followed by the re-probe of every step of the host (apply-then-probe.ts). Convergence is
// still proven by that real probe,
// taken after all of them. Anything a step runs after its first script goes alone and makes that
// probe stale: the steps are then probed again.
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
import { CarriedProbe, channelOf } from './carried-probe.js';
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

/** Reports of `nodes` (ready on one host, so independent), in their order. */
export async function runGroup(
  nodes: readonly TaskNode[],
  session: HostSession,
  runEnv: LifecycleEnv,
): Promise<StepReport[]> {
  const reports = new Map<TaskNode, StepReport>();
  // A node of the group with its report is done: no later probe batch of the group carries its probe.
  const env: LifecycleEnv = {
    ...runEnv,
    pendingOnHost: (host) => runEnv.pendingOnHost(host).filter((n) => !reports.has(n)),
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
  let changed = false;
  if (shared.length >= 2) {
    for (const [p, report] of await applyTogether(shared, session, env))
      reports.set(p.node, withOutput(report, p.tail));
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
  return nodes.map((n) => reports.get(n)!);
}

function canShare(p: ToApply): boolean {
  return p.step.applyThenProbe === true && p.node.spec.timeoutSec === undefined && channelOf(p.step) !== null;
}

/** Applies `shared` in one round trip with the host's re-probe; each step's report. */
async function applyTogether(
  shared: readonly ToApply[],
  session: HostSession,
  env: LifecycleEnv,
): Promise<[ToApply, StepReport][]> {
  env.prefetched.clear(); // the host is about to change: every earlier probe may be stale
  const all = probeBatch(shared[0]!.node, shared[0]!.step, session, env);
  const first = new Set(shared.map((p) => p.node));
  const ordered = [...shared.map((p) => ({ node: p.node, step: p.step })), ...all.filter((b) => !first.has(b.node))];
  const batch = CarriedProbe.of(shared[0]!.step, ordered)!.batch;
  const gather = new ApplyGather(session, shared, batch);
  const applied = await Promise.allSettled(shared.map((_, i) => gather.apply(i)));
  const carried = gather.carried;
  const afters: ProbeOutcome[] = [];
  if (carried) {
    batch.forEach((b, i) => {
      if (i >= shared.length && carried[i]!.ok) env.prefetched.set(b.node.id, carried[i]!);
    });
    afters.push(...carried.slice(0, shared.length));
  } else {
    for (const p of shared)
      afters.push(await probeWithOthers(p.node, p.step, session, env, Math.max(1000, p.deadline - Date.now())));
  }
  return shared.map((p, i) => {
    const a = applied[i]!;
    return [
      p,
      a.status === 'fulfilled'
        ? settle(p, a.value, afters[i]!, env)
        : failedReport(p.node, p.step, p.change, p.started, a.reason as Error, env),
    ];
  });
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
 *  them together with the re-probe. */
class ApplyGather {
  readonly #waiting = new Map<number, Waiting>();
  readonly #done = new Set<number>();
  #sent = false;
  /** Something ran after the shared round trip: its probes no longer show the host. */
  #stale = false;
  #outcomes: ProbeOutcome[] | null = null;

  /** The channel the group's applies and probes share: sh scripts, or PowerShell calls. */
  private readonly channel: 'sh' | 'ps-calls';

  constructor(
    private readonly session: HostSession,
    private readonly shared: readonly ToApply[],
    private readonly batch: Readonly<Batch>,
  ) {
    this.channel = channelOf(shared[0]!.step)!;
  }

  /** One outcome per batch entry, from after every apply; null when there is none that still holds. */
  get carried(): ProbeOutcome[] | null {
    return this.#stale ? null : this.#outcomes;
  }

  async apply(i: number): ReturnType<ToApply['step']['apply']> {
    const p = this.shared[i]!;
    try {
      return await p.step.apply(this.#remote(i), p.change, p.actual, p.step.desired);
    } finally {
      this.#done.add(i);
      this.#sendWhenAllWait();
    }
  }

  #remote(i: number): Remote {
    const p = this.shared[i]!;
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
    if (this.#waiting.size + settled < this.shared.length) return;
    this.#sent = true;
    if (this.#waiting.size > 0) void this.#send();
  }

  async #send(): Promise<void> {
    const waiting = [...this.#waiting].sort(([a], [b]) => a - b).map(([, w]) => w);
    const options = { timeoutMs: Math.max(...waiting.map((w) => w.timeoutMs)) };
    try {
      if (this.channel === 'sh') {
        const sh = waiting as Extract<Waiting, { kind: 'sh' }>[];
        const probes = this.batch.map((b) => probeOf(b.step) as ShellProbe<unknown>);
        const { results, outcomes } = await this.session.runAllThenProbe(sh, probes, options);
        this.#outcomes = outcomes;
        sh.forEach((w, k) => {
          w.resolve(results[k]!);
        });
      } else {
        const ps = waiting as Extract<Waiting, { kind: 'ps-calls' }>[];
        const probes = this.batch.map((b) => probeOf(b.step) as CallProbe<unknown>);
        const { results, outcomes } = await this.session.callThenProbe(
          ps.flatMap((w) => w.calls),
          probes,
          options,
        );
        this.#outcomes = outcomes;
        let from = 0;
        for (const w of ps) {
          w.resolve(results.slice(from, from + w.calls.length));
          from += w.calls.length;
        }
      }
    } catch (e) {
      for (const w of waiting) w.reject(e);
    }
  }
}
