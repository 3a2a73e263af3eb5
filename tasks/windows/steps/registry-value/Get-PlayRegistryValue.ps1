  $key = Open-RegistryKey ([string]$a.path) $false
  if ($null -eq $key) { return $null }
  try {
    $name = Get-RegistryValueName ([string]$a.name)
    if ($key.GetValueNames() -notcontains $name) { return $null }
    $kind = [string]$key.GetValueKind($name)
    $raw = $key.GetValue($name, $null, [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames)
    switch ($kind) {
      'DWord' { $data = [int64][System.BitConverter]::ToUInt32([System.BitConverter]::GetBytes([int32]$raw), 0) }
      'QWord' { $data = [System.BitConverter]::ToUInt64([System.BitConverter]::GetBytes([int64]$raw), 0) }
      'MultiString' { $data = @($raw) }
      'Binary' { $data = -join @($raw | ForEach-Object { $_.ToString('x2') }) }
      default { $data = [string]$raw }
    }
    return [ordered]@{ type = $kind; data = $data }
  } finally {
    $key.Close()
  }
