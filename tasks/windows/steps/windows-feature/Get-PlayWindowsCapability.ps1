  $capability = Get-WindowsCapability -Online -Name ([string]$a.name) -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -eq $capability -or -not $capability.Name) { return $null }
  $state = [string]$capability.State
  if ($state -ne 'Installed' -and $state -ne 'InstallPending') { $state = 'NotPresent' }
  [ordered]@{ name = [string]$capability.Name; state = $state }
