# Items on the simulated node: Get-Item, Test-Path, New-Item, Remove-Item and Get-FileHash (the
# item properties are in ItemProperties.psm1), for the FileSystem provider (C:\...) and the Registry
# provider (HKLM:\ and the other hives), shadowing Microsoft.PowerShell.Management. Paths, files
# and keys are the node's model (lab/windows/surface/items.ts, files.ts, registry.ts); this file
# gives the answers the shapes and errors of Windows PowerShell 5.1: "Cannot find path 'X' because
# it does not exist." as a non-terminating error (so -ErrorAction SilentlyContinue yields $null),
# keys as RegistryKey objects (the host's shim), files and directories shaped as FileInfo and
# DirectoryInfo.
#
# Each cmdlet first takes its caller's $ErrorActionPreference, as a compiled cmdlet does: a script
# module's function would otherwise see only the global one.

. ([System.IO.Path]::Combine($PSScriptRoot, 'ItemsShared.ps1'))

function Test-Path {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [ValidateSet('Any', 'Container', 'Leaf')][Alias('Type')][string]$PathType = 'Any',
        [switch]$IsValid, [string]$Filter, [string[]]$Include, [string[]]$Exclude
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($p in $paths) {
            # A drive the node lacks or a malformed path is simply not there.
            try { $i = Invoke-PlayWindows Item.Get @{ path = $p } } catch { $false; continue }
            if (-not $i.exists) { $false; continue }
            switch ($PathType) {
                'Leaf' { -not $i.container }
                'Container' { [bool]$i.container }
                default { $true }
            }
        }
    }
}

function Get-Item {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [switch]$Force, [string]$Filter, [string[]]$Include, [string[]]$Exclude
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($i in Get-PlayExistingItems $PSCmdlet $paths 'GetItemCommand') { ConvertTo-PlayItem $i }
    }
}

