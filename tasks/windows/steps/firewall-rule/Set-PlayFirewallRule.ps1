  # New-NetFirewallRule, or Set-NetFirewallRule (whose -DisplayName selects rules: the new one is -NewDisplayName).
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
