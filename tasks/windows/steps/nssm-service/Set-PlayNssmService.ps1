  $name = [string]$a.name
  $nssm = Find-Nssm
  function Invoke-Nssm {
    param([string[]]$Arguments)
    $r = Invoke-Native -FilePath $nssm -ArgumentList $Arguments
    if ($r.Code -ne 0) {
      throw ('nssm {0} {1} failed (exit {2}): {3}' -f $Arguments[0], $Arguments[1], $r.Code, (Get-NativeText $r))
    }
  }
  if ($a.install) {
    Invoke-Nssm @('install', $name, [string]$a.application)
  } elseif ($null -ne $a.application) {
    Invoke-Nssm @('set', $name, 'Application', [string]$a.application)
  }
  if ($null -ne $a.appParameters) { Invoke-Nssm @('set', $name, 'AppParameters', [string]$a.appParameters) }
  if ($null -ne $a.appDirectory) { Invoke-Nssm @('set', $name, 'AppDirectory', [string]$a.appDirectory) }
  if ($null -ne $a.dependOnService) {
    $depends = @($a.dependOnService | ForEach-Object { [string]$_ })
    if ($depends.Count -eq 0) {
      Invoke-Nssm @('reset', $name, 'DependOnService')
    } else {
      Invoke-Nssm (@('set', $name, 'DependOnService') + $depends)
    }
  }
  [ordered]@{}
