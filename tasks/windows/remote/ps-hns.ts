// The remote half of the HNS steps (PowerShell 5.1). Instead of importing C:\k\hns.psm1 (field note A)
// the functions call the same HNS v1 API it wraps (vmcompute.dll HNSCall: GET/POST/DELETE on
// /networks and /endpoints, JSON in and out) through a small P/Invoke declared here, so they do not
// depend on a script file that may be missing or of another version. The JSON fields are the ones
// hns.psm1 sends and Get-HnsEndpoint shows (docs/field-notes.md#a-hns-network-and-endpoint): Name, Type, Subnets[].AddressPrefix and
// GatewayAddress, NetworkAdapterName; endpoints: VirtualNetwork(Name), IPAddress, GatewayAddress.
// A host endpoint is attached with POST /endpoints/<id>/attach {SystemType: Host, CompartmentId};
// its vNIC "vEthernet (<name>)" then appears in the host's default compartment (1), where this
// session runs: the probe reports compartmentId 1 when it sees that interface, else null.
import { playFunction } from './contract.js';
import { INVOKE_NATIVE } from './ps-native.js';

export const INVOKE_HNS = String.raw`
  function Invoke-Hns {
    param([string]$Method, [string]$Path, [string]$Request)
    if ($null -eq ('PlayHns.NativeMethods' -as [type])) {
      $signature = '[DllImport("vmcompute.dll")] public static extern void HNSCall([MarshalAs(UnmanagedType.LPWStr)] string method, [MarshalAs(UnmanagedType.LPWStr)] string path, [MarshalAs(UnmanagedType.LPWStr)] string request, [MarshalAs(UnmanagedType.LPWStr)] out string response);'
      Add-Type -Namespace PlayHns -Name NativeMethods -MemberDefinition $signature
    }
    $response = ''
    [PlayHns.NativeMethods]::HNSCall($Method, $Path, $Request, [ref]$response)
    if (-not $response) { throw ('HNS {0} {1} returned nothing' -f $Method, $Path) }
    $reply = ConvertFrom-Json -InputObject $response
    if (-not $reply.Success) { throw ('HNS {0} {1} failed: {2}' -f $Method, $Path, $reply.Error) }
    return $reply.Output
  }
  function Find-HnsNetwork {
    param([string]$Name)
    return @(Invoke-Hns 'GET' '/networks' '') | Where-Object { $_.Name -eq $Name } | Select-Object -First 1
  }
  function Find-HnsEndpoint {
    param([string]$Name)
    return @(Invoke-Hns 'GET' '/endpoints' '') | Where-Object { $_.Name -eq $Name -and -not $_.IsRemoteEndpoint } | Select-Object -First 1
  }
  function Get-HostInterface {
    param([string]$Name)
    $alias = 'vEthernet ({0})' -f $Name
    return Get-NetIPInterface -InterfaceAlias $alias -AddressFamily IPv4 -ErrorAction SilentlyContinue | Select-Object -First 1
  }
`;

export const GET_HNS_NETWORK = playFunction(
  'Get-PlayHnsNetwork',
  String.raw`
${INVOKE_HNS}
  $network = Find-HnsNetwork ([string]$a.name)
  if ($null -eq $network) { return $null }
  $subnet = @($network.Subnets) | Select-Object -First 1
  [ordered]@{
    id = [string]$network.ID
    name = [string]$network.Name
    type = [string]$network.Type
    addressPrefix = [string]$subnet.AddressPrefix
    gateway = [string]$subnet.GatewayAddress
    adapterName = [string]$network.NetworkAdapterName
  }
`,
);

/** Creating an L2Bridge network moves the adapter's configuration to a vNIC: the NIC blinks (docs/domain.md#step-8-hns-network). */
export const NEW_HNS_NETWORK = playFunction(
  'New-PlayHnsNetwork',
  String.raw`
${INVOKE_HNS}
  $subnet = [ordered]@{ AddressPrefix = [string]$a.addressPrefix; GatewayAddress = [string]$a.gateway }
  $body = [ordered]@{
    Name = [string]$a.name
    Type = [string]$a.type
    Subnets = @($subnet)
    NetworkAdapterName = [string]$a.adapterName
  }
  $network = Invoke-Hns 'POST' '/networks' (ConvertTo-Json -InputObject $body -Depth 5 -Compress)
  [ordered]@{ id = [string]$network.ID }
`,
);

