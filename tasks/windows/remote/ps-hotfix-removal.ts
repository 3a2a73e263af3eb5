// The remote half of taking an update back off a node (hotfix-removal.ts; docs/rolling.md#rollback-and-quarantine):
// the package identity an install recorded, and dism.exe /online /remove-package with it. PowerShell 5.1.
//
// DISM removes a package by its identity (name~publicKeyToken~arch~language~version), never by KB or .msu.
// An .msu's unattend XML (the <name>.xml that expand.exe extracts beside the update CAB) names it in its
// <assemblyIdentity>: Install-PlayHotfix reads it there (PACKAGE_IDENTITY) and records it under
// HKLM:\SOFTWARE\Play\HotfixPackages (value <KB>), so a rollback knows what to remove without
// `dism /get-packages` (whose list holds every package the host ever had).
import { playFunction } from './contract.js';
import { INVOKE_NATIVE } from './ps-native.js';

export const HOTFIX_PACKAGES_KEY = String.raw`'HKLM:\SOFTWARE\Play\HotfixPackages'`;

/**
 * PowerShell text defining Get-PackageIdentity and Save-PackageIdentity inside a function body (for
 * Install-PlayHotfix): the identity from the package's XML (language 'neutral' is empty in an identity,
 * as DISM prints it), null when the XML names none; recorded per KB.
 */
export const PACKAGE_IDENTITY = String.raw`
  function Get-PackageIdentity {
    param([string]$XmlPath)
    if (-not (Test-Path -LiteralPath $XmlPath -PathType Leaf)) { return $null }
    $text = [string](Get-Content -LiteralPath $XmlPath -Raw)
    $m = [regex]::Match($text, '<assemblyIdentity\s[^>]*>')
    if (-not $m.Success) { return $null }
    $attrs = @{}
    foreach ($pair in [regex]::Matches($m.Value, '(\w+)="([^"]*)"')) { $attrs[$pair.Groups[1].Value] = $pair.Groups[2].Value }
    if (-not $attrs['name'] -or -not $attrs['version']) { return $null }
    $language = [string]$attrs['language']
    if ($language -eq 'neutral') { $language = '' }
    return ('{0}~{1}~{2}~{3}~{4}' -f $attrs['name'], $attrs['publicKeyToken'], $attrs['processorArchitecture'], $language, $attrs['version'])
  }
  function Save-PackageIdentity {
    param([string]$Kb, [string]$Name)
    $key = ${HOTFIX_PACKAGES_KEY}
    if (-not (Test-Path -LiteralPath $key)) { New-Item -Path $key -Force | Out-Null }
    New-ItemProperty -LiteralPath $key -Name $Kb -Value $Name -PropertyType String -Force | Out-Null
  }
`;

export const GET_HOTFIX_PACKAGE = playFunction(
  'Get-PlayHotfixPackage',
  String.raw`
  $kb = [string]$a.kb
  $values = Get-ItemProperty -LiteralPath ${HOTFIX_PACKAGES_KEY} -ErrorAction SilentlyContinue
  $name = $null
  if ($null -ne $values -and $null -ne $values.PSObject.Properties[$kb]) { $name = [string]$values.PSObject.Properties[$kb].Value }
  $fix = @(Get-HotFix -ErrorAction SilentlyContinue | Where-Object { $_.HotFixID -eq $kb })
  [ordered]@{ installed = ($fix.Count -gt 0); packageName = $name }
`,
);

/**
 * /quiet: DISM prints its errors only (to stdout); the exit code says the rest (hotfix-removal.ts). A removed
 * KB's records go with it: Get-PlayHotfix's recorded 3010 would otherwise read as "pending" and no later
 * run would install it again.
 */
export const REMOVE_HOTFIX = playFunction(
  'Remove-PlayHotfix',
  String.raw`
${INVOKE_NATIVE}
  $dism = Join-Path (Join-Path $env:SystemRoot 'System32') 'dism.exe'
  $r = Invoke-Native -FilePath $dism -ArgumentList @('/online', '/remove-package', ('/packagename:' + [string]$a.packageName), '/quiet', '/norestart')
  $code = [int]$r.Code
  if ($code -eq 0 -or $code -eq 3010) {
    foreach ($key in @('HKLM:\SOFTWARE\Play\Hotfixes', ${HOTFIX_PACKAGES_KEY})) {
      Remove-ItemProperty -LiteralPath $key -Name ([string]$a.kb) -ErrorAction SilentlyContinue
    }
  }
  [ordered]@{ exitCode = $code; output = (Get-NativeText $r) }
`,
);
