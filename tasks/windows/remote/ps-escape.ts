// The remote half of the escape hatches windows.powershell and windows.command: functions of the
// open API (open-function.ts), so they batch with the host's other calls like every built-in probe.
//  - Test-PlayGuards: the probe. Parses the user's script (and `unless`) with PowerShell's parser
//    first, refusing a syntax error or an `exit` (which would end play's whole program, not the
//    script), then answers whether `creates`/`removes` exist and whether `unless` succeeded.
//  - Invoke-PlayScript: runs the script as a script block with its parameters splatted, Write-Host
//    captured (stream 6, so it cannot corrupt the JSON on stdout), the output as JSON of depth 2 (as
//    ansible.windows.win_powershell's `depth`), and `$Play.Changed` the script may set to $false.
//  - Invoke-PlayProgram: a program with its argv through Invoke-Native (ps-native.ts: the C runtime's
//    quoting, System.Diagnostics.Process, no cmd.exe, no PowerShell parsing of the arguments).
import { z } from 'zod';
import { defineFunction } from './open-function.js';
import { INVOKE_NATIVE } from './ps-native.js';

/** `unless` succeeds when it throws nothing, leaves $LASTEXITCODE 0 and its last output is not $false. */
export const TEST_GUARDS = defineFunction({
  name: 'Test-PlayGuards',
  args: z.strictObject({
    script: z.string().nullable(),
    creates: z.string().nullable(),
    removes: z.string().nullable(),
    unless: z.string().nullable(),
  }),
  result: z.strictObject({
    createsExists: z.boolean().nullable(),
    removesExists: z.boolean().nullable(),
    unlessSucceeded: z.boolean().nullable(),
  }),
  body: String.raw`
  foreach ($part in @(@('script', $a.script), @('unless', $a.unless))) {
    if ($null -eq $part[1]) { continue }
    $tokens = $null
    $errors = $null
    $ast = [System.Management.Automation.Language.Parser]::ParseInput([string]$part[1], [ref]$tokens, [ref]$errors)
    if ($errors.Count -gt 0) {
      throw ('the ' + $part[0] + ' does not parse: line ' + $errors[0].Extent.StartLineNumber + ': ' + $errors[0].Message)
    }
    $exits = $ast.FindAll({ param($n) $n -is [System.Management.Automation.Language.ExitStatementAst] }, $true)
    if (@($exits).Count -gt 0) {
      throw ('the ' + $part[0] + ' uses exit (line ' + @($exits)[0].Extent.StartLineNumber + '), which would end play''s program: use throw to fail, or return')
    }
  }
  $createsExists = $null
  $removesExists = $null
  $unlessSucceeded = $null
  if ($null -ne $a.creates) { $createsExists = [bool](Test-Path -LiteralPath $a.creates) }
  if ($null -ne $a.removes) { $removesExists = [bool](Test-Path -LiteralPath $a.removes) }
  if ($null -ne $a.unless) {
    $check = [ScriptBlock]::Create([string]$a.unless)
    $global:LASTEXITCODE = 0
    try {
      $out = @(& $check 6>$null)
      $last = $null
      if ($out.Count -gt 0) { $last = $out[$out.Count - 1] }
      $unlessSucceeded = ($global:LASTEXITCODE -eq 0) -and -not ($last -is [bool] -and -not $last)
    } catch {
      $unlessSucceeded = $false
    }
    $global:LASTEXITCODE = 0
  }
  [ordered]@{ createsExists = $createsExists; removesExists = $removesExists; unlessSucceeded = $unlessSucceeded }
`,
});

const PARAMETER = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string())]);

export const INVOKE_SCRIPT = defineFunction({
  name: 'Invoke-PlayScript',
  args: z.strictObject({ script: z.string(), parameters: z.record(z.string(), PARAMETER) }),
  result: z.strictObject({
    changed: z.boolean(),
    /** The output objects as JSON text (depth 2), parsed by the step. */
    output: z.string(),
    hostOut: z.preprocess((v) => (v === null ? [] : Array.isArray(v) ? v : [v]), z.array(z.string())),
  }),
  body: String.raw`
  $Play = [pscustomobject]@{ Changed = $true }
  $block = [ScriptBlock]::Create([string]$a.script)
  $params = @{}
  foreach ($p in @($a.parameters.PSObject.Properties)) { $params[$p.Name] = $p.Value }
  $global:LASTEXITCODE = 0
  $items = @(& $block @params 6>&1)
  $code = $global:LASTEXITCODE
  if ($code -ne 0) { throw ('the script''s last native program exited ' + $code + ' ($LASTEXITCODE)') }
  $output = New-Object System.Collections.ArrayList
  $hostOut = New-Object System.Collections.ArrayList
  foreach ($item in $items) {
    if ($item -is [System.Management.Automation.InformationRecord]) { [void]$hostOut.Add([string]$item.MessageData) }
    else { [void]$output.Add($item) }
  }
  [ordered]@{
    changed = [bool]$Play.Changed
    output = (ConvertTo-Json -InputObject @($output.ToArray()) -Depth 2 -Compress)
    hostOut = @($hostOut.ToArray())
  }
`,
});

export const INVOKE_PROGRAM = defineFunction({
  name: 'Invoke-PlayProgram',
  args: z.strictObject({ exe: z.string(), argv: z.array(z.string()), chdir: z.string().nullable() }),
  result: z.strictObject({ code: z.number(), stdout: z.string(), stderr: z.string() }),
  body: String.raw`
${INVOKE_NATIVE}
  $exe = [string]$a.exe
  if ($exe.IndexOf([char]92) -lt 0) {
    $found = @(Get-Command -Name $exe -CommandType Application -ErrorAction SilentlyContinue)
    if ($found.Count -eq 0) { throw ('no program ' + $exe + ' on the PATH: give its full path') }
    $exe = [string]$found[0].Path
  }
  if ($null -ne $a.chdir -and -not (Test-Path -LiteralPath $a.chdir -PathType Container)) {
    throw ('chdir ' + $a.chdir + ' is not a directory')
  }
  $r = Invoke-Native -FilePath $exe -ArgumentList @($a.argv) -WorkingDirectory $a.chdir
  [ordered]@{ code = [int]$r.Code; stdout = [string]$r.Out; stderr = [string]$r.Err }
`,
});