export const REMOVE_HNS_NETWORK = playFunction(
  'Remove-PlayHnsNetwork',
  String.raw`
${INVOKE_HNS}
  $network = Find-HnsNetwork ([string]$a.name)
  if ($null -ne $network) { $null = Invoke-Hns 'DELETE' ('/networks/{0}' -f $network.ID) '' }
  [ordered]@{}
`,
);

export const GET_HNS_ENDPOINT = playFunction(
  'Get-PlayHnsEndpoint',
  String.raw`
${INVOKE_HNS}
  $endpoint = Find-HnsEndpoint ([string]$a.name)
  if ($null -eq $endpoint) { return $null }
  $nic = Get-HostInterface ([string]$a.name)
  $compartment = $null
  if ($null -ne $nic) { $compartment = 1 }
  [ordered]@{
    id = [string]$endpoint.ID
    name = [string]$endpoint.Name
    networkName = [string]$endpoint.VirtualNetworkName
    ipAddress = [string]$endpoint.IPAddress
    gateway = [string]$endpoint.GatewayAddress
    compartmentId = $compartment
    forwarding = ($null -ne $nic -and [string]$nic.Forwarding -eq 'Enabled')
  }
`,
);

export const NEW_HNS_ENDPOINT = playFunction(
  'New-PlayHnsEndpoint',
  String.raw`
${INVOKE_HNS}
  $network = Find-HnsNetwork ([string]$a.networkName)
  if ($null -eq $network) { throw ('there is no HNS network named {0}' -f $a.networkName) }
  $body = [ordered]@{
    VirtualNetwork = [string]$network.ID
    Name = [string]$a.name
    IPAddress = [string]$a.ipAddress
    GatewayAddress = [string]$a.gateway
    Policies = @()
  }
  $endpoint = Invoke-Hns 'POST' '/endpoints' (ConvertTo-Json -InputObject $body -Depth 5 -Compress)
  [ordered]@{ id = [string]$endpoint.ID }
`,
);

export const REMOVE_HNS_ENDPOINT = playFunction(
  'Remove-PlayHnsEndpoint',
  String.raw`
${INVOKE_HNS}
  $endpoint = Find-HnsEndpoint ([string]$a.name)
  if ($null -ne $endpoint) {
    if ($null -ne (Get-HostInterface ([string]$a.name))) {
      $detach = ConvertTo-Json -InputObject ([ordered]@{ SystemType = 'Host' }) -Compress
      $null = Invoke-Hns 'POST' ('/endpoints/{0}/detach' -f $endpoint.ID) $detach
    }
    $null = Invoke-Hns 'DELETE' ('/endpoints/{0}' -f $endpoint.ID) ''
  }
  [ordered]@{}
`,
);

/** Attach-HnsHostEndpoint (unless the vNIC is already there), then netsh int ipv4 set int "vEthernet (<name>)" for=en|dis. */
export const SET_HNS_ENDPOINT_HOST = playFunction(
  'Set-PlayHnsEndpointHost',
  String.raw`
${INVOKE_NATIVE}${INVOKE_HNS}
  $name = [string]$a.name
  $endpoint = Find-HnsEndpoint $name
  if ($null -eq $endpoint) { throw ('there is no HNS endpoint named {0}' -f $name) }
  $nic = Get-HostInterface $name
  if ($null -eq $nic) {
    $attach = ConvertTo-Json -InputObject ([ordered]@{ SystemType = 'Host'; CompartmentId = [int]$a.compartmentId }) -Compress
    $null = Invoke-Hns 'POST' ('/endpoints/{0}/attach' -f $endpoint.ID) $attach
    $deadline = (Get-Date).AddSeconds(30)
    while ($null -eq $nic -and (Get-Date) -lt $deadline) {
      Start-Sleep -Milliseconds 500
      $nic = Get-HostInterface $name
    }
    if ($null -eq $nic) { throw ('vEthernet ({0}) did not appear after attaching the endpoint to compartment {1}' -f $name, $a.compartmentId) }
  }
  $forwarding = 'dis'
  if ($a.forwarding) { $forwarding = 'en' }
  $netsh = Join-Path $env:SystemRoot 'System32\netsh.exe'
  $alias = 'vEthernet ({0})' -f $name
  $r = Invoke-Native -FilePath $netsh -ArgumentList @('int', 'ipv4', 'set', 'int', $alias, ('for=' + $forwarding))
  if ($r.Code -ne 0) { throw ('netsh int ipv4 set int "{0}" for={1} failed (exit {2}): {3}' -f $alias, $forwarding, $r.Code, (Get-NativeText $r)) }
  [ordered]@{}
`,
);
