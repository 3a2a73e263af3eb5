// The remote half of firewall rules, time zone, NTP and automatic updates (PowerShell 5.1).
import { playFunction } from './calls.js';
import { INVOKE_NATIVE } from './ps-native.js';

export const GET_FIREWALL_RULE = playFunction(
  'Get-PlayFirewallRule',
  String.raw`
  $rule = Get-NetFirewallRule -Name ([string]$a.name) -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -eq $rule) { return $null }
  $ports = Get-NetFirewallPortFilter -AssociatedNetFirewallRule $rule
  [ordered]@{
    name = [string]$rule.Name
    displayName = [string]$rule.DisplayName
    enabled = ([string]$rule.Enabled -eq 'True')
    direction = [string]$rule.Direction
    protocol = [string]$ports.Protocol
    localPort = (@($ports.LocalPort) -join ',')
    action = [string]$rule.Action
  }
`,
);

/** New-NetFirewallRule, or Set-NetFirewallRule (whose -DisplayName selects rules: the new one is -NewDisplayName). */
export const SET_FIREWALL_RULE = playFunction(
  'Set-PlayFirewallRule',
  String.raw`
  $name = [string]$a.name
  $settings = @{
    Enabled = 'False'
    Direction = [string]$a.direction
    Protocol = [string]$a.protocol
    LocalPort = @(([string]$a.localPort) -split ',')
    Action = [string]$a.action
  }
  if ($a.enabled) { $settings.Enabled = 'True' }
  $rule = Get-NetFirewallRule -Name $name -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -eq $rule) {
    New-NetFirewallRule -Name $name -DisplayName ([string]$a.displayName) @settings | Out-Null
  } else {
    Set-NetFirewallRule -Name $name -NewDisplayName ([string]$a.displayName) @settings
  }
  [ordered]@{}
`,
);

export const GET_TIME_ZONE = playFunction(
  'Get-PlayTimeZone',
  String.raw`
  [ordered]@{ id = [string](Get-TimeZone).Id }
`,
);

export const SET_TIME_ZONE = playFunction(
  'Set-PlayTimeZone',
  String.raw`
  Set-TimeZone -Id ([string]$a.id)
  [ordered]@{}
`,
);

const SERVERS_KEY = String.raw`'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\DateTime\Servers'`;

/** Servers: the values 1, 2, ... up to the first missing one; w32tm's own configuration from W32Time\Parameters. */
export const GET_NTP = playFunction(
  'Get-PlayNtp',
  String.raw`
  $values = Get-ItemProperty -LiteralPath ${SERVERS_KEY} -ErrorAction SilentlyContinue
  $servers = @()
  $default = $null
  if ($null -ne $values) {
    for ($i = 1; $null -ne $values.PSObject.Properties[[string]$i]; $i++) {
      $servers += [string]$values.PSObject.Properties[[string]$i].Value
    }
    if ($null -ne $values.PSObject.Properties['(default)']) { $default = [string]$values.PSObject.Properties['(default)'].Value }
  }
  $parameters = Get-ItemProperty -LiteralPath 'HKLM:\SYSTEM\CurrentControlSet\Services\W32Time\Parameters' -ErrorAction SilentlyContinue
  $service = Get-CimInstance -ClassName Win32_Service | Where-Object { $_.Name -eq 'W32Time' } | Select-Object -First 1
  $mode = [string]$service.StartMode
  if (@('Auto', 'Manual', 'Disabled') -notcontains $mode) { $mode = 'Manual' }
  [ordered]@{
    servers = @($servers)
    defaultIndex = $default
    manualPeerList = [string]$parameters.NtpServer
    syncFromFlags = [string]$parameters.Type
    w32timeStartMode = $mode
    w32timeRunning = ([string]$service.State -eq 'Running')
  }
`,
);

/**
 * docs/field-notes.md#a-time-zone-and-ntp: the Servers values 1..n (extra numbered values removed) and (default) = 1,
 * w32time automatic and running, `w32tm /config /manualpeerlist:"a b" /syncfromflags:MANUAL
 * /update`, then `w32tm /resync`, which is best effort: it fails until a peer answers, and the
 * configuration is what this step manages.
 */
export const SET_NTP = playFunction(
  'Set-PlayNtp',
  String.raw`
${INVOKE_NATIVE}
  $key = ${SERVERS_KEY}
  if (-not (Test-Path -LiteralPath $key)) { New-Item -Path $key -Force | Out-Null }
  $servers = @($a.servers | ForEach-Object { [string]$_ })
  for ($i = 0; $i -lt $servers.Count; $i++) {
    New-ItemProperty -LiteralPath $key -Name ([string]($i + 1)) -Value $servers[$i] -PropertyType String -Force | Out-Null
  }
  $values = Get-ItemProperty -LiteralPath $key
  $extra = @($values.PSObject.Properties | Where-Object { $_.Name -match '^[0-9]+$' -and [int]$_.Name -gt $servers.Count } | ForEach-Object { $_.Name })
  foreach ($value in $extra) { Remove-ItemProperty -LiteralPath $key -Name $value }
  Set-ItemProperty -LiteralPath $key -Name '(default)' -Value '1'
  Set-Service -Name W32Time -StartupType Automatic
  if ([string](Get-Service -Name W32Time).Status -ne 'Running') { Start-Service -Name W32Time }
  $w32tm = Join-Path $env:SystemRoot 'System32\w32tm.exe'
  $r = Invoke-Native -FilePath $w32tm -ArgumentList @('/config', ('/manualpeerlist:' + ($servers -join ' ')), '/syncfromflags:MANUAL', '/update')
  if ($r.Code -ne 0) { throw ('w32tm /config failed (exit {0}): {1}' -f $r.Code, (Get-NativeText $r)) }
  $null = Invoke-Native -FilePath $w32tm -ArgumentList @('/resync')
  [ordered]@{}
`,
);

const AU_KEY = String.raw`'HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU'`;

export const GET_AUTO_UPDATE = playFunction(
  'Get-PlayAutoUpdate',
  String.raw`
  $values = Get-ItemProperty -LiteralPath ${AU_KEY} -ErrorAction SilentlyContinue
  $no = $null
  $options = $null
  if ($null -ne $values -and $null -ne $values.PSObject.Properties['NoAutoUpdate']) { $no = [int]$values.NoAutoUpdate }
  if ($null -ne $values -and $null -ne $values.PSObject.Properties['AUOptions']) { $options = [int]$values.AUOptions }
  [ordered]@{ noAutoUpdate = $no; auOptions = $options }
`,
);

/** net stop wuauserv; NoAutoUpdate = 1 (disabled) or 0; net start wuauserv (docs/field-notes.md#a-hotfix-and-auto-update: "scregedit.wsf /AU 1"). */
export const SET_AUTO_UPDATE = playFunction(
  'Set-PlayAutoUpdate',
  String.raw`
  $key = ${AU_KEY}
  Stop-Service -Name wuauserv -Force
  if (-not (Test-Path -LiteralPath $key)) { New-Item -Path $key -Force | Out-Null }
  $no = 1
  if ($a.enabled) { $no = 0 }
  New-ItemProperty -LiteralPath $key -Name NoAutoUpdate -Value $no -PropertyType DWord -Force | Out-Null
  Start-Service -Name wuauserv
  [ordered]@{}
`,
);
