// windowsService({ name, binPath, displayName?, startMode?, dependencies?, account?, password?,
// state?, restart? }): a Windows service registered with sc.exe (docs/domain.md#step-11-kubelet-service: `sc create kubelet
// binPath= "<kubelet.exe and flags> --windows-service" depend= docker DisplayName= "Kubernetes Node
// Agent" start= auto`; kube-proxy with `obj= "NT AUTHORITY\NetworkService"`).
// Fields: binPath, displayName, startMode, dependencies, account, state, restart.
// Outputs: { pid, state, restartedDependents }.
//
// The probe returns sc.exe's raw `qc` and `queryex` text, parsed here (sc-output.ts), so what is
// compared is what Windows stored: binPath arrives at sc.exe as one argument, exactly (ps-native.ts
// explains the quoting), and is compared exactly with BINARY_PATH_NAME. Display name exactly;
// dependencies as a set, account without regard to case (Windows ignores it). A delayed automatic
// start counts as 'auto'. The password (a Secret) is set with the account, through WMI rather than
// sc.exe's command line, and cannot be read back: it is applied when the account changes or the
// service is created, never compared. `restart: true` (for a task triggeredBy a config change, like
// a handler) restarts the running service every time the step runs, so it does not converge by
// design; the remote half stops the running dependents first and starts them again (field note B).
// Stopping a service whose dependents run fails, naming them.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { z } from 'zod';
import { oneOf, readOptions } from '../../runner/core/step-options.js';
import { isSecret, type Secret } from '../../runner/core/secret.js';
import { applyFields, type Remote, type Step } from '../../runner/core/step.js';
import { invoke, probeCall, type CallArgs } from './remote/calls.js';
import type { ArgsOf, ResultOf, ServiceStartMode, ServiceState } from './remote/contract.js';
import { SET_SERVICE, SET_SERVICE_STATE, GET_SERVICE } from './remote/ps-services.js';
import { parseScQc, parseScQueryex, type ScQc, type ScQueryex } from './parse/sc-output.js';
import { accepted, checked, type Refuse } from './options/checked.js';
import { listedServiceName, listOf, oneLine, serviceName } from './options/win-options.js';

export type StartMode = 'auto' | 'manual' | 'disabled';

const Options = checked(
  z.strictObject({
    name: serviceName(),
    binPath: oneLine().refine((v) => v.trim() === v, {
      error: 'must not start or end with spaces (sc qc would not show them)',
    }),
    displayName: oneLine(z.string()).optional(),
    startMode: oneOf('auto', 'manual', 'disabled').optional(),
    dependencies: listOf(listedServiceName()).optional(),
    /** e.g. 'LocalSystem', 'NT AUTHORITY\\NetworkService', '.\\svcuser' */
    account: oneLine(z.string()).optional(),
    password: accepted<Secret>(
      isSecret,
      () => 'must be a Secret (from the environment), never a plain string',
    ).optional(),
    state: oneOf('running', 'stopped').optional(),
    restart: z.boolean().default(false),
  }),
  (o, refuse: Refuse) => {
    o.dependencies?.forEach((v, i) => {
      if (v.toLowerCase() === o.name.toLowerCase()) refuse('a service cannot depend on itself', 'dependencies', i);
    });
    if (o.password !== undefined && o.account === undefined) refuse('is only used with account', 'password');
    if (o.restart && o.state !== 'running')
      refuse("needs state 'running' (a restart of a service that is not meant to run)", 'restart');
    return { ...o, ...(o.dependencies ? { dependencies: Object.freeze(o.dependencies) } : {}) };
  },
);

export type WindowsServiceOptions = z.input<typeof Options>;
export type WindowsServiceDesired = Readonly<z.output<typeof Options>>;

export interface WindowsServiceActual {
  readonly config: ScQc;
  readonly status: ScQueryex;
  readonly dependents: readonly string[];
}

export interface WindowsServiceOutputs {
  pid: number | null;
  state: ServiceState | null;
  restartedDependents: string[];
}

const KIND = 'windows.service';
const CONFIG_FIELDS = ['binPath', 'displayName', 'startMode', 'dependencies', 'account'] as const;
const ORDER = [...CONFIG_FIELDS, 'state', 'restart'];
const CONTRACT_MODE: Record<StartMode, ServiceStartMode> = { auto: 'Auto', manual: 'Manual', disabled: 'Disabled' };

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const norm = (x: readonly string[]) => [...new Set(x.map((s) => s.toLowerCase()))].sort().join('/');
  return norm(a) === norm(b);
};
const accountKey = (s: string) => s.replace(/^\.\\/, '').toLowerCase();

function configValue(field: (typeof CONFIG_FIELDS)[number], c: ScQc): unknown {
  switch (field) {
    case 'binPath':
      return c.binaryPathName;
    case 'displayName':
      return c.displayName;
    case 'startMode':
      return c.startType === 'auto' || c.startType === 'manual' || c.startType === 'disabled'
        ? c.startType
        : `${c.startType} (a driver start type)`;
    case 'dependencies':
      return [...c.dependencies];
    case 'account':
      return c.serviceStartName;
  }
}