function New-Item {
    [CmdletBinding(DefaultParameterSetName = 'pathSet')]
    param(
        [Parameter(ParameterSetName = 'pathSet', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)]
        [Parameter(ParameterSetName = 'nameSet', Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'nameSet', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][AllowNull()][AllowEmptyString()][string]$Name,
        [Parameter(ValueFromPipelineByPropertyName = $true)][Alias('Type')][string]$ItemType,
        [Parameter(ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][Alias('Target')][object]$Value,
        [switch]$Force
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'nameSet') {
            if (-not $paths) { $paths = @('.') }
            $paths = @($paths | ForEach-Object { Join-Path $_ $Name })
        }
        foreach ($p in $paths) {
            $i = Resolve-PlayItem $PSCmdlet $p 'NewItemCommand'
            if ($null -eq $i) { continue }
            try {
                if ($i.provider -eq 'Registry') { $done = New-PlayRegistryKey $PSCmdlet $i $Force }
                else { $done = New-PlayFileSystemItem $PSCmdlet $i $ItemType $Value $Force }
            } catch {
                $e = New-Object System.IO.IOException $_.Exception.Message
                $PSCmdlet.WriteError((New-PlayError $e 'NewItemIOError,Microsoft.PowerShell.Commands.NewItemCommand' WriteError $i.path))
                continue
            }
            if ($done) { ConvertTo-PlayItem (Invoke-PlayWindows Item.Get @{ path = $i.path }) }
        }
    }
}

# The registry provider's NewItem: an existing key is an error, or with -Force deleted and made
# anew (its values and subkeys go); without -Force the parent must exist.
function New-PlayRegistryKey {
    param($Cmdlet, $Item, [bool]$Force)
    if ($Item.exists) {
        if (-not $Force) {
            $e = New-Object System.IO.IOException 'A key in this path already exists.'
            $Cmdlet.WriteError((New-PlayError $e 'System.IO.IOException,Microsoft.PowerShell.Commands.NewItemCommand' ResourceExists $Item.path))
            return $false
        }
        $null = Invoke-PlayWindows Registry.DeleteKey @{ hive = $Item.hive; path = $Item.subKey }
    } elseif (-not $Force -and -not (Invoke-PlayWindows Item.Get @{ path = $Item.parent }).exists) {
        $e = New-Object System.ArgumentException 'The registry key at the specified path does not exist.'
        $Cmdlet.WriteError((New-PlayError $e 'System.ArgumentException,Microsoft.PowerShell.Commands.NewItemCommand' InvalidArgument $Item.parent))
        return $false
    }
    $null = Invoke-PlayWindows Item.New @{ path = $Item.path; type = 'Key' }
    return $true
}

function New-PlayFileSystemItem {
    param($Cmdlet, $Item, [string]$ItemType, $Value, [bool]$Force)
    $type = 'File'
    if ($ItemType -and 'directory' -like ($ItemType + '*')) { $type = 'Directory' }
    elseif ($ItemType -and 'file' -notlike ($ItemType + '*')) {
        $e = New-Object System.ArgumentException 'The type is not a known type for the file system. Only "file","directory" or "symboliclink" can be specified.'
        $Cmdlet.WriteError((New-PlayError $e 'Argument,Microsoft.PowerShell.Commands.NewItemCommand' InvalidArgument $ItemType))
        return $false
    }
    if ($Item.exists) {
        if ($type -eq 'Directory' -and $Item.container -and $Force) { return $true }
        if ($type -eq 'Directory' -or $Item.container -or -not $Force) {
            $text = 'An item with the specified name {0} already exists.' -f $Item.path
            if ($type -eq 'File' -and -not $Item.container) { $text = "The file '{0}' already exists." -f $Item.path }
            $e = New-Object System.IO.IOException $text
            $Cmdlet.WriteError((New-PlayError $e 'DirectoryExist,Microsoft.PowerShell.Commands.NewItemCommand' ResourceExists $Item.path))
            return $false
        }
    }
    $text = $null
    if ($null -ne $Value) { $text = [string]$Value }
    $null = Invoke-PlayWindows Item.New @{ path = $Item.path; type = $type; text = $text }
    return $true
}

function Remove-Item {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [switch]$Recurse, [switch]$Force, [string]$Filter, [string[]]$Include, [string[]]$Exclude
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($i in Get-PlayExistingItems $PSCmdlet $paths 'RemoveItemCommand') {
            if ($i.hasChildren -and -not $Recurse) {
                # 5.1 asks "The item at X has children and the Recurse parameter was not specified...";
                # under powershell.exe -NonInteractive asking is itself the error.
                $e = New-Object System.Management.Automation.PSInvalidOperationException 'Windows PowerShell is in NonInteractive mode. Read and Prompt functionality is not available.'
                $PSCmdlet.ThrowTerminatingError((New-PlayError $e 'System.Management.Automation.PSInvalidOperationException,Microsoft.PowerShell.Commands.RemoveItemCommand' InvalidOperation $i.path))
            }
            try {
                $null = Invoke-PlayWindows Item.Remove @{ path = $i.path }
            } catch {
                $text = $_.Exception.Message
                if ($text -eq 'Requested registry access is not allowed.') {
                    $e = New-Object System.Security.SecurityException $text
                    $PSCmdlet.WriteError((New-PlayError $e 'System.Security.SecurityException,Microsoft.PowerShell.Commands.RemoveItemCommand' PermissionDenied $i.path))
                } else {
                    $e = New-Object System.IO.IOException $text
                    $PSCmdlet.WriteError((New-PlayError $e 'RemoveItemIOError,Microsoft.PowerShell.Commands.RemoveItemCommand' WriteError $i.path))
                }
            }
        }
    }
}

# --- Get-FileHash (a script function in 5.1: Resolve-Path, directories skipped, a .NET hash) ---

function Get-FileHash {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [ValidateSet('SHA1', 'SHA256', 'SHA384', 'SHA512', 'MACTripleDES', 'MD5', 'RIPEMD160')][string]$Algorithm = 'SHA256'
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($i in Get-PlayExistingItems $PSCmdlet $paths 'ResolvePathCommand') {
            if ($i.container) { continue }
            $hasher = switch ($Algorithm) {
                'SHA1' { [System.Security.Cryptography.SHA1]::Create() }
                'SHA256' { [System.Security.Cryptography.SHA256]::Create() }
                'SHA384' { [System.Security.Cryptography.SHA384]::Create() }
                'SHA512' { [System.Security.Cryptography.SHA512]::Create() }
                'MD5' { [System.Security.Cryptography.MD5]::Create() }
                default { throw ('the simulated node does not hash with {0}' -f $Algorithm) }
            }
            $bytes = [System.IO.File]::ReadAllBytes([string]$i.path)
            $hash = [System.BitConverter]::ToString($hasher.ComputeHash($bytes)) -replace '-', ''
            $o = [pscustomobject]@{ Algorithm = $Algorithm.ToUpperInvariant(); Hash = $hash; Path = [string]$i.path }
            $o.PSObject.TypeNames.Insert(0, 'Microsoft.Powershell.Utility.FileHash')
            $o
        }
    }
}

Export-ModuleMember -Function Test-Path, Get-Item, New-Item, Remove-Item, Get-FileHash
