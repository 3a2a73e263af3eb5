  $token = $null
  $p = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Play\NetworkCleanup' -ErrorAction SilentlyContinue
  $rebootPending = $false
  if ($null -ne $p -and $null -ne $p.PSObject.Properties['Token']) {
    $token = [string]$p.Token
    $rebootPending = ($null -ne $p.PSObject.Properties['BootTime'] -and [string]$p.BootTime -eq ((Get-CimInstance -ClassName Win32_OperatingSystem).LastBootUpTime.ToUniversalTime().ToString('o')))
  }
  [ordered]@{
    token = $token
    rebootPending = $rebootPending
    hnsNetworks = @(@(Invoke-Hns 'GET' '/networks' '') | Where-Object { $null -ne $_ } | ForEach-Object { [string]$_.Name })
    ghostAdapters = @(@(Get-PnpDevice -Class Net -ErrorAction SilentlyContinue | Where-Object { [string]$_.Status -eq 'Error' }) | ForEach-Object { [ordered]@{ instanceId = [string]$_.InstanceId; friendlyName = [string]$_.FriendlyName } })
  }