function configDiffers(field: (typeof CONFIG_FIELDS)[number], d: WindowsServiceDesired, c: ScQc): boolean {
  switch (field) {
    case 'binPath':
      return d.binPath !== c.binaryPathName;
    case 'displayName':
      return d.displayName !== c.displayName;
    case 'startMode':
      return d.startMode !== c.startType;
    case 'dependencies':
      return !sameSet(d.dependencies!, c.dependencies);
    case 'account':
      return accountKey(d.account!) !== accountKey(c.serviceStartName);
  }
}

export function diffWindowsService(d: Readonly<WindowsServiceDesired>, a: WindowsServiceActual | null): Change {
  const managed = CONFIG_FIELDS.filter((f) => d[f] !== undefined);
  const after: Fields = Object.fromEntries(managed.map((f) => [f, d[f]]));
  if (a === null) {
    const fields: string[] = [...managed];
    if (d.state === 'running') {
      fields.push('state');
      after.state = 'running';
    }
    return { action: 'create', fields, before: null, after };
  }
  const changed: string[] = managed.filter((f) => configDiffers(f, d, a.config));
  const before: Fields = Object.fromEntries(
    changed.map((f) => [f, configValue(f as (typeof CONFIG_FIELDS)[number], a.config)]),
  );
  const picked: Fields = Object.fromEntries(changed.map((f) => [f, after[f]]));
  const running = a.status.state === 'Running';
  if (d.state !== undefined && running !== (d.state === 'running')) {
    changed.push('state');
    before.state = `${a.status.stateName.toLowerCase()}${a.status.pid ? ` (pid ${a.status.pid})` : ''}`;
    picked.state = d.state;
  } else if (d.restart && running) {
    changed.push('restart');
    before.restart = `pid ${a.status.pid}${a.dependents.length ? `, dependents ${a.dependents.join(', ')}` : ''}`;
    picked.restart = 'restarted';
  }
  if (changed.length === 0) return NOOP;
  return { action: changed.includes('restart') ? 'run' : 'update', fields: changed, before, after: picked };
}

function readActual(value: ResultOf<'Get-PlayService'>): WindowsServiceActual | null {
  if (value === null) return null;
  return { config: parseScQc(value.qc), status: parseScQueryex(value.queryex), dependents: value.dependents };
}

// Long because a step factory is one object: probe, diff, apply and outputs side by side
// (docs/adding-a-step.md), each short.
export function windowsService(
  options: WindowsServiceOptions,
): Step<WindowsServiceDesired, WindowsServiceActual, WindowsServiceOutputs> {
  const desired: WindowsServiceDesired = Object.freeze(readOptions(KIND, Options, options));
  const { name, restart } = desired;
  const title = `service ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: !restart,
    probe: () => probeCall(GET_SERVICE, { name }, readActual),
    diff: diffWindowsService,
    async apply(
      remote: Remote,
      change: Change,
      actual: WindowsServiceActual | null,
      d: WindowsServiceDesired,
    ): Promise<WindowsServiceOutputs> {
      const { binPath, displayName, startMode, dependencies, account, password, state } = d;
      const config: CallArgs<ArgsOf<'Set-PlayService'>> = { name: d.name, create: actual === null };
      let action = null as 'start' | 'stop' | 'restart' | null;
      await applyFields(change, ORDER, {
        binPath: async () => {
          config.binPath = binPath;
        },
        displayName: async () => {
          config.displayName = displayName;
        },
        startMode: async () => {
          config.startMode = CONTRACT_MODE[startMode!];
        },
        dependencies: async () => {
          config.dependencies = [...dependencies!];
        },
        account: async () => {
          config.account = account;
          if (password) config.password = password;
        },
        state: async () => {
          action = state === 'running' ? 'start' : 'stop';
        },
        restart: async () => {
          action = 'restart';
        },
      });
      if (actual === null && config.binPath === undefined) config.binPath = binPath;
      if (Object.keys(config).length > 2 || config.create)
        await invoke(remote, SET_SERVICE, config, `${title}: sc.exe ${config.create ? 'create' : 'config'}`);
      if (action === null) return outputsOf(actual);
      const result = await invoke(remote, SET_SERVICE_STATE, { name: d.name, action }, `${title}: ${action}`);
      return {
        pid: result.pid > 0 ? result.pid : null,
        state: result.state,
        restartedDependents: result.restartedDependents,
      };
    },
    outputs: (_d: Readonly<WindowsServiceDesired>, a: WindowsServiceActual | null): WindowsServiceOutputs =>
      outputsOf(a),
  });
}

function outputsOf(a: WindowsServiceActual | null): WindowsServiceOutputs {
  return { pid: a && a.status.pid > 0 ? a.status.pid : null, state: a?.status.state ?? null, restartedDependents: [] };
}
