# Paths and the time zone on the simulated node, shadowing Microsoft.PowerShell.Management's
# Join-Path and Split-Path (pure: Windows path rules, backslashes and drive letters) and
# Get-TimeZone/Set-TimeZone (the node's model, lab/windows/surface/time.ts). Get-TimeZone gives a
# real TimeZoneInfo; the node models no daylight saving rules, so SupportsDaylightSavingTime is false.

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

function ConvertTo-PlayTimeZone {
    param($Zone)
    [System.TimeZoneInfo]::CreateCustomTimeZone([string]$Zone.id, [System.TimeSpan]::FromMinutes([int]$Zone.offsetMinutes),
        [string]$Zone.displayName, [string]$Zone.standardName, [string]$Zone.daylightName, $null)
}

function Get-TimeZone {
    [CmdletBinding(DefaultParameterSetName = 'Name')]
    param(
        [Parameter(ParameterSetName = 'Name', Position = 0, ValueFromPipeline = $true)][string[]]$Name,
        [Parameter(ParameterSetName = 'Id', Mandatory = $true)][string[]]$Id,
        [Parameter(ParameterSetName = 'ListAvailable', Mandatory = $true)][switch]$ListAvailable
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        if ($PSCmdlet.ParameterSetName -eq 'Name' -and -not $Name) { return ConvertTo-PlayTimeZone (Invoke-PlayWindows TimeZone.Get) }
        $all = @(Invoke-PlayWindows TimeZone.List)
        if ($ListAvailable) { return $all | ForEach-Object { ConvertTo-PlayTimeZone $_ } }
        $wanted = $Name
        if ($PSCmdlet.ParameterSetName -eq 'Id') { $wanted = $Id }
        foreach ($w in $wanted) {
            $found = @($all | Where-Object { ($PSCmdlet.ParameterSetName -eq 'Id' -and $_.id -like $w) -or ($PSCmdlet.ParameterSetName -eq 'Name' -and $_.standardName -like $w) })
            if ($found.Count -eq 0) {
                $text = "The time zone name '{0}' was not found on the local computer." -f $w
                if ($PSCmdlet.ParameterSetName -eq 'Id') { $text = "The time zone ID '{0}' was not found on the local computer." -f $w }
                $e = New-Object System.TimeZoneNotFoundException $text
                $PSCmdlet.WriteError((New-Object System.Management.Automation.ErrorRecord $e, 'TimeZoneNotFound,Microsoft.PowerShell.Commands.GetTimeZoneCommand', 'ObjectNotFound', $w))
                continue
            }
            $found | ForEach-Object { ConvertTo-PlayTimeZone $_ }
        }
    }
}

# Set-TimeZone -Id: FindSystemTimeZoneById's failure is a terminating error, as in 5.1.
function Set-TimeZone {
    [CmdletBinding(DefaultParameterSetName = 'Name')]
    param(
        [Parameter(ParameterSetName = 'Name', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string]$Name,
        [Parameter(ParameterSetName = 'Id', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][string]$Id,
        [Parameter(ParameterSetName = 'InputObject', Mandatory = $true, Position = 0, ValueFromPipeline = $true)][System.TimeZoneInfo]$InputObject,
        [switch]$PassThru
    )
    process {
        $zoneId = $Id
        if ($PSCmdlet.ParameterSetName -eq 'InputObject') { $zoneId = $InputObject.Id }
        if ($PSCmdlet.ParameterSetName -eq 'Name') {
            $match = @(@(Invoke-PlayWindows TimeZone.List) | Where-Object { $_.standardName -eq $Name })
            if ($match.Count -ne 1) {
                $e = New-Object System.TimeZoneNotFoundException ("The time zone name '{0}' was not found on the local computer." -f $Name)
                $PSCmdlet.ThrowTerminatingError((New-Object System.Management.Automation.ErrorRecord $e, 'TimeZoneNotFound,Microsoft.PowerShell.Commands.SetTimeZoneCommand', 'InvalidArgument', $Name))
            }
            $zoneId = [string]$match[0].id
        }
        try {
            $zone = Invoke-PlayWindows TimeZone.Set @{ id = [string]$zoneId }
        } catch {
            $e = New-Object System.TimeZoneNotFoundException $_.Exception.Message
            $PSCmdlet.ThrowTerminatingError((New-Object System.Management.Automation.ErrorRecord $e, 'TimeZoneNotFound,Microsoft.PowerShell.Commands.SetTimeZoneCommand', 'InvalidArgument', $zoneId))
        }
        if ($PassThru) { ConvertTo-PlayTimeZone $zone }
    }
}

Export-ModuleMember -Function Join-Path, Split-Path, Get-TimeZone, Set-TimeZone
