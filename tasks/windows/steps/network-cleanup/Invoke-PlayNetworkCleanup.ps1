  $networks = @()
  if ($a.removeHnsNetworks) {
    foreach ($n in @(Invoke-Hns 'GET' '/networks' '')) {
      if ($null -eq $n) { continue }
      $null = Invoke-Hns 'DELETE' ('/networks/{0}' -f $n.ID) ''
      $networks += [string]$n.Name
    }
  }
  $adapters = @()
  if ($a.removeGhostAdapters) {
    foreach ($d in @(Get-PnpDevice -Class Net -ErrorAction SilentlyContinue | Where-Object { [string]$_.Status -eq 'Error' })) {
      $key = 'HKLM:\SYSTEM\CurrentControlSet\Enum\' + [string]$d.InstanceId
      try {
        Remove-Item -LiteralPath $key -Recurse -Force -ErrorAction Stop
      } catch {
        throw ('cannot remove {0} ({1}): {2} (the Enum keys belong to SYSTEM: remove the device in Device Manager, or run the clean-up as SYSTEM)' -f $key, $d.FriendlyName, $_.Exception.Message)
      }
      $adapters += [string]$d.InstanceId
    }
  }
  if (-not (Test-Path -LiteralPath 'HKLM:\SOFTWARE\Play\NetworkCleanup')) { New-Item -Path 'HKLM:\SOFTWARE\Play\NetworkCleanup' -Force | Out-Null }
  Set-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Play\NetworkCleanup' -Name 'Token' -Value ([string]$a.token)
  Set-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Play\NetworkCleanup' -Name 'BootTime' -Value ((Get-CimInstance -ClassName Win32_OperatingSystem).LastBootUpTime.ToUniversalTime().ToString('o'))
  [ordered]@{ removedNetworks = @($networks); removedAdapters = @($adapters) }
