// The re-probe an apply carries (Step.applyThenProbe): each thing the apply runs on the host is followed,
// in the same round trip, by the probes of the step's batch (its own first, then the host's next
// steps'): after a sh script in the same shell (apply-then-probe.ts), after PowerShell calls in the
// same program. The last round trip's outcomes stand; anything the apply runs later makes them stale.
import { PsCall, type PsCallResult } from '../core/ps-call.js';
import type { Script } from '../core/quote.js';
import {
  isCallProbe,
  type AnyStep,
  type CallProbe,
  type ExecOptions,
  type ExecResult,
  type ShellProbe,
} from '../core/step.js';
import type { HostSession, ProbeOutcome } from './host-session.js';
import { probeOf } from './probe-of.js';

type Channel = 'sh' | 'ps-calls';

/** The channel a probe can travel on after an apply: sh scripts, or PowerShell calls; null for neither. */
export function channelOf(step: AnyStep): Channel | null {
  const probe = probeOf(step);
  if (isCallProbe(probe)) return 'ps-calls';
  return probe.script.shell === 'sh' && !(probe.script instanceof PsCall) ? 'sh' : null;
}

export class CarriedProbe<T extends { readonly step: AnyStep }> {
  /** One per entry of `batch`, from the apply's last round trip; null until one carried the probes. */
  outcomes: ProbeOutcome[] | null = null;

  private constructor(
    /** The entries whose probes travel: the step's own first. */
    readonly batch: readonly T[],
    private readonly channel: Channel,
  ) {}

  /** The carrier for `step` when it opts in; `batch` starts with the step itself. */
  static of<T extends { readonly step: AnyStep }>(step: AnyStep, batch: readonly T[]): CarriedProbe<T> | null {
    const channel = step.applyThenProbe ? channelOf(step) : null;
    if (!channel) return null;
    return new CarriedProbe(
      batch.filter((b) => channelOf(b.step) === channel),
      channel,
    );
  }

  /** A sh apply script with the probes after it; null when this carrier does not carry it (run it alone). */
  run(session: HostSession, script: Script, options: ExecOptions): Promise<ExecResult> | null {
    this.outcomes = null;
    if (this.channel !== 'sh' || script.shell !== 'sh' || script instanceof PsCall) return null;
    const probes = this.batch.map((b) => probeOf(b.step) as ShellProbe<unknown>);
    return session.runThenProbe(script, probes, options).then(({ result, outcomes }) => {
      this.outcomes = outcomes;
      return result;
    });
  }

  /** The apply's PowerShell calls with the probe calls after them in one program; null when not carried. */
  call(session: HostSession, calls: readonly PsCall[], options: ExecOptions): Promise<PsCallResult[]> | null {
    this.outcomes = null;
    if (this.channel !== 'ps-calls') return null;
    const probes = this.batch.map((b) => probeOf(b.step) as CallProbe<unknown>);
    return session.callThenProbe(calls, probes, options).then(({ results, outcomes }) => {
      this.outcomes = outcomes;
      return results;
    });
  }
}
