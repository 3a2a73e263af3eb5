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
