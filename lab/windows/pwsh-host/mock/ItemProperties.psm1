# Registry values on the simulated node: Get-ItemProperty, Set-ItemProperty, New-ItemProperty and
# Remove-ItemProperty of the Registry provider (Windows PowerShell 5.1), over the node's registry
# (lab/windows/surface/registry.ts). Values come back as RegistryKey.GetValue gives them (a DWord an
# Int32, so 0xFFFFFFFF is -1; ExpandString expanded; the default value as '(default)'); a value is
# written with the kind asked for, else the existing value's, else the one its .NET type implies.
# A key without values gives no object at all.

. ([System.IO.Path]::Combine($PSScriptRoot, 'ItemsShared.ps1'))

# A value as RegistryKey.GetValue gives it to Get-ItemProperty (ExpandString expanded).
function ConvertFrom-PlayRegistryData {
    param([string]$Kind, $Data)
    switch ($Kind) {
        'DWord' { return [int]$Data }
        'QWord' { return [int64]$Data }
        'Binary' { return ,[System.Convert]::FromBase64String([string]$Data) }
        'MultiString' { return ,[string[]]@($Data) }
        'ExpandString' {
            return [regex]::Replace([string]$Data, '%([^%]+)%', {
                    param($m)
                    $v = [System.Environment]::GetEnvironmentVariable($m.Groups[1].Value)
                    if ($null -eq $v) { $m.Value } else { $v }
                })
        }
        default { return [string]$Data }
    }
}

# The provider's ConvertValueToKind (LanguagePrimitives conversions), as the data the node stores:
# DWord/QWord signed, Binary base64. Throws when the value does not convert.
function ConvertTo-PlayRegistryData {
    param($Value, [string]$Kind)
    switch ($Kind) {
        'DWord' {
            if ($null -eq $Value) { return 0 }
            try { return [int]$Value } catch { return [System.BitConverter]::ToInt32([System.BitConverter]::GetBytes([uint32]$Value), 0) }
        }
        'QWord' {
            if ($null -eq $Value) { return [int64]0 }
            try { return [int64]$Value } catch { return [System.BitConverter]::ToInt64([System.BitConverter]::GetBytes([uint64]$Value), 0) }
        }
        'Binary' { if ($null -eq $Value) { return '' }; return [System.Convert]::ToBase64String([byte[]]$Value) }
        'MultiString' { if ($null -eq $Value) { return ,@() }; return ,[string[]]$Value }
        'Unknown' {
            # RegistryKey.SetValue(name, value) infers the kind itself: an Int32 is a DWord, other values are text.
            $v = $Value
            if ($v -is [psobject]) { $v = $v.PSObject.BaseObject }
            if ($v -is [array]) { throw (New-Object System.ArgumentException ("RegistryKey.SetValue does not support arrays of type '{0}'. Only Byte[] and String[] are supported." -f $v.GetType().Name)) }
            return [string]$v
        }
        default { if ($null -eq $Value) { return '' }; return [string]$Value }
    }
}

# GetValueKindFromObject: the kind a value of this .NET type gets when none is given or known.
function Get-PlayKindOf {
    param($Value)
    if ($null -eq $Value) { return 'String' }
    $t = $Value.GetType()
    if ($t -eq [byte[]]) { return 'Binary' }
    if ($t -eq [int]) { return 'DWord' }
    if ($t -eq [string]) { return 'String' }
    if ($t -eq [string[]]) { return 'MultiString' }
    if ($t -eq [int64]) { return 'QWord' }
    return 'Unknown'
}

