// Optional Windows components, installed:
//   windowsFeature({ name })     a server role or feature (Install-WindowsFeature), e.g. Containers
//   windowsCapability({ name })  a capability (Add-WindowsCapability -Online), e.g. OpenSSH.Server~~~~0.0.1.0
// Field: installed. Output: rebootRequired (from the install; on later runs, true while the
// component's state is InstallPending, so a reboot task can still see it).
// A name the host does not know probes as absent: the plan says so, and apply fails.
import { NOOP, type Change } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Probe, Remote, Step } from '../../../../runner/core/step.js';
import { invoke, probeCall, stepFailure } from '../../remote/calls.js';
import { textMatching } from '../../options/win-options.js';
import { WINDOWS_FEATURE_REMOTE as REMOTE } from './remote.js';

const componentOptions = (pattern: RegExp, description: string) =>
  z.strictObject({ name: textMatching(pattern, description) });

export type ComponentOptions = z.input<ReturnType<typeof componentOptions>>;
export type ComponentDesired = Readonly<z.output<ReturnType<typeof componentOptions>>>;

export interface ComponentActual {
  /** false: the host has no component of that name. */
  readonly known: boolean;
  /** As Windows reports it: Installed, Available, InstallPending, Removed / NotPresent. */
  readonly state: string;
}

export interface ComponentOutputs {
  rebootRequired: boolean;
}

const INSTALLED = new Set(['Installed', 'InstallPending']);
/** What a probe of a name the host does not know reads as. */
const UNKNOWN: ComponentActual = { known: false, state: 'Unknown' };

function diffComponent(what: string) {
  return (d: Readonly<ComponentDesired>, a: ComponentActual | null): Change => {
    if (a === null) throw new Error(`a ${what} probe always reports a state`);
    if (a.state === 'InstallPending')
      return { ...NOOP, warnings: [`${d.name} is installed and completes with the next reboot`] };
    if (INSTALLED.has(a.state)) return NOOP;
    const warnings = a.known
      ? []
      : [
          `this host has no ${what} named ${d.name}: apply will fail (check the name with Get-Windows${what === 'feature' ? 'Feature' : 'Capability -Online'})`,
        ];
    return {
      action: 'create',
      fields: ['installed'],
      before: { installed: a.known ? a.state : 'unknown name' },
      after: { installed: 'Installed' },
      ...(warnings.length ? { warnings } : {}),
    };
  };
}

interface ComponentKind {
  readonly kind: string;
  readonly what: 'feature' | 'capability';
  readonly pattern: RegExp;
  readonly example: string;
  readonly probe: (name: string) => Probe<ComponentActual>;
  readonly install: (remote: Remote, name: string, what: string) => Promise<{ restartNeeded: boolean }>;
}

function component(
  spec: ComponentKind,
  options: ComponentOptions,
): Step<ComponentDesired, ComponentActual, ComponentOutputs> {
  const schema = componentOptions(spec.pattern, `a ${spec.what} name such as ${spec.example}`);
  const desired: ComponentDesired = Object.freeze(readOptions(spec.kind, schema, options));
  const title = `${spec.what} ${desired.name}`;

  return Object.freeze({
    kind: spec.kind,
    title,
    desired,
    probe: () => spec.probe(desired.name),
    diff: diffComponent(spec.what),
    async apply(
      remote: Remote,
      change: Change,
      actual: ComponentActual | null,
      d: ComponentDesired,
    ): Promise<ComponentOutputs> {
      if (!change.fields.includes('installed')) return { rebootRequired: false };
      if (actual && !actual.known) throw stepFailure(title, `this host has no ${spec.what} named ${d.name}`);
      const result = await spec.install(remote, d.name, title);
      return { rebootRequired: result.restartNeeded };
    },
    outputs: (_d: Readonly<ComponentDesired>, a: ComponentActual | null): ComponentOutputs => ({
      rebootRequired: a?.state === 'InstallPending',
    }),
  });
}

export function windowsFeature(options: ComponentOptions): Step<ComponentDesired, ComponentActual, ComponentOutputs> {
  return component(
    {
      kind: 'windows.feature',
      what: 'feature',
      pattern: /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
      example: 'Containers',
      probe: (name) =>
        probeCall(REMOTE['Get-PlayWindowsFeature'], { name }, (f) =>
          f ? { known: true, state: f.installState } : UNKNOWN,
        ),
      install: (remote, name, title) =>
        invoke(remote, REMOTE['Install-PlayWindowsFeature'], { name }, `${title}: Install-WindowsFeature`),
    },
    options,
  );
}

export function windowsCapability(
  options: ComponentOptions,
): Step<ComponentDesired, ComponentActual, ComponentOutputs> {
  return component(
    {
      kind: 'windows.capability',
      what: 'capability',
      pattern: /^[A-Za-z0-9][A-Za-z0-9_.~-]*$/,
      example: 'OpenSSH.Server~~~~0.0.1.0',
      probe: (name) =>
        probeCall(REMOTE['Get-PlayWindowsCapability'], { name }, (c) =>
          c ? { known: true, state: c.state } : UNKNOWN,
        ),
      install: (remote, name, title) =>
        invoke(remote, REMOTE['Add-PlayWindowsCapability'], { name }, `${title}: Add-WindowsCapability`),
    },
    options,
  );
}
