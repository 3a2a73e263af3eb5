// The remote half of the HNS steps (PowerShell 5.1). Instead of importing C:\k\hns.psm1 (field note A)
// the functions call the same HNS v1 API it wraps (vmcompute.dll HNSCall: GET/POST/DELETE on
// /networks and /endpoints, JSON in and out) through a small P/Invoke declared here, so they do not
// depend on a script file that may be missing or of another version. The JSON fields are the ones
// hns.psm1 sends and Get-HnsEndpoint shows (docs/field-notes.md#a-hns-network-and-endpoint): Name, Type, Subnets[].AddressPrefix and
// GatewayAddress, NetworkAdapterName; endpoints: VirtualNetwork(Name), IPAddress, GatewayAddress.
// The host endpoint's functions are the hnsHostEndpoint step folder's (tasks/windows/steps/hns-host-endpoint/).
import { playFunction } from './contract.js';
import { INVOKE_HNS } from './ps-invoke-hns.js';

export { INVOKE_HNS };

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
