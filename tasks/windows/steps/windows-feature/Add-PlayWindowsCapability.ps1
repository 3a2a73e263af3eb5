  $result = Add-WindowsCapability -Online -Name ([string]$a.name)
  [ordered]@{ restartNeeded = [bool]$result.RestartNeeded }
