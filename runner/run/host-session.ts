// One host as the steps see it: runs scripts through the host's single SSH connection and
// batches probes into one round trip. A connection failure is remembered, so every later step
// of that host is reported unreachable without another attempt.
import { UnreachableError } from '../core/errors.js';
import { redact } from '../core/secret.js';
import { quoteSh, type Script } from '../core/quote.js';
import {
  callAsExec,
  isCallProbe,
  type CallProbe,
  type ExecOptions,
  type ExecResult,
  type Probe,
  type Remote,
  type ShellProbe,
  type ShellScriptOptions,
} from '../core/step.js';
import type { Host } from '../inventory/model.js';
import { PsCall, type PsCallResult } from '../core/ps-call.js';
import { ShellGone } from '../transport/kept-shell.js';
import { bootstrapCommand } from '../transport/powershell/bootstrap.js';
import { decodeClixml } from '../transport/powershell/clixml.js';
import { parseResults, program } from '../transport/powershell/program.js';
import {
  appliesStdin,
  appliesThenProbeScript,
  applyThenProbeScript,
  splitAppliesThenProbe,
  splitApplyThenProbe,
  SKIPPED,
  type ApplyInput,
} from './apply-then-probe.js';
import { newNonce } from '../core/nonce.js';
import { batchScript, expectedReads, groupProbes, readPathsOf, splitBatch } from './probe-batch.js';
import { ReadCache, type ReadBatch } from './read-cache.js';

/** What the session needs of a transport connection. */
export interface ShellConnection {
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** A read-only sh script through a kept shell, where the connection has one (kept-shell.ts). */
  probe?(script: string, options?: ExecOptions): Promise<ExecResult>;
  /** An sh script through the connection's shell while it is free; null: send it as an exec. */
  script?(script: string, options?: ShellScriptOptions): Promise<ExecResult | null>;
  /** What the connection's earlier probes read, to answer the next ones from (read-cache.ts). */
  readonly reads?: ReadCache;
}

export type Connect = (host: Host) => Promise<ShellConnection>;

/** `seen`: a sh probe's own output and status, what a guarded apply compares (apply-then-probe.ts). */
export type ProbeOutcome<A = unknown> =
  | { ok: true; actual: A | null; seen?: { stdout: string; code: number | null } }
  | { ok: false; error: Error };

export class HostSession implements Remote {
  #connection: Promise<ShellConnection> | null = null;
  #unreachable: UnreachableError | null = null;
  /** Round trips made, for reports and benchmarks. */
  roundTrips = 0;

  /** `trace`: told what is sent (-vv), masked: a Script's text never holds a secret, a call's arguments are masked. */
  constructor(
    readonly host: Host,
    private readonly connect: Connect,
    private readonly trace?: (text: string) => void,
  ) {}

  get name(): string {
    return this.host.name;
  }
  get unreachable(): UnreachableError | null {
    return this.#unreachable;
  }

  /** The run is done with this host: forget the connection (the pool closes it), so it can be freed. */
  detach(): void {
    this.#connection = null;
  }

