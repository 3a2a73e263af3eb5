// The remote half of the OS steps (PowerShell 5.1, Windows Server 2019): OS build and boot time,
// reboots, paths, hotfixes. Each returns exactly the result
// type of its contract entry (tasks/windows/remote/contract.ts); enums and dates are converted to strings
// here, because ConvertTo-Json in 5.1 writes enums as numbers and dates as "\/Date(...)\/".
import { playFunction } from './contract.js';
import { INVOKE_NATIVE } from './ps-native.js';
import { PACKAGE_IDENTITY } from './ps-hotfix-removal.js';

/**
 * pendingReboot: Component Based Servicing's RebootPending key (set by DISM installs) or
 * Windows Update's RebootRequired key. PendingFileRenameOperations is not counted: too many
 * programs leave it set for a reboot that nothing needs.
 */
export const GET_OS_INFO = playFunction(
  'Get-PlayOsInfo',
  String.raw`
  $os = Get-CimInstance -ClassName Win32_OperatingSystem
  $cv = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion'
  $cbs = Test-Path -LiteralPath 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\Component Based Servicing\RebootPending'
  $wu = Test-Path -LiteralPath 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\WindowsUpdate\Auto Update\RebootRequired'
  [ordered]@{
    caption = [string]$os.Caption
    version = [string]$os.Version
    build = [int]$os.BuildNumber
    revision = [int]$cv.UBR
    lastBootUpTime = $os.LastBootUpTime.ToUniversalTime().ToString('o')
    pendingReboot = ($cbs -or $wu)
  }
`,
);

/** shutdown.exe /r /t N; exit 1190 (a shutdown is already scheduled) counts as scheduled. */
export const RESTART_COMPUTER = playFunction(
  'Restart-PlayComputer',
  String.raw`
${INVOKE_NATIVE}
  $shutdown = Join-Path $env:SystemRoot 'System32\shutdown.exe'
  $delay = [string][int]$a.delaySeconds
  $r = Invoke-Native -FilePath $shutdown -ArgumentList @('/r', '/t', $delay, '/d', 'p:4:1', '/c', 'play: reboot requested')
  if ($r.Code -ne 0 -and $r.Code -ne 1190) {
    throw ('shutdown.exe /r failed (exit {0}): {1}' -f $r.Code, (Get-NativeText $r))
  }
  [ordered]@{ scheduled = $true }
`,
);

export const TEST_PATH = playFunction(
  'Test-PlayPath',
  String.raw`
  $item = Get-Item -LiteralPath $a.path -Force -ErrorAction SilentlyContinue
  if ($null -eq $item) {
    return [ordered]@{ exists = $false; isDirectory = $false }
  }
  [ordered]@{ exists = $true; isDirectory = [bool]$item.PSIsContainer }
`,
);

const HOTFIX_RECORD = String.raw`'HKLM:\SOFTWARE\Play\Hotfixes'`;

export const GET_HOTFIX = playFunction(
  'Get-PlayHotfix',
  String.raw`
  $kb = [string]$a.kb
  $fix = @(Get-HotFix -ErrorAction SilentlyContinue | Where-Object { $_.HotFixID -eq $kb })
  $on = $null
  if ($fix.Count -gt 0) {
    try {
      if ($fix[0].InstalledOn) { $on = $fix[0].InstalledOn.ToString('yyyy-MM-dd') }
    } catch {
      $on = $null
    }
  }
  $recorded = $null
  $values = Get-ItemProperty -LiteralPath ${HOTFIX_RECORD} -ErrorAction SilentlyContinue
  if ($null -ne $values -and $null -ne $values.PSObject.Properties[$kb]) { $recorded = [int]$values.PSObject.Properties[$kb].Value }
  $msuPresent = $null
  if ($a.msuPath) { $msuPresent = Test-Path -LiteralPath ([string]$a.msuPath) -PathType Leaf }
  [ordered]@{ installed = ($fix.Count -gt 0); installedOn = $on; dismExitCode = $recorded; msuPresent = $msuPresent }
`,
);

/**
 * As ansible.windows.win_hotfix does (docs/domain.md#hotfix-to-a-pinned-build): wusa and the Windows
 * Update Agent refuse an SSH session (0x80070005), DISM does not. The .msu is extracted into a fresh
 * directory under $env:TEMP, its update CAB (named after the KB: a package for another KB fails
 * here, and WSUSSCAN.cab beside it is not a package) added with DISM, and the directory removed.
 */
export const INSTALL_HOTFIX = playFunction(
  'Install-PlayHotfix',
  String.raw`
${INVOKE_NATIVE}
${PACKAGE_IDENTITY}
  $msu = [string]$a.msuPath
  $kb = [string]$a.kb
  if (-not (Test-Path -LiteralPath $msu -PathType Leaf)) {
    throw ('the update package {0} does not exist on the host' -f $msu)
  }
  $system32 = Join-Path $env:SystemRoot 'System32'
  $dir = Join-Path $env:TEMP ('play-hotfix-{0}-{1}' -f $kb, [guid]::NewGuid().ToString('N'))
  New-Item -ItemType Directory -Path $dir -Force | Out-Null
  try {
    $x = Invoke-Native -FilePath (Join-Path $system32 'expand.exe') -ArgumentList @('-F:*', $msu, $dir)
    if ($x.Code -ne 0) {
      throw ('expand.exe could not extract {0} (exit {1}): {2}' -f $msu, $x.Code, (Get-NativeText $x))
    }
    $cabName = 'Windows10.0-{0}-x64.cab' -f $kb.ToUpperInvariant()
    $cab = Join-Path $dir $cabName
    if (-not (Test-Path -LiteralPath $cab -PathType Leaf)) {
      throw ('{0} does not hold the update {1}: expand.exe extracted no {2}' -f $msu, $kb, $cabName)
    }
    $dism = Invoke-Native -FilePath (Join-Path $system32 'dism.exe') -ArgumentList @('/online', '/add-package', ('/packagepath:' + $cab), '/quiet', '/norestart')
    $code = [int]$dism.Code
    $key = ${HOTFIX_RECORD}
    if (-not (Test-Path -LiteralPath $key)) { New-Item -Path $key -Force | Out-Null }
    New-ItemProperty -LiteralPath $key -Name $kb -Value ([string]$code) -PropertyType String -Force | Out-Null
    $package = $null
    if ($code -eq 0 -or $code -eq 3010) { $package = Get-PackageIdentity (Join-Path $dir ('Windows10.0-{0}-x64.xml' -f $kb.ToUpperInvariant())) }
    if ($null -ne $package) { Save-PackageIdentity $kb $package }
    [ordered]@{ exitCode = $code; output = (Get-NativeText $dism); packageName = $package }
  } finally {
    Remove-Item -LiteralPath $dir -Recurse -Force -ErrorAction SilentlyContinue
  }
`,
);
