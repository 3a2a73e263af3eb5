// A step is data plus three functions (see docs/architecture.md#the-step-model): normalized desired state, a read-only
// probe, a pure diff and an apply that acts on the changed fields only. Building a step does no
// I/O; the runner probes, diffs, applies, and probes again to prove convergence.
import type { Change } from './change.js';
import type { PsCall, PsCallResult } from './ps-call.js';
import type { Script } from './quote.js';
import type { Secret } from './secret.js';

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Exit code; null when the command was killed by a signal. */
  code: number | null;
}

export interface ExecOptions {
  /** Sent on the command's standard input: the only way secrets and file contents travel. */
  stdin?: string | Buffer | Secret;
  timeoutMs?: number;
}

/** An sh script for a connection's kept shell (transport/kept-shell.ts). */
export interface ShellScriptOptions extends ExecOptions {
  /** A probe: it may ride in a new kept shell's exec request (kept-shell.ts shellCommand). */
  readOnly?: boolean;
}

/** What a step sees of the host it runs on. */
export interface Remote {
  readonly name: string;
  run(script: Script, options?: ExecOptions): Promise<ExecResult>;
  /**
   * PowerShell calls in one program, one decoded result per call. Optional: over a Remote without it
   * (a test double) a call goes through `run` and comes back as JSON text (callOn).
   */
  callPowerShell?(calls: readonly PsCall[], options?: ExecOptions): Promise<PsCallResult[]>;
}

/** A probe that is a shell script (sh, or a user's own PowerShell text) and a parser of its output. */
export interface ShellProbe<A> {
  readonly script: Script;
  /** Parses the probe's output into the actual state; `null` means absent. Throws on nonsense. */
  parse(result: ExecResult): A | null;
  /**
   * What the step expects some of the files its script reads (content-read.ts) to hold: the host
   * confirms a file by its digest instead of sending it (read-cache.ts). A guess only saves work:
   * a file that differs is read as always. Never a secret's content.
   */
  readonly expect?: ReadonlyMap<string, string>;
}

/** A probe that is one PowerShell call and a reader of the value it returned (already decoded, not text). */
export interface CallProbe<A> {
  readonly call: PsCall;
  /** Reads the call's value into the actual state; `null` means absent. Throws on a value of the wrong shape. */
  read(value: unknown): A | null;
}

/** A read-only probe that the runner may batch with other probes of the same host, by channel. */
export type Probe<A> = ShellProbe<A> | CallProbe<A>;

export function isCallProbe<A>(probe: Probe<A>): probe is CallProbe<A> {
  return 'call' in probe;
}

export interface Step<D = unknown, A = unknown, O extends object = object> {
  /** The step type, e.g. `linux.file`. */
  readonly kind: string;
  /** What it manages, for people: `file /etc/sysctl.d/90-play.conf`. */
  readonly title: string;
  readonly desired: Readonly<D>;
  probe(): Probe<A>;
  diff(desired: Readonly<D>, actual: A | null): Change;
  /**
   * Acts on change.fields only, towards `desired` (the runner passes the step's own); may return
   * outputs known only from applying (e.g. rebootRequired).
   */
  apply(remote: Remote, change: Change, actual: A | null, desired: Readonly<D>): Promise<Partial<O> | void>;
  /** Outputs derived from the (converged) actual state. */
  outputs?(desired: Readonly<D>, actual: A | null): O;
  /**
   * False for steps whose action is `run` every time (a command without a guard): the runner
   * then does not require an empty diff after apply.
   */
  readonly converges?: boolean;
  /**
   * True when the runner may run the probe right after each thing the apply runs, in the same round
   * trip (runner/run/carried-probe.ts): after each sh script in the same shell, after each PowerShell
   * call in the same program. For steps whose state is readable as soon as that returns (no daemon
   * that starts later, no reboot, no dropped connection). The probe is still the real probe.
   */
  readonly applyThenProbe?: boolean;
}

export type AnyStep = Step<any, any, any>;

/** A step whose probe is a shell script (every Linux step), so its probe's `script` and `parse` are at hand. */
export interface ShellStep<D = unknown, A = unknown, O extends object = object> extends Step<D, A, O> {
  probe(): ShellProbe<A>;
}

/** A call as a shell-like result, for a Remote that answers calls through `run`: the value as JSON on stdout. */
export function callAsExec(result: PsCallResult): ExecResult {
  return result.ok
    ? { stdout: JSON.stringify(result.value), stderr: '', code: 0 }
    : { stdout: '', stderr: result.error, code: 1 };
}

/** One call on `remote`: through its PowerShell channel when it has one, else through `run` and back from JSON. */
export async function callOn(remote: Remote, call: PsCall, options?: ExecOptions): Promise<PsCallResult> {
  if (remote.callPowerShell) {
    const [result] = await remote.callPowerShell([call], options);
    return result!;
  }
  const result = await remote.run(call, options);
  if (result.code !== 0) return { ok: false, error: result.stderr || result.stdout };
  try {
    return { ok: true, value: JSON.parse(result.stdout) };
  } catch {
    throw new Error(`${call.fn.name} returned no JSON: ${JSON.stringify(result.stdout.slice(0, 200))}`);
  }
}

/**
 * Runs the setters of the changed fields, one per field, in the declared order. A changed field
 * without a setter is a programming error, reported as such.
 */
export async function applyFields(
  change: Change,
  order: readonly string[],
  setters: Record<string, () => Promise<void>>,
): Promise<void> {
  for (const f of change.fields) {
    if (!order.includes(f)) throw new Error(`no setter declared for field '${f}'`);
  }
  for (const f of order) {
    if (change.fields.includes(f)) await setters[f]!();
  }
}
