  $values = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU' -ErrorAction SilentlyContinue
  $no = $null
  $options = $null
  if ($null -ne $values -and $null -ne $values.PSObject.Properties['NoAutoUpdate']) { $no = [int]$values.NoAutoUpdate }
  if ($null -ne $values -and $null -ne $values.PSObject.Properties['AUOptions']) { $options = [int]$values.AUOptions }
  [ordered]@{ noAutoUpdate = $no; auOptions = $options }
