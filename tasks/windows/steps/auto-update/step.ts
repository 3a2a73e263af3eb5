// autoUpdate({ enabled }): automatic Windows Update on or off (docs/field-notes.md#a-hotfix-and-auto-update pins the OS build with
// `net stop wuauserv`, `cscript scregedit.wsf /AU 1`, `net start wuauserv`). Probed from the
// policy value HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU NoAutoUpdate: off means
// NoAutoUpdate = 1 (the value that stops the client on Server 2016 and later; AUOptions is shown
// in the plan but not managed). Field: enabled.
import { NOOP, type Change } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { invoke, probeCall } from '../../remote/calls.js';
import type { FunctionResult } from '../step-remote.js';
import { AUTO_UPDATE_REMOTE as REMOTE } from './remote.js';

const KIND = 'windows.autoUpdate';

const Options = z.strictObject({
  enabled: z.boolean({
    error: (iss) => (iss.input === undefined ? 'is required (false pins the OS build)' : undefined),
  }),
});

export type AutoUpdateOptions = z.input<typeof Options>;
export type AutoUpdateDesired = Readonly<z.output<typeof Options>>;

export type AutoUpdateActual = Readonly<FunctionResult<(typeof REMOTE)['Get-PlayAutoUpdate']>>;

function diffAutoUpdate(d: Readonly<AutoUpdateDesired>, a: AutoUpdateActual | null): Change {
  if (a === null) throw new Error('an auto-update probe always reports a state');
  const enabled = a.noAutoUpdate !== 1;
  if (enabled === d.enabled) return NOOP;
  const describe = (on: boolean) =>
    `${on ? 'enabled' : 'disabled'} (NoAutoUpdate ${a.noAutoUpdate ?? 'unset'}, AUOptions ${a.auOptions ?? 'unset'})`;
  return {
    action: 'update',
    fields: ['enabled'],
    before: { enabled: describe(enabled) },
    after: { enabled: d.enabled },
  };
}

export function autoUpdate(options: AutoUpdateOptions): Step<AutoUpdateDesired, AutoUpdateActual> {
  const desired: AutoUpdateDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `automatic updates ${desired.enabled ? 'on' : 'off'}`;
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayAutoUpdate'], {}, (policy) => policy),
    diff: diffAutoUpdate,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, _actual: AutoUpdateActual | null, d: AutoUpdateDesired): Promise<void> {
      if (change.fields.includes('enabled'))
        await invoke(remote, REMOTE['Set-PlayAutoUpdate'], { enabled: d.enabled }, `${title}: wuauserv`);
    },
  });
}
