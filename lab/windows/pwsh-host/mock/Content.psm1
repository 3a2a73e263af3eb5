# File content on the simulated node: Get-Content, Set-Content, Add-Content and Clear-Content for the
# FileSystem provider (C:\...), shadowing Microsoft.PowerShell.Management, as an operator types them
# over SSH. The bytes are the node's model (File.Read and File.Write, lab/windows/surface/files.ts);
# the text is encoded and decoded here with .NET's encoders, as Windows PowerShell 5.1 does:
#  - reading: a BOM says the encoding (UTF-8, UTF-16LE/BE, UTF-32); without one the text is read as
#    the ANSI code page (Windows-1252 on an en-US node), so UTF-8 without a BOM reads as mojibake;
#    lines are split at CRLF or LF, without their ends; -Raw is the whole text;
#  - writing: -Encoding Default (ANSI) unless given; UTF8 writes a BOM, Unicode is UTF-16LE with a BOM;
#    each value is followed by CRLF unless -NoNewline.
# Registry paths have no content, as on Windows ("The IContentCmdletProvider interface is not
# implemented by this provider.").

. ([System.IO.Path]::Combine($PSScriptRoot, 'ItemsShared.ps1'))

$script:Ansi = [System.Text.Encoding]::GetEncoding(1252)

function Get-PlayEncoding {
    param([string]$Name)
    switch ($Name) {
        { $_ -in '', 'Default', 'String', 'Unknown' } { return $script:Ansi }
        'UTF8' { return New-Object System.Text.UTF8Encoding $true }
        'Unicode' { return New-Object System.Text.UnicodeEncoding $false, $true }
        'BigEndianUnicode' { return New-Object System.Text.UnicodeEncoding $true, $true }
        'UTF32' { return New-Object System.Text.UTF32Encoding $false, $true }
        'UTF7' { return [System.Text.Encoding]::UTF7 }
        'ASCII' { return [System.Text.Encoding]::ASCII }
        'Oem' { return [System.Text.Encoding]::GetEncoding(437) }
        default { throw "Cannot bind parameter 'Encoding'. Cannot convert value `"$Name`" to type `"Microsoft.PowerShell.Commands.FileSystemCmdletProviderEncoding`"." }
    }
}

# The text of a file's bytes: by its BOM, else the given encoding (ANSI by default).
function ConvertFrom-PlayBytes {
    param([byte[]]$Bytes, [string]$Encoding)
    $boms = @(
        @{ bom = [byte[]](0xEF, 0xBB, 0xBF); enc = New-Object System.Text.UTF8Encoding $false },
        @{ bom = [byte[]](0xFF, 0xFE, 0, 0); enc = New-Object System.Text.UTF32Encoding $false, $false },
        @{ bom = [byte[]](0xFF, 0xFE); enc = New-Object System.Text.UnicodeEncoding $false, $false },
        @{ bom = [byte[]](0xFE, 0xFF); enc = New-Object System.Text.UnicodeEncoding $true, $false }
    )
    foreach ($b in $boms) {
        $n = $b.bom.Length
        if ($Bytes.Length -ge $n -and [System.Linq.Enumerable]::SequenceEqual([byte[]]$Bytes[0..($n - 1)], $b.bom)) {
            return $b.enc.GetString($Bytes, $n, $Bytes.Length - $n)
        }
    }
    return (Get-PlayEncoding $Encoding).GetString($Bytes)
}

function Resolve-PlayContentPath {
    param($Cmdlet, [string]$Path, [string]$Command, [bool]$MustExist)
    $i = Resolve-PlayItem $Cmdlet $Path $Command
    if ($null -eq $i) { return $null }
    if ($i.provider -ne 'FileSystem') {
        $e = New-Object System.Management.Automation.PSNotSupportedException 'The IContentCmdletProvider interface is not implemented by this provider.'
        $Cmdlet.WriteError((New-PlayError $e "NotSupported,Microsoft.PowerShell.Commands.$Command" NotImplemented $Path))
        return $null
    }
    if ($MustExist -and -not $i.exists) { Write-PlayPathNotFound $Cmdlet $i.path $Command; return $null }
    if ($i.exists -and $i.container) {
        $e = New-Object System.UnauthorizedAccessException ("Access to the path '{0}' is denied." -f $i.path)
        $Cmdlet.WriteError((New-PlayError $e "GetContentWriterUnauthorizedAccessError,Microsoft.PowerShell.Commands.$Command" PermissionDenied $i.path))
        return $null
    }
    return $i
}

function Get-PlayBytes { param([string]$Path) [System.Convert]::FromBase64String((Invoke-PlayWindows File.Read @{ path = $Path })) }

function Get-Content {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Alias('First', 'Head')][long]$TotalCount = -1, [int]$Tail = -1, [switch]$Raw, [string]$Encoding, [switch]$Force
    )
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($p in $paths) {
            $i = Resolve-PlayContentPath $PSCmdlet $p 'GetContentCommand' $true
            if ($null -eq $i) { continue }
            $bytes = Get-PlayBytes $i.path
            if ($Encoding -eq 'Byte') { if ($Raw) { , $bytes } else { $bytes }; continue }
            $text = ConvertFrom-PlayBytes $bytes $Encoding
            if ($Raw) { if ($text.Length -gt 0) { $text }; continue }
            $lines = @($text -split '\r?\n')
            if ($lines.Count -gt 0 -and $lines[-1] -eq '') { $lines = @($lines | Select-Object -SkipLast 1) }
            if ($TotalCount -ge 0) { $lines = @($lines | Select-Object -First $TotalCount) }
            if ($Tail -ge 0) { $lines = @($lines | Select-Object -Last $Tail) }
            $lines
        }
    }
}

