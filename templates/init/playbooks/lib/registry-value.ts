// A Windows step of your own (docs/own-repository.md, "A Windows step of your own"): one registry value
// (a string) under a key. Its remote half is two PowerShell functions declared with defineFunction:
// the probe reads the value (batched with the host's other probes), the apply writes it; arguments and
// results are checked against their zod schemas and travel as JSON data, never as code. The bodies run
// on Windows PowerShell 5.1 (no `??`, `?.` or `&&`). test/registry-value.test.ts runs it three times.
import { type Change, diffFields, nonEmpty, readOptions, type Remote, type Step, z } from 'play';
import { defineFunction, invokeFunction, probeFunction } from 'play/windows';

const GET = defineFunction({
  name: 'Get-PlayExampleRegistryValue',
  args: z.strictObject({ key: z.string(), name: z.string() }),
  result: z.strictObject({ value: z.string().nullable() }),
  body: String.raw`
  $item = Get-ItemProperty -LiteralPath $a.key -Name $a.name -ErrorAction SilentlyContinue
  $value = $null
  if ($null -ne $item) { $value = [string]$item.($a.name) }
  [ordered]@{ value = $value }
`,
});

const SET = defineFunction({
  name: 'Set-PlayExampleRegistryValue',
  args: z.strictObject({ key: z.string(), name: z.string(), value: z.string() }),
  result: z.strictObject({}),
  body: String.raw`
  if (-not (Test-Path -LiteralPath $a.key)) { New-Item -Path $a.key -Force | Out-Null }
  Set-ItemProperty -LiteralPath $a.key -Name $a.name -Value $a.value
  [ordered]@{}
`,
});

// What the step accepts, as a zod schema: readOptions turns a wrong option into one error naming the
// step and the field (`example.registryValue: option 'key' must not be empty`).
const Options = z.strictObject({ key: nonEmpty(), name: nonEmpty(), value: z.string() });
export type RegistryValue = z.output<typeof Options>;

/** The string value `name` under registry key `key` (e.g. `HKLM:\SOFTWARE\Example`) is `value`. */
export function registryValue(options: z.input<typeof Options>): Step<RegistryValue, RegistryValue> {
  const desired = Object.freeze(readOptions('example.registryValue', Options, options));
  const where = { key: desired.key, name: desired.name };
  return Object.freeze({
    kind: 'example.registryValue',
    title: `registry value ${desired.key}\\${desired.name}`,
    desired,
    probe: () => probeFunction(GET, where, (v) => (v.value === null ? null : { ...desired, value: v.value })),
    diff: (d: RegistryValue, a: RegistryValue | null): Change => diffFields(d, a, ['value']),
    async apply(remote: Remote, change: Change, _actual: RegistryValue | null, d: RegistryValue) {
      if (change.fields.includes('value')) await invokeFunction(remote, SET, d, this.title);
    },
  });
}
