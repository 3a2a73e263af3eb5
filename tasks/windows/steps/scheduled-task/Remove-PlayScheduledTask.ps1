  Unregister-ScheduledTask -TaskPath ([string]$a.path) -TaskName ([string]$a.name) -Confirm:$false
  [ordered]@{}
