  $task = Get-ScheduledTask -TaskPath ([string]$a.path) -TaskName ([string]$a.name) -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -eq $task) { return $null }
  $actions = @($task.Actions | ForEach-Object { [ordered]@{ execute = [string]$_.Execute; arguments = [string]$_.Arguments } })
  $triggers = @($task.Triggers | ForEach-Object {
    $days = 0
    if ($null -ne $_.PSObject.Properties['DaysInterval']) { $days = [int]$_.DaysInterval }
    [ordered]@{ type = [string]$_.CimClass.CimClassName; startBoundary = [string]$_.StartBoundary; daysInterval = $days }
  })
  [ordered]@{
    state = [string]$task.State
    userId = [string]$task.Principal.UserId
    actions = $actions
    triggers = $triggers
  }
