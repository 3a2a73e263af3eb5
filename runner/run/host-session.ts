// One host as the steps see it: runs scripts through the host's single SSH connection and
// batches probes into one round trip. A connection failure is remembered, so every later step
// of that host is reported unreachable without another attempt.
import { UnreachableError } from '../core/errors.js';
import { quoteSh, type Script } from '../core/quote.js';
import type { ExecOptions, ExecResult, Probe, Remote } from '../core/step.js';
import type { Host } from '../inventory/model.js';
import { batchScript, newNonce, splitBatch } from './probe-batch.js';

/** What the session needs of a transport connection. */
export interface ShellConnection {
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
}

export type Connect = (host: Host) => Promise<ShellConnection>;

export type ProbeOutcome<A = unknown> = { ok: true; actual: A | null } | { ok: false; error: Error };

export class HostSession implements Remote {
  #connection: Promise<ShellConnection> | null = null;
  #unreachable: UnreachableError | null = null;
  /** Round trips made, for reports and benchmarks. */
  roundTrips = 0;

  constructor(readonly host: Host, private readonly connect: Connect) {}

  get name(): string { return this.host.name; }
  get unreachable(): UnreachableError | null { return this.#unreachable; }

  async connection(): Promise<ShellConnection> {
    if (this.#unreachable) throw this.#unreachable;
    this.#connection ??= this.connect(this.host).catch((e: unknown) => {
      this.#unreachable = e instanceof UnreachableError ? e : new UnreachableError(this.host.name, (e as Error).message);
      throw this.#unreachable;
    });
    return this.#connection;
  }

  async run(script: Script, options?: ExecOptions): Promise<ExecResult> {
    const conn = await this.connection();
    this.roundTrips++;
    if (script.shell === 'sh') {
      // sshd does not deliver signals to root sessions, so closing a timed-out channel leaves the
      // command running: coreutils' timeout ends it on the host, a little after we gave up on it.
      const limit = options?.timeoutMs ? `timeout -k 5 ${Math.ceil(options.timeoutMs / 1000) + 2} ` : '';
      return conn.exec(`${limit}/bin/sh -c ${quoteSh(script.text)}`, options);
    }
    throw new Error(`${this.host.name}: PowerShell scripts need the Windows transport, which this host does not have`);
  }

  /** Runs the probes in one round trip; each probe's parse error is its own outcome. */
  async probe(probes: readonly Probe<unknown>[], timeoutMs?: number): Promise<ProbeOutcome[]> {
    if (probes.length === 0) return [];
    const nonce = newNonce();
    const out = await this.run(batchScript(probes.map((p) => p.script), nonce), { timeoutMs });
    let parts: ExecResult[];
    try {
      parts = splitBatch(out, nonce, probes.length);
    } catch (e) {
      return probes.map(() => ({ ok: false, error: e as Error }));
    }
    return probes.map((p, i) => {
      try {
        return { ok: true, actual: p.parse(parts[i]!) };
      } catch (e) {
        return { ok: false, error: new Error(`cannot read the probe's output: ${(e as Error).message}`) };
      }
    });
  }
}
