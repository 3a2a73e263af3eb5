  $p = Get-ItemProperty -LiteralPath 'HKLM:\SYSTEM\CurrentControlSet\Services\Tcpip\Parameters' -ErrorAction SilentlyContinue
  $domain = $null
  if ($null -ne $p -and $null -ne $p.PSObject.Properties['NV Domain']) { $domain = [string]$p.PSObject.Properties['NV Domain'].Value }
  [ordered]@{
    primaryDomain = $domain
    suffixSearchList = @((Get-DnsClientGlobalSetting).SuffixSearchList | ForEach-Object { [string]$_ })
  }
