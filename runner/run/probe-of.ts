// A step's probe, built once per step object and reused for the first probe, the re-probe after apply
// and the re-probe an apply carries: probe() is pure, so building it again would only cost time.
import type { Script } from '../core/quote.js';
import { isCallProbe, type AnyStep, type Probe } from '../core/step.js';

const built = new WeakMap<AnyStep, Probe<unknown>>();

export function probeOf(step: AnyStep): Probe<unknown> {
  let probe = built.get(step);
  if (!probe) {
    probe = step.probe() as Probe<unknown>;
    built.set(step, probe);
  }
  return probe;
}

/** The shell a probe runs in (a call runs in PowerShell): probes of one shell can share a round trip. */
export function shellOf(probe: Probe<unknown>): Script['shell'] {
  return isCallProbe(probe) ? 'ps' : probe.script.shell;
}