  async connection(): Promise<ShellConnection> {
    if (this.#unreachable) throw this.#unreachable;
    this.#connection ??= this.connect(this.host).catch((e: unknown) => {
      this.#unreachable =
        e instanceof UnreachableError ? e : new UnreachableError(this.host.name, (e as Error).message);
      throw this.#unreachable;
    });
    return this.#connection;
  }

  async run(script: Script, options?: ExecOptions): Promise<ExecResult> {
    if (!(script instanceof PsCall))
      this.trace?.(`${script.shell === 'ps' ? 'PowerShell' : 'sh'}: ${redact(script.text)}`);
    return this.#run(script, options);
  }

  #mustSpeak(shell: Script['shell']): void {
    const windows = this.host.connection.os === 'windows';
    if (windows !== (shell === 'ps')) {
      throw new Error(
        `${this.host.name} is a ${windows ? 'Windows' : 'Linux'} host: it cannot run a ${shell === 'ps' ? 'PowerShell' : 'sh'} script`,
      );
    }
  }

  async #run(script: Script, options?: ShellScriptOptions): Promise<ExecResult> {
    this.#mustSpeak(script.shell);
    if (script instanceof PsCall) return callAsExec((await this.callPowerShell([script], options))[0]!);
    if (script.shell === 'sh') {
      const inShell = await this.#inKeptShell(script.text, options);
      if (inShell) return inShell;
    }
    const conn = await this.connection();
    this.roundTrips++;
    if (script.shell === 'ps') {
      if (options?.stdin !== undefined)
        throw new Error('a PowerShell program already takes stdin: pass data in the call arguments');
      const out = await conn.exec(bootstrapCommand(), { ...options, stdin: script.text });
      return { ...out, stderr: decodeClixml(out.stderr) };
    }
    if (script.shell === 'sh') {
      // sshd does not deliver signals to root sessions, so closing a timed-out channel leaves the
      // command running: coreutils' timeout ends it on the host, a little after we gave up on it.
      const limit = options?.timeoutMs ? `timeout -k 5 ${Math.ceil(options.timeoutMs / 1000) + 2} ` : '';
      return conn.exec(`${limit}/bin/sh -c ${quoteSh(script.text)}`, options);
    }
    throw new Error(`unknown shell ${script.shell}`);
  }

  /** An sh script through the connection's kept shell, a session fewer per round trip after a host's
   *  first: null when it has none free (then it goes as an exec, or not at all: runAllThenProbe). */
  async #inKeptShell(text: string, options?: ShellScriptOptions): Promise<ExecResult | null> {
    const out = (await (await this.connection()).script?.(text, options)) ?? null;
    if (out) this.roundTrips++;
    return out;
  }

  /** Runs PowerShell calls as one program in one round trip: one result per call. */
  async callPowerShell(calls: readonly PsCall[], options?: ExecOptions): Promise<PsCallResult[]> {
    this.#mustSpeak('ps');
    if (this.trace)
      for (const c of calls) this.trace(`PowerShell call: ${c.fn.name} ${redact(JSON.stringify(c.args))}`);
    const conn = await this.connection();
    this.roundTrips++;
    const out = await conn.exec(bootstrapCommand(), { ...options, stdin: program(calls) });
    return parseResults({ ...out, stderr: decodeClixml(out.stderr) }, calls.length, this.host.name);
  }

  /** Runs the probes in as few round trips as their kinds allow (groupProbes); each probe's parse error is its own outcome. */
  async probe(given: readonly Probe<unknown>[], timeoutMs?: number): Promise<ProbeOutcome[]> {
    const probes = given.map(byChannel);
    const outcomes: ProbeOutcome[] = [];
    for (const group of groupProbes(probes.map((p) => (isCallProbe(p) ? p.call : p.script)))) {
      const part = group.indices.map((i) => probes[i]!);
      const got =
        group.kind === 'ps-calls'
          ? await this.#probePowerShell(part as CallProbe<unknown>[], timeoutMs)
          : group.kind === 'sh-batch'
            ? await this.#probeSh(part as ShellProbe<unknown>[], timeoutMs)
            : [await this.#probeAlone(part[0] as ShellProbe<unknown>, timeoutMs)];
      group.indices.forEach((i, k) => {
        outcomes[i] = got[k]!;
      });
    }
    return outcomes;
  }

  /** A PowerShell probe that is not a call (a user's own script): one round trip of its own. */
  async #probeAlone(probe: ShellProbe<unknown>, timeoutMs?: number): Promise<ProbeOutcome> {
    try {
      const result = await this.run(probe.script, { timeoutMs });
      return parseEach([probe], [result])[0]!;
    } catch (e) {
      if (e instanceof UnreachableError) throw e;
      return { ok: false, error: e as Error };
    }
  }

  async #probeSh(probes: readonly ShellProbe<unknown>[], timeoutMs?: number): Promise<ProbeOutcome[]> {
    if (this.trace) for (const p of probes) this.trace(`probe: ${redact(p.script.text)}`);
    const nonce = newNonce();
    const scripts = probes.map((p) => p.script);
    const conn = await this.connection();
    const reads = readBatch(conn.reads, probes, nonce);
    const batch = batchScript(scripts, nonce, reads?.prelude);
    const out =
      (await this.#probeInKeptShell(conn, batch, timeoutMs)) ?? (await this.#run(batch, { timeoutMs, readOnly: true }));
    let parts: ExecResult[];
    try {
      parts = splitBatch(reads ? { ...out, stdout: reads.expand(out.stdout) } : out, nonce, probes.length);
    } catch (e) {
      return probes.map(() => ({ ok: false, error: e as Error }));
    }
    return parseEach(probes, parts);
  }

  /** The batch through the connection's kept shell; null when it has none or it ended (then as an exec). */
  async #probeInKeptShell(conn: ShellConnection, batch: Script, timeoutMs?: number): Promise<ExecResult | null> {
    if (this.host.connection.os === 'windows' || !conn.probe) return null;
    try {
      const out = await conn.probe(batch.text, { timeoutMs });
      this.roundTrips++;
      return out;
    } catch (e) {
      if (e instanceof ShellGone) return null;
      throw e;
    }
  }

  /**
   * A sh apply script and then, in the same round trip, the sh probes (apply-then-probe.ts): the
   * apply's own result, and the probes' outcomes (null when the apply was cut short: probe again).
   */
  async runThenProbe(
    script: Script,
    probes: readonly ShellProbe<unknown>[],
    options?: ExecOptions,
  ): Promise<{ result: ExecResult; outcomes: ProbeOutcome[] | null }> {
    this.trace?.(`sh: ${redact(script.text)}`);
    if (this.trace)
      for (const p of probes) this.trace(`probe (after the apply, same round trip): ${redact(p.script.text)}`);
    const nonce = newNonce();
    const scripts = probes.map((p) => p.script);
    const reads = readBatch(undefined, probes, nonce);
    const out = await this.#run(applyThenProbeScript(script, scripts, nonce, reads?.prelude), options);
    const split = splitApplyThenProbe(out, nonce, probes.length, reads?.expand);
    if (!split) return { result: out, outcomes: null };
    const parts = split.probes;
    const outcomes =
      parts instanceof Error ? probes.map(() => ({ ok: false, error: parts }) as const) : parseEach(probes, parts);
    return { result: split.apply, outcomes };
  }

  /**
   * Several sh apply scripts, one after the other, and then the sh probes, in one round trip
   * (apply-then-probe.ts): each apply's own result (SKIPPED: a guarded one that did not run), and the
   * probes' outcomes (null when they did not all come back: probe again).
   */
  async runAllThenProbe(
    applies: readonly ApplyInput[],
    probes: readonly ShellProbe<unknown>[],
    options?: ExecOptions,
  ): Promise<{ results: (ExecResult | typeof SKIPPED)[]; outcomes: ProbeOutcome[] | null }> {
    for (const a of applies)
      this.trace?.(
        `sh (with ${applies.length - 1} more in this round trip${a.guard ? ', if its probe still prints what it printed' : ''}): ${redact(a.script.text)}`,
      );
    if (this.trace)
      for (const p of probes) this.trace(`probe (after the applies, same round trip): ${redact(p.script.text)}`);
    const nonce = newNonce();
    const reads = readBatch(undefined, probes, nonce);
    const scriptOf = (sent: readonly ApplyInput[]) =>
      appliesThenProbeScript(
        sent,
        probes.map((p) => p.script),
        nonce,
        reads?.prelude,
      );
    const stdin = appliesStdin(applies);
    // A guard carries its probe's output (a file's content, perhaps) in the script: it travels only in
    // the kept shell's stream, never on a command line. Without a free kept shell the guarded applies
    // are left out, and their steps take their turns.
    let sent = applies;
    let out: ExecResult | null = null;
    if (applies.some((a) => a.guard)) {
      this.#mustSpeak('sh');
      out = await this.#inKeptShell(scriptOf(applies).text, { ...options, stdin });
      if (!out) sent = applies.filter((a) => !a.guard);
    }
    out ??= await this.#run(scriptOf(sent), { ...options, stdin });
    const split = splitAppliesThenProbe(out, nonce, sent.length, probes.length, reads?.expand);
    const parts = split.probes;
    const results = new Map(sent.map((a, i) => [a, split.applies[i] ?? out]));
    return {
      // One cut short gets the whole output and the command's status, as an apply alone would.
      results: applies.map((a) => results.get(a) ?? SKIPPED),
      outcomes: parts instanceof Error ? null : parseEach(probes, parts),
    };
  }

  /**
   * An apply's PowerShell calls and then, in the same program, the call probes: each call runs in its
   * own try (the dispatcher's), so the probes run after the apply's calls whatever they returned.
   */
  async callThenProbe(
    calls: readonly PsCall[],
    probes: readonly CallProbe<unknown>[],
    options?: ExecOptions,
  ): Promise<{ results: PsCallResult[]; outcomes: ProbeOutcome[] }> {
    const all = await this.callPowerShell([...calls, ...probes.map((p) => p.call)], options);
    return { results: all.slice(0, calls.length), outcomes: readEach(probes, all.slice(calls.length)) };
  }

  async #probePowerShell(probes: readonly CallProbe<unknown>[], timeoutMs?: number): Promise<ProbeOutcome[]> {
    let results: PsCallResult[];
    try {
      results = await this.callPowerShell(
        probes.map((p) => p.call),
        { timeoutMs },
      );
    } catch (e) {
      if (e instanceof UnreachableError) throw e;
      return probes.map(() => ({ ok: false, error: e as Error }));
    }
    return readEach(probes, results);
  }
}