# Set-Content and Add-Content: the new bytes of each file, written through the model.
function Write-PlayContent {
    param($Cmdlet, [string[]]$Paths, [object[]]$Values, [string]$Encoding, [bool]$NoNewline, [bool]$Append, [string]$Command)
    $enc = Get-PlayEncoding $Encoding
    $text = New-Object System.Text.StringBuilder
    foreach ($v in $Values) {
        [void]$text.Append([string]$v)
        if (-not $NoNewline) { [void]$text.Append("`r`n") }
    }
    $body = $enc.GetBytes($text.ToString())
    foreach ($p in $Paths) {
        $i = Resolve-PlayContentPath $Cmdlet $p $Command $false
        if ($null -eq $i) { continue }
        [byte[]]$bytes = @()
        if ($Append -and $i.exists) { $bytes = Get-PlayBytes $i.path }
        if ($bytes.Length -eq 0) { $bytes = [byte[]]($enc.GetPreamble()) }
        $all = New-Object byte[] ($bytes.Length + $body.Length)
        [System.Array]::Copy($bytes, $all, $bytes.Length)
        [System.Array]::Copy($body, 0, $all, $bytes.Length, $body.Length)
        try {
            $null = Invoke-PlayWindows File.Write @{ path = $i.path; contentBase64 = [System.Convert]::ToBase64String($all) }
        } catch {
            $e = New-Object System.IO.DirectoryNotFoundException $_.Exception.Message
            $Cmdlet.WriteError((New-PlayError $e "GetContentWriterDirectoryNotFoundError,Microsoft.PowerShell.Commands.$Command" ObjectNotFound $i.path))
        }
    }
}

function Set-Content {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Mandatory = $true, Position = 1, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][AllowNull()][AllowEmptyCollection()][object[]]$Value,
        [string]$Encoding, [switch]$NoNewline, [switch]$Force, [switch]$PassThru
    )
    begin {
        if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') }
        $all = New-Object System.Collections.Generic.List[object]
    }
    process { foreach ($v in $Value) { $all.Add($v) } }
    end {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        Write-PlayContent $PSCmdlet $paths $all.ToArray() $Encoding $NoNewline $false 'SetContentCommand'
        if ($PassThru) { $all.ToArray() }
    }
}

function Add-Content {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [Parameter(Mandatory = $true, Position = 1, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][AllowNull()][AllowEmptyCollection()][object[]]$Value,
        [string]$Encoding, [switch]$NoNewline, [switch]$Force, [switch]$PassThru
    )
    begin {
        if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') }
        $all = New-Object System.Collections.Generic.List[object]
    }
    process { foreach ($v in $Value) { $all.Add($v) } }
    end {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        Write-PlayContent $PSCmdlet $paths $all.ToArray() $Encoding $NoNewline $true 'AddContentCommand'
        if ($PassThru) { $all.ToArray() }
    }
}

function Clear-Content {
    [CmdletBinding(DefaultParameterSetName = 'Path')]
    param(
        [Parameter(ParameterSetName = 'Path', Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Path,
        [Parameter(ParameterSetName = 'LiteralPath', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('PSPath')][string[]]$LiteralPath,
        [switch]$Force
    )
    process {
        $paths = $Path
        if ($PSCmdlet.ParameterSetName -eq 'LiteralPath') { $paths = $LiteralPath }
        foreach ($p in $paths) {
            $i = Resolve-PlayContentPath $PSCmdlet $p 'ClearContentCommand' $true
            if ($null -ne $i) { $null = Invoke-PlayWindows File.Write @{ path = $i.path; contentBase64 = '' } }
        }
    }
}

Export-ModuleMember -Function Get-Content, Set-Content, Add-Content, Clear-Content
