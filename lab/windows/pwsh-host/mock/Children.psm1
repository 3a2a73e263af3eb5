# Get-ChildItem, Copy-Item and Move-Item on the simulated node, for the FileSystem provider (C:\...)
# and, for Get-ChildItem, the Registry provider, shadowing Microsoft.PowerShell.Management. What is
# where, and the rules of a copy or a move, are the node's (lab/windows/surface/item-tree.ts); items
# are shaped as Get-Item shapes them (ItemsShared.ps1).

. ([System.IO.Path]::Combine($PSScriptRoot, 'ItemsShared.ps1'))

function Get-PlayChildren {
    param($Item, [bool]$Recurse, [string]$Filter, [bool]$FilesOnly, [bool]$DirectoriesOnly)
    foreach ($c in @(Invoke-PlayWindows Item.Children @{ path = $Item.path })) {
        $show = (-not $Filter -or $c.name -like $Filter) -and (-not $FilesOnly -or -not $c.container) -and (-not $DirectoriesOnly -or $c.container)
        if ($show) { $c }
        if ($Recurse -and $c.container) { Get-PlayChildren $c $true $Filter $FilesOnly $DirectoriesOnly }
    }
}

function Get-ChildItem {
    [CmdletBinding(DefaultParameterSetName = 'Items')]
    param(
        [Parameter(ParameterSetName = 'Items', Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Path = @('.'),
        [Parameter(ParameterSetName = 'LiteralItems', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Position = 1)][string]$Filter, [switch]$Recurse, [switch]$Force, [switch]$Name, [switch]$File, [switch]$Directory
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralItems') { $paths = $LiteralPath }
        foreach ($i in Get-PlayExistingItems $PSCmdlet $paths 'GetChildItemCommand') {
            $found = @($i)
            if ($i.container) { $found = @(Get-PlayChildren $i $Recurse $Filter $File $Directory) }
            foreach ($c in $found) { if ($Name) { $c.name } else { ConvertTo-PlayItem $c } }
        }
    }
}

function Invoke-PlayItemTransfer {
    param($Cmdlet, [string[]]$Paths, [string]$Destination, [string]$Op, [bool]$Recurse, [string]$Command)
    foreach ($i in Get-PlayExistingItems $Cmdlet $Paths $Command) {
        try {
            $null = Invoke-PlayWindows $Op @{ source = $i.path; destination = $Destination; recurse = $Recurse }
        } catch {
            $e = New-Object System.IO.IOException $_.Exception.Message
            $Cmdlet.WriteError((New-PlayError $e "$($Op.Split('.')[1])ItemIOError,Microsoft.PowerShell.Commands.$Command" WriteError $i.path))
        }
    }
}

function Copy-Item {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Position = 1, ValueFromPipelineByPropertyName = $true)][string]$Destination = '.',
        [switch]$Recurse, [switch]$Force, [switch]$PassThru
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        Invoke-PlayItemTransfer $PSCmdlet $paths $Destination 'Item.Copy' $Recurse 'CopyItemCommand'
    }
}

function Move-Item {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Position = 1, ValueFromPipelineByPropertyName = $true)][string]$Destination = '.',
        [switch]$Force, [switch]$PassThru
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        Invoke-PlayItemTransfer $PSCmdlet $paths $Destination 'Item.Move' $true 'MoveItemCommand'
    }
}

Export-ModuleMember -Function Get-ChildItem, Copy-Item, Move-Item