/**
 * A probe as the channel it travels on: a shell probe whose script is a call (built by hand, before call
 * probes existed) travels as a call, its parser given the value as the JSON text it was written for.
 */
function byChannel(probe: Probe<unknown>): Probe<unknown> {
  if (isCallProbe(probe) || !(probe.script instanceof PsCall)) return probe;
  return { call: probe.script, read: (value) => probe.parse(callAsExec({ ok: true, value })) };
}

/** Each call probe's reading of its call's value; a failed call or a value it cannot read is its own outcome. */
function readEach(probes: readonly CallProbe<unknown>[], results: readonly PsCallResult[]): ProbeOutcome[] {
  return probes.map((p, i) => {
    const r = results[i]!;
    if (!r.ok) return { ok: false, error: new Error(`probe failed on the host: ${r.error}`) };
    try {
      return { ok: true, actual: p.read(r.value) };
    } catch (e) {
      return { ok: false, error: new Error(`cannot read the probe's output: ${(e as Error).message}`) };
    }
  });
}

/** Each probe's parse of its part of a batch; a parse error is that probe's own outcome. */
function parseEach(probes: readonly ShellProbe<unknown>[], parts: readonly ExecResult[]): ProbeOutcome[] {
  return probes.map((p, i) => {
    const part = parts[i]!;
    try {
      return { ok: true, actual: p.parse(part), seen: { stdout: part.stdout, code: part.code } };
    } catch (e) {
      return { ok: false, error: new Error(`cannot read the probe's output: ${(e as Error).message}`) };
    }
  });
}

/**
 * A batch's use of a read cache: the kept connection's (`kept`), else one of this batch alone when
 * the probes expect what some files hold (ShellProbe.expect); none when neither.
 */
function readBatch(
  kept: ReadCache | undefined,
  probes: readonly ShellProbe<unknown>[],
  nonce: string,
): ReadBatch | undefined {
  const expected = expectedReads(probes);
  const cache = kept ?? (expected.size > 0 ? new ReadCache() : undefined);
  return cache?.batch(readPathsOf(probes.map((p) => p.script)), nonce, expected);
}
