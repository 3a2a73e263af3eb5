  if ($null -ne $a.primaryDomain) { Set-ItemProperty -LiteralPath 'HKLM:\SYSTEM\CurrentControlSet\Services\Tcpip\Parameters' -Name 'NV Domain' -Value ([string]$a.primaryDomain) }
  if ($null -ne $a.suffixSearchList) { Set-DnsClientGlobalSetting -SuffixSearchList @($a.suffixSearchList | ForEach-Object { [string]$_ }) }
  [ordered]@{}
