  [ordered]@{ id = [string](Get-TimeZone).Id }