# SetRegistryValue: the kind asked for, else the existing value's (if the value converts to it),
# else the value's own. Returns the value as it now reads back.
function Set-PlayRegistryData {
    param($Item, [string]$Name, $Value, [string]$Kind)
    $valueName = $Name
    if ($Name -eq '(default)') { $valueName = '' }
    $where = @{ hive = $Item.hive; path = $Item.subKey; name = $valueName }
    $data = $null
    if ($Kind -eq 'Unknown') {
        $existing = Invoke-PlayWindows Registry.GetValue $where
        if ($null -ne $existing) {
            try { $data = ConvertTo-PlayRegistryData $Value ([string]$existing.type); $Kind = [string]$existing.type } catch { $data = $null }
        }
    }
    if ($null -eq $data) {
        if ($Kind -eq 'Unknown') { $Kind = Get-PlayKindOf $Value }
        $data = ConvertTo-PlayRegistryData $Value $Kind
        if ($Kind -eq 'Unknown') { $Kind = 'String' }
    }
    $null = Invoke-PlayWindows Registry.SetValue @{ hive = $Item.hive; path = $Item.subKey; name = $valueName; type = $Kind; data = $data }
    return ConvertFrom-PlayRegistryData $Kind $data
}

# A property bag as the registry provider writes it: one note per value, then the PS* notes.
function New-PlayPropertyObject {
    param($Item, [System.Collections.IDictionary]$Values)
    $o = [pscustomobject]@{}
    foreach ($k in $Values.Keys) { Add-PlayNote $o $k $Values[$k] }
    Add-PlayProviderNotes $o $Item
    return $o
}

function Get-PlayRegistryItems {
    param($Cmdlet, [string[]]$Paths, [string]$Command)
    foreach ($i in Get-PlayExistingItems $Cmdlet $Paths $Command) {
        if ($i.provider -ne 'Registry') { throw ('the simulated node models {0} on the registry only, not on {1}' -f $Command, $i.path) }
        $i
    }
}

function Write-PlayPropertyNotFound {
    param($Cmdlet, $Item, [string]$Name, [string]$Command)
    $e = New-Object System.Management.Automation.PSArgumentException ('Property {0} does not exist at path {1}.' -f $Name, $Item.providerPath)
    $Cmdlet.WriteError((New-PlayError $e "System.Management.Automation.PSArgumentException,Microsoft.PowerShell.Commands.$Command" InvalidArgument $Name))
}

function Get-ItemProperty {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Position = 1)][Alias('PSProperty')][string[]]$Name,
        [string]$Filter, [string[]]$Include, [string[]]$Exclude
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($i in Get-PlayRegistryItems $PSCmdlet $paths 'GetItemPropertyCommand') {
            $all = [ordered]@{}
            foreach ($v in @(Invoke-PlayWindows Registry.Values @{ hive = $i.hive; path = $i.subKey })) {
                $n = [string]$v.name
                if ($n -eq '') { $n = '(default)' }
                $all[$n] = ConvertFrom-PlayRegistryData ([string]$v.type) $v.data
            }
            $picked = $all
            if ($Name) {
                $picked = [ordered]@{}
                foreach ($wanted in $Name) {
                    $hit = @($all.Keys | Where-Object { $_ -like $wanted })
                    if ($hit.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($wanted)) { Write-PlayPropertyNotFound $PSCmdlet $i $wanted 'GetItemPropertyCommand' }
                    foreach ($h in $hit) { $picked[$h] = $all[$h] }
                }
            }
            # A key without values gives nothing at all.
            if ($picked.Count -gt 0) { New-PlayPropertyObject $i $picked }
        }
    }
}

