  $task = @{ TaskName = [string]$a.name; TaskPath = [string]$a.path }
  $parts = @{}
  if ($null -ne $a.execute) {
    $action = @{ Execute = [string]$a.execute }
    if ([string]$a.arguments -ne '') { $action.Argument = [string]$a.arguments }
    $parts.Action = New-ScheduledTaskAction @action
  }
  if ($null -ne $a.trigger) {
    if ([string]$a.trigger.kind -eq 'atStartup') { $parts.Trigger = New-ScheduledTaskTrigger -AtStartup }
    else { $parts.Trigger = New-ScheduledTaskTrigger -Daily -At ([string]$a.trigger.at) }
  }
  if ($null -ne $a.user) {
    # The service accounts run without a password; any other account runs as S4U (no stored password, no network credentials).
    $logon = 'S4U'
    if (@('SYSTEM', 'NT AUTHORITY\SYSTEM', 'LOCAL SERVICE', 'NT AUTHORITY\LOCAL SERVICE', 'NETWORK SERVICE', 'NT AUTHORITY\NETWORK SERVICE') -contains [string]$a.user) { $logon = 'ServiceAccount' }
    $parts.Principal = New-ScheduledTaskPrincipal -UserId ([string]$a.user) -LogonType $logon -RunLevel Highest
  }
  if ($a.create) {
    Register-ScheduledTask @task @parts -Settings (New-ScheduledTaskSettingsSet) | Out-Null
  } elseif ($parts.Count -gt 0) {
    Set-ScheduledTask @task @parts | Out-Null
  }
  if ($a.enabled -eq $true) { Enable-ScheduledTask @task | Out-Null }
  if ($a.enabled -eq $false) { Disable-ScheduledTask @task | Out-Null }
  [ordered]@{}
