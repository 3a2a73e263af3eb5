  function Find-PlayNic {
    param([string]$Mac)
    $nic = Get-NetAdapter -Physical | Where-Object { $_.MacAddress -eq $Mac } | Select-Object -First 1
    if ($null -eq $nic) { return $null }
    $ipIf = Get-NetAdapter | Where-Object { $_.MacAddress -eq $nic.MacAddress -and $_.InterfaceIndex -ne $nic.InterfaceIndex } | Select-Object -First 1
    if ($null -eq $ipIf) { $ipIf = $nic }
    return [pscustomobject]@{ Nic = $nic; IpIf = $ipIf }
  }
  function Get-PlayIPv4 {
    param([int]$Index)
    return @(Get-NetIPAddress -InterfaceIndex $Index -AddressFamily IPv4 -ErrorAction SilentlyContinue | Where-Object { [string]$_.PrefixOrigin -ne 'WellKnown' })
  }
