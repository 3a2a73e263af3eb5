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
