  # docs/field-notes.md#a-time-zone-and-ntp: the Servers values 1..n (extra numbered values removed) and
  # (default) = 1, w32time automatic and running, `w32tm /config /manualpeerlist:"a b" /syncfromflags:MANUAL
  # /update`, then `w32tm /resync`, which is best effort: it fails until a peer answers, and the
  # configuration is what this step manages.
  $key = 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\DateTime\Servers'
  if (-not (Test-Path -LiteralPath $key)) { New-Item -Path $key -Force | Out-Null }
  $servers = @($a.servers | ForEach-Object { [string]$_ })
  for ($i = 0; $i -lt $servers.Count; $i++) {
    New-ItemProperty -LiteralPath $key -Name ([string]($i + 1)) -Value $servers[$i] -PropertyType String -Force | Out-Null
  }
  $values = Get-ItemProperty -LiteralPath $key
  $extra = @($values.PSObject.Properties | Where-Object { $_.Name -match '^[0-9]+$' -and [int]$_.Name -gt $servers.Count } | ForEach-Object { $_.Name })
  foreach ($value in $extra) { Remove-ItemProperty -LiteralPath $key -Name $value }
  Set-ItemProperty -LiteralPath $key -Name '(default)' -Value '1'
  Set-Service -Name W32Time -StartupType Automatic
  if ([string](Get-Service -Name W32Time).Status -ne 'Running') { Start-Service -Name W32Time }
  $w32tm = Join-Path $env:SystemRoot 'System32\w32tm.exe'
  $r = Invoke-Native -FilePath $w32tm -ArgumentList @('/config', ('/manualpeerlist:' + ($servers -join ' ')), '/syncfromflags:MANUAL', '/update')
  if ($r.Code -ne 0) { throw ('w32tm /config failed (exit {0}): {1}' -f $r.Code, (Get-NativeText $r)) }
  $null = Invoke-Native -FilePath $w32tm -ArgumentList @('/resync')
  [ordered]@{}
