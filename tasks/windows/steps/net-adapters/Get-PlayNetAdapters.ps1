  $found = @()
  foreach ($mac in @($a.macAddresses)) {
    $f = Find-PlayNic ([string]$mac)
    if ($null -eq $f) { continue }
    $index = $f.IpIf.InterfaceIndex
    $ipi = Get-NetIPInterface -InterfaceIndex $index -AddressFamily IPv4 -ErrorAction SilentlyContinue | Select-Object -First 1
    $route = Get-NetRoute -InterfaceIndex $index -DestinationPrefix '0.0.0.0/0' -ErrorAction SilentlyContinue | Select-Object -First 1
    $gateway = $null
    if ($null -ne $route) { $gateway = [string]$route.NextHop }
    $dns = Get-DnsClientServerAddress -InterfaceIndex $index -AddressFamily IPv4 -ErrorAction SilentlyContinue | Select-Object -First 1
    $found += [ordered]@{
      macAddress = [string]$f.Nic.MacAddress
      name = [string]$f.Nic.Name
      interfaceIndex = [int]$f.Nic.InterfaceIndex
      ipInterface = [string]$f.IpIf.Name
      dhcp = ([string]$ipi.Dhcp -eq 'Enabled')
      ipv4 = @(Get-PlayIPv4 $index | ForEach-Object { '{0}/{1}' -f $_.IPAddress, $_.PrefixLength })
      gateway = $gateway
      dnsServers = @($dns.ServerAddresses | ForEach-Object { [string]$_ })
    }
  }
  [ordered]@{ adapters = @($found) }
