  $result = Install-WindowsFeature -Name ([string]$a.name)
  if (-not $result.Success) {
    throw ('Install-WindowsFeature {0} did not succeed (exit code {1})' -f $a.name, [string]$result.ExitCode)
  }
  [ordered]@{ restartNeeded = ([string]$result.RestartNeeded -ne 'No') }
