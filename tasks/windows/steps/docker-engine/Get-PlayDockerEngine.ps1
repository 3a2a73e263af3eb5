  $service = Get-Service -Name docker -ErrorAction SilentlyContinue
  $exe = Find-DockerExe
  $text = $null
  if ($null -ne $exe) {
    $r = Invoke-Native -FilePath $exe -ArgumentList @('version')
    $text = $r.Out
    if ($r.Err) { $text = $text + [System.Environment]::NewLine + $r.Err }
  }
  [ordered]@{ dockerVersion = $text; serviceExists = ($null -ne $service) }
