// nssmService({ name, application, appParameters, appDirectory?, dependOnService? }): a service run
// by nssm, the Non-Sucking Service Manager (docs/field-notes.md#d-services-with-nssm: `nssm install`, `nssm set <svc>
// AppParameters|AppDirectory|DependOnService`, `nssm get`). nssm.exe is looked up on the PATH, then
// as C:\k\nssm.exe (where field notes B and D keep it). Fields: application, appParameters, appDirectory,
// dependOnService. The service's state is not this step's: use windowsService (with binPath the
// nssm.exe path) for state and restarts, which also handles the dependents that make
// `nssm restart` fail (docs/field-notes.md#b-restarting-a-service-with-dependents).
//
// Values are compared as `nssm get` prints them (nssm-output.ts): application and appDirectory
// without regard to case (Windows paths), appParameters exactly (it may hold `--resolv-conf=""`,
// which Invoke-Native passes to nssm unchanged), dependOnService as a set.
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { invoke, probeCall, type CallArgs } from '../../remote/calls.js';
import { parseNssmGet, parseNssmList } from '../../parse/nssm-output.js';
import { listedServiceName, listOf, oneLine, serviceName, windowsPath } from '../../options/win-options.js';
import type { FunctionArgs, FunctionResult } from '../step-remote.js';
import { NSSM_SERVICE_REMOTE as REMOTE } from './remote.js';

const Options = z.strictObject({
  name: serviceName(),
  application: windowsPath(),
  appParameters: oneLine(
    z.string({ error: (iss) => (iss.input === undefined ? "is required ('' for none)" : undefined) }),
  ),
  appDirectory: windowsPath().optional(),
  dependOnService: listOf(listedServiceName())
    .transform((v) => Object.freeze(v))
    .optional(),
});

export type NssmServiceOptions = z.input<typeof Options>;
export type NssmServiceDesired = Readonly<z.output<typeof Options>>;

export interface NssmServiceActual {
  readonly application: string;
  readonly appParameters: string;
  readonly appDirectory: string;
  readonly dependOnService: readonly string[];
}

const KIND = 'windows.nssmService';
const FIELDS = ['application', 'appParameters', 'appDirectory', 'dependOnService'] as const;
type Field = (typeof FIELDS)[number];

function differs(f: Field, d: NssmServiceDesired, a: NssmServiceActual): boolean {
  switch (f) {
    case 'application':
      return d.application.toLowerCase() !== a.application.toLowerCase();
    case 'appParameters':
      return d.appParameters !== a.appParameters;
    case 'appDirectory':
      return d.appDirectory!.toLowerCase() !== a.appDirectory.toLowerCase();
    case 'dependOnService': {
      const norm = (x: readonly string[]) => [...new Set(x.map((s) => s.toLowerCase()))].sort().join('/');
      return norm(d.dependOnService!) !== norm(a.dependOnService);
    }
  }
}

function diffNssmService(d: Readonly<NssmServiceDesired>, a: NssmServiceActual | null): Change {
  const managed = FIELDS.filter((f) => d[f] !== undefined);
  const after: Fields = Object.fromEntries(managed.map((f) => [f, d[f]]));
  if (a === null) return { action: 'create', fields: managed, before: null, after };
  const changed = managed.filter((f) => differs(f, d, a));
  if (changed.length === 0) return NOOP;
  return {
    action: 'update',
    fields: changed,
    before: Object.fromEntries(changed.map((f) => [f, a[f]])),
    after: Object.fromEntries(changed.map((f) => [f, after[f]])),
  };
}

function readActual(value: FunctionResult<(typeof REMOTE)['Get-PlayNssmService']>): NssmServiceActual | null {
  if (value === null) return null;
  return {
    application: parseNssmGet(value.Application),
    appParameters: parseNssmGet(value.AppParameters),
    appDirectory: parseNssmGet(value.AppDirectory),
    dependOnService: parseNssmList(value.DependOnService),
  };
}

export function nssmService(options: NssmServiceOptions): Step<NssmServiceDesired, NssmServiceActual> {
  const desired: NssmServiceDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `nssm service ${desired.name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayNssmService'], { name: desired.name }, readActual),
    diff: diffNssmService,
    async apply(
      remote: Remote,
      change: Change,
      actual: NssmServiceActual | null,
      d: NssmServiceDesired,
    ): Promise<void> {
      const { application, appParameters, appDirectory, dependOnService } = d;
      const args: CallArgs<FunctionArgs<(typeof REMOTE)['Set-PlayNssmService']>> = {
        name: d.name,
        install: actual === null,
      };
      for (const f of change.fields) {
        if (f === 'application') args.application = application;
        else if (f === 'appParameters') args.appParameters = appParameters;
        else if (f === 'appDirectory') args.appDirectory = appDirectory;
        else if (f === 'dependOnService') args.dependOnService = [...dependOnService!];
        else throw new Error(`no setter declared for field '${f}'`);
      }
      if (args.install) args.application = application;
      await invoke(remote, REMOTE['Set-PlayNssmService'], args, `${title}: nssm ${args.install ? 'install' : 'set'}`);
    },
  });
}
