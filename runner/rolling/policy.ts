// A rolling run's policy: the playbook's `rolling` block with the command line's values over it and
// every default filled in. The whole playbook block is checked even where a flag overrides a field
// (a mistake in the file is one whoever runs it without the flag meets next). Errors are
// RollingOptionError, whose `field` is the flag (`--serial`: the CLI says 64) or the playbook path
// (`rolling.serial`: 65). Pure.
import { type AlertGateFlags, alertGateOf } from './alert-gate/spec.js';
import type { RollingPolicy, RollingSpec } from './model.js';
import { drainPolicy, flagValue, rollingBlockSchema, rollingProblem, waitSeconds, whole } from './policy-schema.js';
import { parseFailBudget, parseSerial, RollingOptionError } from './serial.js';
import { parseWindow } from './window.js';

/**
 * The command line's values, as yargs gives them; each one given wins over the playbook's. `notify` is
 * not a part of the policy: it is where this invocation's notices go (runner/rolling/notify-queue.ts),
 * never recorded (its URL often holds a token), and may be given with --resume.
 */
export interface RollingOverrides extends AlertGateFlags {
  serial?: string;
  maxFail?: string;
  maxPerDomain?: number;
  /** Seconds. */
  soak?: number;
  window?: string;
  drainTimeout?: number;
  onDrainTimeout?: string;
  readyTimeout?: number;
  notify?: string;
}

const DEFAULTS = {
  serial: [1],
  maxFail: 0,
  domainVar: 'failure_domain',
  maxPerDomain: null,
  soakSec: 0,
  drainTimeoutSec: 300,
  onDrainTimeout: 'uncordon',
  readyTimeoutSec: 600, // Ansible win_reboot's reboot_timeout
  window: null,
} as const satisfies Omit<RollingPolicy, 'control' | 'alertGate'>;

/** `spec` (from the playbook at `where`) checked, defaulted and overridden by the command line. */
export function rollingPolicy(spec: RollingSpec, overrides: RollingOverrides, where: string): RollingPolicy {
  // The alert gate is checked on its own (alert-gate/spec.ts), and is in the policy only when there is one.
  const { alertGate: gateBlock, ...rest } = isMapping(spec) ? spec : { alertGate: undefined };
  const fromFile = specPolicy(isMapping(spec) ? rest : spec, where);
  const o = overrides;
  const prometheusGate = alertGateOf(gateBlock, o, where);
  return {
    ...fromFile,
    ...(o.serial !== undefined && { serial: parseSerial(o.serial, '--serial') }),
    ...(o.maxFail !== undefined && { maxFail: parseFailBudget(o.maxFail, '--max-fail') }),
    ...(o.maxPerDomain !== undefined && {
      maxPerDomain: flagValue(whole(1, 'hosts'), o.maxPerDomain, '--max-per-domain'),
    }),
    ...(o.soak !== undefined && { soakSec: flagValue(waitSeconds(0), o.soak, '--soak') }),
    ...(o.window !== undefined && { window: checkedWindow(o.window) }),
    ...(o.drainTimeout !== undefined && {
      drainTimeoutSec: flagValue(waitSeconds(1), o.drainTimeout, '--drain-timeout'),
    }),
    ...(o.onDrainTimeout !== undefined && {
      onDrainTimeout: flagValue(drainPolicy(), o.onDrainTimeout, '--on-drain-timeout'),
    }),
    ...(o.readyTimeout !== undefined && {
      readyTimeoutSec: flagValue(waitSeconds(1), o.readyTimeout, '--ready-timeout'),
    }),
    ...(prometheusGate && { prometheusGate }),
  };
}

const isMapping = (v: unknown): v is RollingSpec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The playbook's block alone, checked by its schema, with the defaults. */
function specPolicy(spec: unknown, where: string): RollingPolicy {
  const result = rollingBlockSchema.safeParse(spec);
  if (!result.success) {
    const [field, text] = rollingProblem(result.error);
    throw new RollingOptionError(field, `${where}: ${field}: ${text}`);
  }
  // Without control: batches only (Ansible's serial), no cordon, drain or Ready gate.
  return { ...DEFAULTS, control: null, ...defined(result.data) };
}

/** `o` without its undefined fields, so that they do not hide the defaults. */
const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };

/** --window's text as given, once it parses (the run parses it again where it uses it). */
function checkedWindow(text: string): string {
  parseWindow(text, '--window');
  return text;
}
