  Set-TimeZone -Id ([string]$a.id)
  [ordered]@{}
