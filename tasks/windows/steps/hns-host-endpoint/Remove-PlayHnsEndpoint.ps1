  $endpoint = Find-HnsEndpoint ([string]$a.name)
  if ($null -ne $endpoint) {
    if ($null -ne (Get-HostInterface ([string]$a.name))) {
      $detach = ConvertTo-Json -InputObject ([ordered]@{ SystemType = 'Host' }) -Compress
      $null = Invoke-Hns 'POST' ('/endpoints/{0}/detach' -f $endpoint.ID) $detach
    }
    $null = Invoke-Hns 'DELETE' ('/endpoints/{0}' -f $endpoint.ID) ''
  }
  [ordered]@{}
