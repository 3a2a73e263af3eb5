// The remote half of firewall rules and automatic updates (PowerShell 5.1); the time zone and NTP
// are step folders (tasks/windows/steps/time-zone/, ntp-servers/).
import { playFunction } from './contract.js';

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
