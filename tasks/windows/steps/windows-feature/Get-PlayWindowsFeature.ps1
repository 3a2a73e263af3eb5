  $feature = Get-WindowsFeature -Name ([string]$a.name) -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -eq $feature) { return $null }
  $state = [string]$feature.InstallState
  if (@('Installed', 'InstallPending', 'Removed') -notcontains $state) { $state = 'Available' }
  [ordered]@{ name = [string]$feature.Name; installState = $state }
