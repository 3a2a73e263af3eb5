  $key = Open-RegistryKey ([string]$a.path) $true
  try {
    $name = Get-RegistryValueName ([string]$a.name)
    $kinds = [Microsoft.Win32.RegistryValueKind]
    switch ([string]$a.type) {
      'String' { $key.SetValue($name, [string]$a.data, $kinds::String) }
      'ExpandString' { $key.SetValue($name, [string]$a.data, $kinds::ExpandString) }
      'DWord' { $key.SetValue($name, [System.BitConverter]::ToInt32([System.BitConverter]::GetBytes([uint32]$a.data), 0), $kinds::DWord) }
      'QWord' { $key.SetValue($name, [System.BitConverter]::ToInt64([System.BitConverter]::GetBytes([uint64]$a.data), 0), $kinds::QWord) }
      'MultiString' { $key.SetValue($name, [string[]]@($a.data), $kinds::MultiString) }
      'Binary' {
        $hex = [string]$a.data
        $bytes = New-Object byte[] ([int]($hex.Length / 2))
        for ($i = 0; $i -lt $bytes.Length; $i++) { $bytes[$i] = [System.Convert]::ToByte($hex.Substring(2 * $i, 2), 16) }
        $key.SetValue($name, [byte[]]$bytes, $kinds::Binary)
      }
      default { throw ('unknown registry value type {0}' -f $a.type) }
    }
  } finally {
    $key.Close()
  }
  [ordered]@{}
