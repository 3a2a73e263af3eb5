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
