// A rolling run's policy: the playbook's `rolling` block with the command line's values over it and
// every default filled in. The whole playbook block is checked even where a flag overrides a field
// (a mistake in the file is one whoever runs it without the flag meets next). Errors are
// RollingOptionError, whose `field` is the flag (`--serial`: the CLI says 64) or the playbook path
// (`rolling.serial`: 65). Pure.
import { MAX_WAIT_SEC } from '../core/long-sleep.js';
import { type AlertGateFlags, alertGateOf } from './alert-gate/spec.js';
import type { DrainTimeoutPolicy, RollingPolicy, RollingSpec } from './model.js';
import { parseFailBudget, parseSerial, RollingOptionError, shown } from './serial.js';
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

const SPEC_FIELDS = [
  'serial',
  'maxFail',
  'domainVar',
  'maxPerDomain',
  'soakSec',
  'control',
  'drainTimeoutSec',
  'onDrainTimeout',
  'readyTimeoutSec',
] as const;

const DRAIN_POLICIES: readonly DrainTimeoutPolicy[] = ['uncordon', 'keep-cordoned'];

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
    ...(o.maxPerDomain !== undefined && { maxPerDomain: whole(o.maxPerDomain, 1, 'hosts', '--max-per-domain') }),
    ...(o.soak !== undefined && { soakSec: waitSeconds(o.soak, 0, '--soak') }),
    ...(o.window !== undefined && { window: checkedWindow(o.window) }),
    ...(o.drainTimeout !== undefined && { drainTimeoutSec: waitSeconds(o.drainTimeout, 1, '--drain-timeout') }),
    ...(o.onDrainTimeout !== undefined && { onDrainTimeout: drainPolicy(o.onDrainTimeout, '--on-drain-timeout') }),
    ...(o.readyTimeout !== undefined && { readyTimeoutSec: waitSeconds(o.readyTimeout, 1, '--ready-timeout') }),
    ...(prometheusGate && { prometheusGate }),
  };
}

const isMapping = (v: unknown): v is RollingSpec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The playbook's block alone, checked field by field, with the defaults. */
function specPolicy(spec: unknown, where: string): RollingPolicy {
  if (!isMapping(spec)) {
    throw new RollingOptionError('rolling', `${where}: rolling: expected a mapping of options, got ${shown(spec)}`);
  }
  const s = spec as Record<string, unknown>;
  const unknown = Object.keys(s).find((k) => !(SPEC_FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined) {
    throw new RollingOptionError(
      `rolling.${unknown}`,
      `${where}: rolling.${unknown}: unknown option (known: ${SPEC_FIELDS.join(', ')})`,
    );
  }
  const at = (field: string) => [`rolling.${field}`, `${where}: rolling.${field}`] as const;
  const given = (field: (typeof SPEC_FIELDS)[number]) => s[field] !== undefined;
  // Without control: batches only (Ansible's serial), no cordon, drain or Ready gate.
  return {
    ...DEFAULTS,
    control: given('control')
      ? name(s.control, ...at('control'), 'the group whose first host runs kubectl (e.g. control)')
      : null,
    ...(given('serial') && { serial: renamed(at('serial'), (w) => parseSerial(s.serial, w)) }),
    ...(given('maxFail') && { maxFail: renamed(at('maxFail'), (w) => parseFailBudget(s.maxFail, w)) }),
    ...(given('domainVar') && {
      domainVar: name(s.domainVar, ...at('domainVar'), 'a host variable name (e.g. failure_domain)', VAR_NAME),
    }),
    ...(given('maxPerDomain') && { maxPerDomain: whole(s.maxPerDomain, 1, 'hosts', ...at('maxPerDomain')) }),
    ...(given('soakSec') && { soakSec: waitSeconds(s.soakSec, 0, ...at('soakSec')) }),
    ...(given('drainTimeoutSec') && {
      drainTimeoutSec: waitSeconds(s.drainTimeoutSec, 1, ...at('drainTimeoutSec')),
    }),
    ...(given('onDrainTimeout') && { onDrainTimeout: drainPolicy(s.onDrainTimeout, ...at('onDrainTimeout')) }),
    ...(given('readyTimeoutSec') && {
      readyTimeoutSec: waitSeconds(s.readyTimeoutSec, 1, ...at('readyTimeoutSec')),
    }),
  };
}

/** A parse function's error, with `field` the playbook path (its message already says where). */
function renamed<T>([field, where]: readonly [string, string], parse: (where: string) => T): T {
  try {
    return parse(where);
  } catch (e) {
    throw e instanceof RollingOptionError ? new RollingOptionError(field, e.message) : e;
  }
}

/** --window's text as given, once it parses (the run parses it again where it uses it). */
function checkedWindow(text: string): string {
  parseWindow(text, '--window');
  return text;
}

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A whole number of at least `min` (`unit`: what it counts, for the message). */
function whole(value: unknown, min: number, unit: string, field: string, where = field): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= min) return value;
  throw new RollingOptionError(
    field,
    `${where}: expected a whole number of ${unit} (${min} or more), got ${shown(value)}`,
  );
}

/** A wait (soak, drain, Ready): whole seconds from `min` to MAX_WAIT_SEC. */
function waitSeconds(value: unknown, min: number, field: string, where = field): number {
  const seconds = whole(value, min, 'seconds', field, where);
  if (seconds <= MAX_WAIT_SEC) return seconds;
  throw new RollingOptionError(field, `${where}: expected at most ${MAX_WAIT_SEC} seconds (7 days), got ${seconds}`);
}

/** A non-empty string (matching `pattern` when given). */
function name(value: unknown, field: string, where: string, expected: string, pattern?: RegExp): string {
  if (typeof value === 'string' && value.trim() !== '' && (!pattern || pattern.test(value))) return value;
  throw new RollingOptionError(field, `${where}: expected ${expected}, got ${shown(value)}`);
}

function drainPolicy(value: unknown, field: string, where = field): DrainTimeoutPolicy {
  if (DRAIN_POLICIES.includes(value as DrainTimeoutPolicy)) return value as DrainTimeoutPolicy;
  throw new RollingOptionError(field, `${where}: expected ${DRAIN_POLICIES.join(' or ')}, got ${shown(value)}`);
}
