// The remote half of the optional network steps (PowerShell 5.1): NICs found by MAC and the DNS
// client (docs/domain.md#step-2-nics-and-dns-client), and the destructive clean-up of stale HNS networks
// and ghost network adapters (step 1).
import { playFunction } from './contract.js';
import { INVOKE_HNS } from './ps-hns.js';

/**
 * Find-PlayNic: the physical adapter with a MAC, and the interface carrying its IP configuration.
 * Once an HNS L2Bridge network is bound to a NIC, its addresses live on the vSwitch's host vNIC
 * "vEthernet (<name>)", which has the same MAC; configuring the physical NIC then would break it.
 */
const FIND_NIC = String.raw`
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
`;

export const GET_NET_ADAPTERS = playFunction(
  'Get-PlayNetAdapters',
  String.raw`
${FIND_NIC}
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
`,
);

/** DNS servers, then addresses (new ones added before old ones go), the default route, the name last. */
export const SET_NET_ADAPTER = playFunction(
  'Set-PlayNetAdapter',
  String.raw`
${FIND_NIC}
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
`,
);

const TCPIP_KEY = String.raw`'HKLM:\SYSTEM\CurrentControlSet\Services\Tcpip\Parameters'`;

export const GET_DNS_CLIENT = playFunction(
  'Get-PlayDnsClient',
  String.raw`
  $p = Get-ItemProperty -LiteralPath ${TCPIP_KEY} -ErrorAction SilentlyContinue
  $domain = $null
  if ($null -ne $p -and $null -ne $p.PSObject.Properties['NV Domain']) { $domain = [string]$p.PSObject.Properties['NV Domain'].Value }
  [ordered]@{
    primaryDomain = $domain
    suffixSearchList = @((Get-DnsClientGlobalSetting).SuffixSearchList | ForEach-Object { [string]$_ })
  }
`,
);

export const SET_DNS_CLIENT = playFunction(
  'Set-PlayDnsClient',
  String.raw`
  if ($null -ne $a.primaryDomain) { Set-ItemProperty -LiteralPath ${TCPIP_KEY} -Name 'NV Domain' -Value ([string]$a.primaryDomain) }
  if ($null -ne $a.suffixSearchList) { Set-DnsClientGlobalSetting -SuffixSearchList @($a.suffixSearchList | ForEach-Object { [string]$_ }) }
  [ordered]@{}
`,
);

const CLEANUP_KEY = String.raw`'HKLM:\SOFTWARE\Play\NetworkCleanup'`;
/** The boot a clean-up ran in: until the node boots again, its reboot is still owed. */
const BOOT_TIME = String.raw`((Get-CimInstance -ClassName Win32_OperatingSystem).LastBootUpTime.ToUniversalTime().ToString('o'))`;
const GHOSTS = String.raw`@(Get-PnpDevice -Class Net -ErrorAction SilentlyContinue | Where-Object { [string]$_.Status -eq 'Error' })`;

export const GET_NETWORK_CLEANUP = playFunction(
  'Get-PlayNetworkCleanup',
  String.raw`
${INVOKE_HNS}
  $token = $null
  $p = Get-ItemProperty -LiteralPath ${CLEANUP_KEY} -ErrorAction SilentlyContinue
  $rebootPending = $false
  if ($null -ne $p -and $null -ne $p.PSObject.Properties['Token']) {
    $token = [string]$p.Token
    $rebootPending = ($null -ne $p.PSObject.Properties['BootTime'] -and [string]$p.BootTime -eq ${BOOT_TIME})
  }
  [ordered]@{
    token = $token
    rebootPending = $rebootPending
    hnsNetworks = @(@(Invoke-Hns 'GET' '/networks' '') | Where-Object { $null -ne $_ } | ForEach-Object { [string]$_.Name })
    ghostAdapters = @(${GHOSTS} | ForEach-Object { [ordered]@{ instanceId = [string]$_.InstanceId; friendlyName = [string]$_.FriendlyName } })
  }
`,
);

/**
 * netcfg -d is left out on purpose: it clears every adapter's IP configuration at the next boot,
 * including the one this SSH session uses (docs/field-notes.md#a-network-clean-up-and-nics: "needs a console login to reconfigure").
 */
export const INVOKE_NETWORK_CLEANUP = playFunction(
  'Invoke-PlayNetworkCleanup',
  String.raw`
${INVOKE_HNS}
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
    foreach ($d in ${GHOSTS}) {
      $key = 'HKLM:\SYSTEM\CurrentControlSet\Enum\' + [string]$d.InstanceId
      try {
        Remove-Item -LiteralPath $key -Recurse -Force -ErrorAction Stop
      } catch {
        throw ('cannot remove {0} ({1}): {2} (the Enum keys belong to SYSTEM: remove the device in Device Manager, or run the clean-up as SYSTEM)' -f $key, $d.FriendlyName, $_.Exception.Message)
      }
      $adapters += [string]$d.InstanceId
    }
  }
  if (-not (Test-Path -LiteralPath ${CLEANUP_KEY})) { New-Item -Path ${CLEANUP_KEY} -Force | Out-Null }
  Set-ItemProperty -LiteralPath ${CLEANUP_KEY} -Name 'Token' -Value ([string]$a.token)
  Set-ItemProperty -LiteralPath ${CLEANUP_KEY} -Name 'BootTime' -Value ${BOOT_TIME}
  [ordered]@{ removedNetworks = @($networks); removedAdapters = @($adapters) }
`,
);
