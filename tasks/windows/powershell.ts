// powershell({ script, parameters?, creates? | removes? | unless?, changedWhen? }): the user's own
// PowerShell on a Windows host, an escape hatch like ansible.windows.win_powershell.
//  - script: PowerShell 5.1 text, code written by the playbook author (never built from inventory
//    values: pass those as `parameters`, which arrive as data, splatted: `param($Name)` reads them).
//  - creates/removes (absolute paths) and unless (PowerShell whose success means nothing to do) are
//    read by the probe, batched with the host's other calls; with any of them the plan is noop or
//    `run`, and after the run the re-probe must find the guard satisfied. Without a guard the plan
//    is always `run` and the step does not converge (converges: false), as linux.command.
//  - changed: like win_powershell, a run is a change unless the script sets `$Play.Changed = $false`;
//    changedWhen({ output, hostOut, changed }) decides instead. An unchanged run is reported ok.
// The script must not use `exit` (it would end play's program, not the script: the probe refuses
// it, with a syntax error, before any apply) nor write to [Console]::Out. It fails on an error (the
// bootstrap's $ErrorActionPreference is Stop) or a non-zero $LASTEXITCODE. Outputs: { output,
// hostOut }, the output objects as JSON values (depth 2) and what Write-Host wrote.
import type { Change } from '../../runner/core/change.js';
import { unchanged } from '../../runner/core/applied.js';
import { z } from 'zod';
import { nonEmpty, readOptions } from '../../runner/core/step-options.js';
import { isSecret } from '../../runner/core/secret.js';
import { applyFields, type Remote, type Step } from '../../runner/core/step.js';
import { invokeFunction } from './remote/open-function.js';
import { INVOKE_SCRIPT } from './remote/ps-escape.js';
import { accepted, checked, type Refuse } from './options/checked.js';
import {
  changedWhenOption,
  diffGuarded,
  type GuardsActual,
  type GuardsDesired,
  guardOptions,
  guardsProbe,
  hasGuard,
  judgeChanged,
} from './run-guards.js';

export type PowershellParameter = string | number | boolean | null | string[];

export interface PowershellResult {
  /** The script's output objects as JSON values (depth 2). */
  readonly output: readonly unknown[];
  /** What Write-Host (the information stream) wrote, one string per call. */
  readonly hostOut: readonly string[];
  /** `$Play.Changed` as the script left it (true unless it set it to $false). */
  readonly changed: boolean;
}

export interface PowershellDesired extends GuardsDesired {
  readonly script: string;
  readonly parameters: Readonly<Record<string, PowershellParameter>>;
}

export interface PowershellOutputs {
  output: readonly unknown[];
  hostOut: readonly string[];
}

const KIND = 'windows.powershell';

function isParameterValue(v: unknown): v is PowershellParameter {
  return (
    v === null ||
    ['string', 'number', 'boolean'].includes(typeof v) ||
    (Array.isArray(v) && v.every((x) => typeof x === 'string'))
  );
}

/** Values the script reads with param(): data, never secrets (PowerShell errors may quote them). */
const parameters = () =>
  checked(
    accepted<Readonly<Record<string, PowershellParameter>>>(
      (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
      () => 'must be an object of name: value',
    ),
    (v, refuse: Refuse) => {
      for (const [name, value] of Object.entries(v)) {
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          refuse('must be named as a PowerShell parameter (letters, digits, _)', name);
        if (isSecret(value))
          refuse(
            'is a secret: parameters travel as JSON data, where PowerShell errors may quote them; write the secret with fileContent and read the file',
            name,
          );
        if (!isParameterValue(value)) refuse('must be a string, number, boolean, null or a list of strings', name);
      }
      return Object.freeze({ ...v });
    },
  );

const Options = z.strictObject({
  script: nonEmpty().refine((v) => !v.includes('\0'), { error: 'must not contain a NUL byte' }),
  parameters: parameters().optional(),
  ...guardOptions(),
  changedWhen: changedWhenOption<PowershellResult>(),
});

export type PowershellOptions = z.input<typeof Options>;

function firstLine(script: string): string {
  const line = script.trim().split(/\r?\n/)[0]!;
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

function parseOutput(text: string): unknown[] {
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed : [parsed];
}

export function powershell(options: PowershellOptions): Step<PowershellDesired, GuardsActual, PowershellOutputs> {
  const { changedWhen, ...o } = readOptions(KIND, Options, options);
  const desired: PowershellDesired = Object.freeze({ ...o, parameters: o.parameters ?? Object.freeze({}) });
  const title = `powershell ${firstLine(desired.script)}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: hasGuard(desired),
    probe: () => guardsProbe(desired, desired.script),
    diff: (d: Readonly<PowershellDesired>, a: GuardsActual | null) => diffGuarded(d, a, 'script', firstLine(d.script)),
    async apply(
      remote: Remote,
      change: Change,
      _actual: GuardsActual | null,
      d: PowershellDesired,
    ): Promise<PowershellOutputs> {
      let outputs: PowershellOutputs = { output: [], hostOut: [] };
      let changed = true;
      await applyFields(change, ['script'], {
        script: async () => {
          const r = await invokeFunction(remote, INVOKE_SCRIPT, { script: d.script, parameters: d.parameters }, title);
          outputs = { output: parseOutput(r.output), hostOut: r.hostOut };
          changed = judgeChanged(KIND, changedWhen, { ...outputs, changed: r.changed }, r.changed);
        },
      });
      return changed ? outputs : unchanged(outputs);
    },
    outputs: (): PowershellOutputs => ({ output: [], hostOut: [] }),
  });
}
