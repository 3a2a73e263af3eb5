// The Windows step of one's own that docs/own-repository.md shows, word for word apart from the
// imports (a user writes `from 'play'` and `from 'play/windows'`): escape-hatches.test.ts runs it.
import { type Change, diffFields, nonEmpty, readOptions, type Remote, type Step, z } from '../../../runner/index.js';
import { defineFunction, invokeFunction, probeFunction } from '../../../tasks/windows/index.js';

const GET = defineFunction({
  name: 'Get-PlayContosoSetting',
  args: z.strictObject({ name: z.string() }),
  result: z.strictObject({ value: z.string().nullable() }),
  body: String.raw`
  $item = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Contoso' -Name $a.name -ErrorAction SilentlyContinue
  $value = $null
  if ($null -ne $item) { $value = [string]$item.($a.name) }
  [ordered]@{ value = $value }
`,
});

const SET = defineFunction({
  name: 'Set-PlayContosoSetting',
  args: z.strictObject({ name: z.string(), value: z.string() }),
  result: z.strictObject({}),
  body: String.raw`
  if (-not (Test-Path -LiteralPath 'HKLM:\SOFTWARE\Contoso')) { New-Item -Path 'HKLM:\SOFTWARE\Contoso' -Force | Out-Null }
  Set-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Contoso' -Name $a.name -Value $a.value
  [ordered]@{}
`,
});

// The options: a wrong one is a StepOptionError naming the kind and field (`contoso.setting: option
// 'name' must not be empty`), and an unknown one is refused with the known ones listed.
const Options = z.strictObject({ name: nonEmpty(), value: z.string() });
type Desired = z.output<typeof Options>;

export function contosoSetting(options: z.input<typeof Options>): Step<Desired, Desired> {
  const desired = Object.freeze(readOptions('contoso.setting', Options, options));
  return Object.freeze({
    kind: 'contoso.setting',
    title: `contoso setting ${desired.name}`,
    desired,
    probe: () =>
      probeFunction(GET, { name: desired.name }, (v) => (v.value === null ? null : { ...desired, value: v.value })),
    diff: (d: Desired, a: Desired | null): Change => diffFields(d, a, ['value']),
    async apply(remote: Remote, change: Change, _actual: Desired | null, d: Desired) {
      if (change.fields.includes('value')) await invokeFunction(remote, SET, d, this.title);
    },
  });
}
