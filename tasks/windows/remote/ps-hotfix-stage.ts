// The remote half of hotfix staging (hotfix-stage.ts; PowerShell 5.1): the .msu put on the host ahead
// of the maintenance window, expanded into a staging folder (expand.exe -F:*, as the install does) and
// verified by DISM (/get-packageinfo: read-only), so that the install in the window starts from a
// checked package. The folder holds a marker with the SHA-256 of the .msu it was expanded from, written
// last: a folder without it (an expansion cut short) is expanded again.
import { playFunction } from './contract.js';
import { INVOKE_NATIVE } from './ps-native.js';

const MARKER = `'play-staged-from.sha256'`;

/** Nested helpers: the update CAB's path in the folder, and DISM's verdict on it. */
const STAGE_HELPERS = `
  function Get-StagedCab {
    param([string]$Dir, [string]$Kb)
    return (Join-Path $Dir ('Windows10.0-{0}-x64.cab' -f $Kb.ToUpperInvariant()))
  }
  function Get-PackageInfo {
    param([string]$Cab)
    $dism = Join-Path (Join-Path $env:SystemRoot 'System32') 'dism.exe'
    $r = Invoke-Native -FilePath $dism -ArgumentList @('/online', '/get-packageinfo', ('/packagepath:' + $Cab))
    return [ordered]@{ exitCode = [int]$r.Code; output = (Get-NativeText $r) }
  }
`;

/**
 * installed: Get-HotFix lists the KB. msuSha256/msuSize: the .msu at msuPath (null: none). freeBytes:
 * Win32_LogicalDisk's FreeSpace of msuPath's drive. stagedFrom: the marker's SHA-256 (null: not staged).
 * packageInfo: DISM's /get-packageinfo of the staged CAB, only when the folder is staged.
 */
export const GET_HOTFIX_STAGE = playFunction(
  'Get-PlayHotfixStage',
  String.raw`
${INVOKE_NATIVE}
${STAGE_HELPERS}
  $kb = [string]$a.kb
  $msu = [string]$a.msuPath
  $dir = [string]$a.stageDir
  $fix = @(Get-HotFix -ErrorAction SilentlyContinue | Where-Object { $_.HotFixID -eq $kb })
  $sha = $null
  $size = $null
  $item = Get-Item -LiteralPath $msu -Force -ErrorAction SilentlyContinue
  if ($null -ne $item -and -not $item.PSIsContainer) {
    $sha = (Get-FileHash -LiteralPath $item.FullName -Algorithm SHA256).Hash.ToLowerInvariant()
    $size = [int64]$item.Length
  }
  $free = $null
  if ($msu -match '^([A-Za-z]:)') {
    $drive = $Matches[1].ToUpperInvariant()
    $disk = Get-CimInstance -ClassName Win32_LogicalDisk -Filter ("DeviceID='{0}'" -f $drive) | Select-Object -First 1
    if ($null -ne $disk) { $free = [int64]$disk.FreeSpace }
  }
  $stagedFrom = $null
  $marker = Join-Path $dir ${MARKER}
  if (Test-Path -LiteralPath $marker -PathType Leaf) { $stagedFrom = ([System.IO.File]::ReadAllText($marker)).Trim() }
  $info = $null
  $cab = Get-StagedCab $dir $kb
  if ($stagedFrom -and (Test-Path -LiteralPath $cab -PathType Leaf)) { $info = Get-PackageInfo $cab }
  [ordered]@{ installed = ($fix.Count -gt 0); msuSha256 = $sha; msuSize = $size; freeBytes = $free; stagedFrom = $stagedFrom; packageInfo = $info }
`,
);

/**
 * The folder emptied and the .msu expanded into it afresh, its update CAB checked to be there, DISM's
 * /get-packageinfo of it taken, then the marker written. Throws when the .msu is missing, expand.exe
 * fails or the package holds no CAB for the KB.
 */
export const EXPAND_HOTFIX_STAGE = playFunction(
  'Expand-PlayHotfixStage',
  String.raw`
${INVOKE_NATIVE}
${STAGE_HELPERS}
  $kb = [string]$a.kb
  $msu = [string]$a.msuPath
  $dir = [string]$a.stageDir
  if (-not (Test-Path -LiteralPath $msu -PathType Leaf)) {
    throw ('the update package {0} does not exist on the host' -f $msu)
  }
  if (Test-Path -LiteralPath $dir) { Remove-Item -LiteralPath $dir -Recurse -Force }
  New-Item -ItemType Directory -Path $dir -Force | Out-Null
  $expand = Join-Path (Join-Path $env:SystemRoot 'System32') 'expand.exe'
  $x = Invoke-Native -FilePath $expand -ArgumentList @('-F:*', $msu, $dir)
  if ($x.Code -ne 0) {
    throw ('expand.exe could not extract {0} (exit {1}): {2}' -f $msu, $x.Code, (Get-NativeText $x))
  }
  $cab = Get-StagedCab $dir $kb
  if (-not (Test-Path -LiteralPath $cab -PathType Leaf)) {
    throw ('{0} does not hold the update {1}: expand.exe extracted no {2}' -f $msu, $kb, $cab)
  }
  $info = Get-PackageInfo $cab
  $sha = (Get-FileHash -LiteralPath $msu -Algorithm SHA256).Hash.ToLowerInvariant()
  [System.IO.File]::WriteAllText((Join-Path $dir ${MARKER}), $sha)
  [ordered]@{ msuSha256 = $sha; packageInfo = $info }
`,
);
