  # Nested helpers: a registry path (HKLM:\..., HKCU:\..., HKCR:\..., HKU:\...) opened on the 64-bit view.
  function Open-RegistryKey {
    param([string]$Path, [bool]$Create)
    $m = [regex]::Match($Path, '^(HKLM|HKCU|HKCR|HKU):\\(.+)$')
    if (-not $m.Success) { throw ('not a registry path: {0}' -f $Path) }
    $hives = @{ HKLM = 'LocalMachine'; HKCU = 'CurrentUser'; HKCR = 'ClassesRoot'; HKU = 'Users' }
    $base = [Microsoft.Win32.RegistryKey]::OpenBaseKey($hives[$m.Groups[1].Value], [Microsoft.Win32.RegistryView]::Registry64)
    if ($Create) { return $base.CreateSubKey($m.Groups[2].Value) }
    return $base.OpenSubKey($m.Groups[2].Value, $false)
  }
  function Get-RegistryValueName {
    param([string]$Name)
    if ($Name -eq '(default)') { return '' }
    return $Name
  }
