  $name = [string]$a.name
  $service = Get-CimInstance -ClassName Win32_Service | Where-Object { $_.Name -eq $name } | Select-Object -First 1
  if ($null -eq $service -or [string]$service.PathName -notmatch 'nssm(\.exe)?"?\s*$') { return $null }
  $nssm = Find-Nssm
  $values = [ordered]@{}
  foreach ($parameter in @('Application', 'AppParameters', 'AppDirectory', 'DependOnService')) {
    $r = Invoke-Native -FilePath $nssm -ArgumentList @('get', $name, $parameter)
    if ($r.Code -ne 0 -and (Get-NativeText $r) -ne '') {
      throw ('nssm get {0} {1} failed (exit {2}): {3}' -f $name, $parameter, $r.Code, (Get-NativeText $r))
    }
    $values[$parameter] = [string]$r.Out
  }
  $values
