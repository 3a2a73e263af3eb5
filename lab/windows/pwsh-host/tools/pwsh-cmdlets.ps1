$o = [pscustomobject]@{ Name = 'a'; Size = 5; Tags = @('x', 'y') }
$o | Select-Object Name, @{n='Double'; e={ $_.Size * 2 }}, @{Label='S'; Expression='Size'}, Missing | ConvertTo-Json -Compress
$o | Select-Object -ExpandProperty Tags | ConvertTo-Json -Compress
$o | Select-Object -ExpandProperty Name -Property Size | ForEach-Object { "$_ $($_.Size)" }
1..10 | Select-Object -First 3 | ConvertTo-Json -Compress
1..10 | Select-Object -Last 2 -Skip 1 | ConvertTo-Json -Compress
$o | Select-Object N* | ConvertTo-Json -Compress
#---
$p = New-Object PSObject -Property @{ a = 1 }; $p.GetType().FullName; $p.a
$sb = New-Object System.Text.StringBuilder; [void]$sb.Append('x', 3); $sb.ToString()
(New-Object byte[] 4).Length
(New-Object Text.UTF8Encoding $false).GetPreamble().Length
New-Object System.Collections.Generic.List[string]
(New-Object System.Collections.Generic.List[string]).GetType().Name
#---
$t0 = Get-Date; Start-Sleep -Seconds 30; Start-Sleep -Milliseconds 500; ((Get-Date) - $t0).TotalSeconds
Get-Date -Format 'yyyy-MM-dd'
#---
Write-Output 1 2 3 | ConvertTo-Json -Compress
(Write-Output -NoEnumerate @(1, 2) | Measure-Object).Count
@{ a = 1 } | Out-String
[pscustomobject]@{ a = 1; b = 'x' } | Out-String
#---
ConvertTo-Json -Compress -InputObject @{ 1 = 'a' }
#---
$j = '{"a":1,"a2":{"b":[1,{"c":null}]},"s":"it\u0027s"}' | ConvertFrom-Json
$j.a2.b[1].c -eq $null; $j.s; $j.a.GetType().Name
($j | ConvertTo-Json -Depth 5 -Compress)
'[]' | ConvertFrom-Json | ForEach-Object { 'one item: ' + $_.GetType().Name }
