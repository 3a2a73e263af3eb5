# Path and time-zone surface of the simulated node (Windows path rules: backslashes, drive letters),
# shadowing Microsoft.PowerShell.Management's Join-Path, Split-Path and Microsoft.PowerShell.Management's
# Get-TimeZone/Set-TimeZone. Backed by $global:PlayNode.

function Join-Path {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string[]]$Path, [Parameter(Mandatory = $true, Position = 1)][AllowEmptyString()][string]$ChildPath, [switch]$Resolve)
    foreach ($p in $Path) {
        $p = $p -replace '/', '\'
        $c = $ChildPath -replace '/', '\'
        if ($p.EndsWith('\') -and $c.StartsWith('\')) { $c = $c.Substring(1) }
        elseif (-not $p.EndsWith('\') -and -not $c.StartsWith('\') -and $c -ne '') { $c = '\' + $c }
        $p + $c
    }
}

function Split-Path {
    [CmdletBinding(DefaultParameterSetName = 'Parent')]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipeline = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'Parent')][switch]$Parent, [Parameter(ParameterSetName = 'Leaf')][switch]$Leaf,
        [Parameter(ParameterSetName = 'Qualifier')][switch]$Qualifier)
    process {
        foreach ($p in $Path) {
            $p = ($p -replace '/', '\').TrimEnd('\')
            $i = $p.LastIndexOf('\')
            switch ($PSCmdlet.ParameterSetName) {
                'Leaf' { if ($i -lt 0) { $p } else { $p.Substring($i + 1) } }
                'Qualifier' { $p.Substring(0, $p.IndexOf(':') + 1) }
                default {
                    if ($i -lt 0) { '' }
                    elseif ($i -eq 2 -and $p[1] -eq ':') { $p.Substring(0, 3) }
                    else { $p.Substring(0, $i) }
                }
            }
        }
    }
}

function Get-TimeZone {
    [CmdletBinding()] param([Parameter(Position = 0)][string[]]$Name, [string[]]$Id, [switch]$ListAvailable)
    $tz = [string]$global:PlayNode.timeZone
    [pscustomobject]@{ Id = $tz; DisplayName = $tz; StandardName = $tz; SupportsDaylightSavingTime = $false }
}

function Set-TimeZone {
    [CmdletBinding()] param([Parameter(Mandatory = $true)][string]$Id, [switch]$PassThru)
    $global:PlayNode.timeZone = $Id
}

Export-ModuleMember -Function Join-Path, Split-Path, Get-TimeZone, Set-TimeZone