function Set-ItemProperty {
    [CmdletBinding(DefaultParameterSetName = 'propertyValuePathSet')]
    param(
        [Parameter(ParameterSetName = 'propertyValuePathSet', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'propertyValueLiteralPathSet', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Mandatory = $true, Position = 1, ValueFromPipelineByPropertyName = $true)][Alias('PSProperty')][string]$Name,
        [Parameter(Mandatory = $true, Position = 2, ValueFromPipelineByPropertyName = $true)][AllowNull()][AllowEmptyString()][object]$Value,
        [Microsoft.Win32.RegistryValueKind]$Type = [Microsoft.Win32.RegistryValueKind]::Unknown,
        [switch]$PassThru, [switch]$Force
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'propertyValueLiteralPathSet') { $paths = $LiteralPath }
        foreach ($i in Get-PlayRegistryItems $PSCmdlet $paths 'SetItemPropertyCommand') {
            try {
                $now = Set-PlayRegistryData $i $Name $Value ([string]$Type)
            } catch {
                $PSCmdlet.WriteError((New-PlayError $_.Exception 'SetItemPropertyError,Microsoft.PowerShell.Commands.SetItemPropertyCommand' WriteError $i.path))
                continue
            }
            if ($PassThru) { New-PlayPropertyObject $i ([ordered]@{ $Name = $now }) }
        }
    }
}

function New-ItemProperty {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Mandatory = $true, Position = 1, ValueFromPipelineByPropertyName = $true)][Alias('PSProperty')][string]$Name,
        [Parameter(ValueFromPipelineByPropertyName = $true)][Alias('Type')][string]$PropertyType,
        [Parameter(ValueFromPipelineByPropertyName = $true)][AllowNull()][object]$Value,
        [switch]$Force
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($i in Get-PlayRegistryItems $PSCmdlet $paths 'NewItemPropertyCommand') {
            $kind = 'Unknown'
            if ($PropertyType) {
                $kind = $script:Kinds | Where-Object { $_ -eq $PropertyType } | Select-Object -First 1
                if (-not $kind) {
                    $e = New-Object System.ArgumentException ('Could not bind parameter ''Type''. Could not convert "{0}" to "Microsoft.Win32.RegistryValueKind". The possible enumeration values are "String, ExpandString, Binary, DWord, MultiString, QWord, Unknown".' -f $PropertyType)
                    $PSCmdlet.WriteError((New-PlayError $e 'System.ArgumentException,Microsoft.PowerShell.Commands.NewItemPropertyCommand' InvalidArgument $PropertyType))
                    continue
                }
            }
            if (-not $Force -and $null -ne (Invoke-PlayWindows Registry.GetValue @{ hive = $i.hive; path = $i.subKey; name = $Name })) {
                $e = New-Object System.IO.IOException 'The property already exists.'
                $PSCmdlet.WriteError((New-PlayError $e 'System.IO.IOException,Microsoft.PowerShell.Commands.NewItemPropertyCommand' ResourceExists $i.path))
                continue
            }
            try {
                $now = Set-PlayRegistryData $i $Name $Value $kind
            } catch {
                $PSCmdlet.WriteError((New-PlayError $_.Exception 'NewItemPropertyError,Microsoft.PowerShell.Commands.NewItemPropertyCommand' WriteError $i.path))
                continue
            }
            New-PlayPropertyObject $i ([ordered]@{ $Name = $now })
        }
    }
}

function Remove-ItemProperty {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Mandatory = $true, Position = 1, ValueFromPipelineByPropertyName = $true)][Alias('PSProperty')][string[]]$Name,
        [switch]$Force
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($i in Get-PlayRegistryItems $PSCmdlet $paths 'RemoveItemPropertyCommand') {
            $where = @{ hive = $i.hive; path = $i.subKey }
            $names = @(Invoke-PlayWindows Registry.ValueNames $where)
            foreach ($wanted in $Name) {
                $hit = @($names | Where-Object { $n = $_; if ($n -eq '') { $n = '(default)' }; $n -like $wanted })
                if ($hit.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($wanted)) { Write-PlayPropertyNotFound $PSCmdlet $i $wanted 'RemoveItemPropertyCommand' }
                foreach ($h in $hit) { $null = Invoke-PlayWindows Registry.DeleteValue @{ hive = $i.hive; path = $i.subKey; name = [string]$h } }
            }
        }
    }
}

Export-ModuleMember -Function Get-ItemProperty, Set-ItemProperty, New-ItemProperty, Remove-ItemProperty
