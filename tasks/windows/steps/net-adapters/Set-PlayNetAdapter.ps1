  $f = Find-PlayNic ([string]$a.macAddress)
  if ($null -eq $f) { throw ('there is no physical network adapter with MAC address {0}' -f $a.macAddress) }
  $index = $f.IpIf.InterfaceIndex
  if ($null -ne $a.dnsServers) {
    Set-DnsClientServerAddress -InterfaceIndex $index -ServerAddresses @($a.dnsServers | ForEach-Object { [string]$_ })
  }
  if ($null -ne $a.ipv4) {
    Set-NetIPInterface -InterfaceIndex $index -AddressFamily IPv4 -Dhcp Disabled
    $want = @($a.ipv4 | ForEach-Object { [string]$_ })
    foreach ($cidr in $want) {
      $ip, $length = $cidr -split '/'
      $same = Get-PlayIPv4 $index | Where-Object { $_.IPAddress -eq $ip }
      if ($null -ne $same -and [int]$same.PrefixLength -eq [int]$length) { continue }
      if ($null -ne $same) { Remove-NetIPAddress -InterfaceIndex $index -IPAddress $ip -Confirm:$false }
      New-NetIPAddress -InterfaceIndex $index -IPAddress $ip -PrefixLength ([int]$length) | Out-Null
    }
    foreach ($old in Get-PlayIPv4 $index) {
      if ($want -notcontains ('{0}/{1}' -f $old.IPAddress, $old.PrefixLength)) { Remove-NetIPAddress -InterfaceIndex $index -IPAddress $old.IPAddress -Confirm:$false }
    }
  }
  if ($null -ne $a.gateway) {
    Get-NetRoute -InterfaceIndex $index -DestinationPrefix '0.0.0.0/0' -ErrorAction SilentlyContinue | Remove-NetRoute -Confirm:$false
    New-NetRoute -InterfaceIndex $index -DestinationPrefix '0.0.0.0/0' -NextHop ([string]$a.gateway) | Out-Null
  }
  if ($null -ne $a.newName -and [string]$f.Nic.Name -ne [string]$a.newName) {
    Rename-NetAdapter -Name $f.Nic.Name -NewName ([string]$a.newName)
  }
  [ordered]@{}
