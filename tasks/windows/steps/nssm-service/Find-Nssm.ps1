  function Find-Nssm {
    $command = Get-Command -Name nssm.exe -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($null -ne $command) { return $command.Path }
    if (Test-Path -LiteralPath 'C:\k\nssm.exe' -PathType Leaf) { return 'C:\k\nssm.exe' }
    throw 'nssm.exe was not found (neither on the PATH nor as C:\k\nssm.exe)'
  }
