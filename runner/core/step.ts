// A step is data plus three functions (see docs/architecture.md#the-step-model): normalized desired state, a read-only
// probe, a pure diff and an apply that acts on the changed fields only. Building a step does no
// I/O; the runner probes, diffs, applies, and probes again to prove convergence.
import type { Change } from './change.js';
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

/** What a step sees of the host it runs on. */
export interface Remote {
  readonly name: string;
  run(script: Script, options?: ExecOptions): Promise<ExecResult>;
}

/** A read-only probe that the runner may batch with other probes of the same host. */
export interface Probe<A> {
  readonly script: Script;
  /** Parses the probe's output into the actual state; `null` means absent. Throws on nonsense. */
  parse(result: ExecResult): A | null;
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
   * True when the runner may run the probe in the same shell right after each script apply runs,
   * so that apply and the re-probe after it are one round trip (runner/run/apply-then-probe.ts).
   * For sh steps whose state is readable as soon as their apply script exits (no daemon that starts
   * later, no reboot, no dropped connection). The probe is still the real probe, its own script.
   */
  readonly applyThenProbe?: boolean;
}

export type AnyStep = Step<any, any, any>;

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
