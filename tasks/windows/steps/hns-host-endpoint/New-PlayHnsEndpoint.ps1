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
