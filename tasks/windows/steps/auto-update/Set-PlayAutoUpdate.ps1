  # docs/field-notes.md#a-hotfix-and-auto-update ("scregedit.wsf /AU 1"): net stop wuauserv;
  # NoAutoUpdate = 1 (disabled) or 0; net start wuauserv.
  $key = 'HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU'
  Stop-Service -Name wuauserv -Force
  if (-not (Test-Path -LiteralPath $key)) { New-Item -Path $key -Force | Out-Null }
  $no = 1
  if ($a.enabled) { $no = 0 }
  New-ItemProperty -LiteralPath $key -Name NoAutoUpdate -Value $no -PropertyType DWord -Force | Out-Null
  Start-Service -Name wuauserv
  [ordered]@{}
