# CIM on the simulated node: Get-CimInstance for the classes our programs read (Win32_Service,
# Win32_OperatingSystem) and Invoke-CimMethod for Win32_Service.Change, answered by the node's
# model (lab/windows/surface/). Objects carry the properties and types Windows gives: ProcessId is a
# UInt32, LastBootUpTime a local DateTime, BuildNumber a string.

function ConvertTo-PlayWin32Service {
    param($Record)
    $o = [pscustomobject]@{
        Name = [string]$Record.name
        DisplayName = [string]$Record.displayName
        PathName = [string]$Record.binPath
        StartMode = @{ Auto = 'Auto'; Manual = 'Manual'; Disabled = 'Disabled' }[[string]$Record.startMode]
        State = [string]$Record.state
        Started = ([string]$Record.state -eq 'Running')
        ProcessId = [uint32]$Record.pid
        ServiceType = @{ own = 'Own Process'; share = 'Share Process' }[[string]$Record.type]
        StartName = [string]$Record.account
    }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service')
    return $o
}

function Get-CimInstance {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$ClassName, [string]$Filter, [string]$Namespace = 'root/cimv2')
    switch ($ClassName) {
        'Win32_Service' {
            foreach ($s in @(Invoke-PlayWindows Service.List)) { ConvertTo-PlayWin32Service $s }
        }
        'Win32_OperatingSystem' {
            $os = Invoke-PlayWindows Os.Info
            $o = [pscustomobject]@{
                Caption = [string]$os.caption
                Version = [string]$os.version
                BuildNumber = [string]$os.build
                CSName = [string]$os.hostname
                LastBootUpTime = [datetime]::Parse([string]$os.lastBootUpTime, [System.Globalization.CultureInfo]::InvariantCulture, [System.Globalization.DateTimeStyles]::RoundtripKind).ToLocalTime()
            }
            $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_OperatingSystem')
            $o
        }
        'Win32_LogicalDisk' {
            # The C: drive only (surface/disk.ts); sizes are UInt64, as CIM gives them.
            foreach ($d in @(Invoke-PlayWindows Disk.List)) {
                if ($Filter -and $Filter -notmatch ("DeviceID\s*=\s*'{0}'" -f [regex]::Escape([string]$d.deviceId))) { continue }
                $o = [pscustomobject]@{ DeviceID = [string]$d.deviceId; DriveType = [uint32]3; FreeSpace = [uint64]$d.freeSpace; Size = [uint64]$d.size }
                $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_LogicalDisk')
                $o
            }
        }
        default {
            $e = New-Object System.Management.Automation.ErrorRecord (
                (New-Object System.Exception ('Invalid class (the simulated node does not model {0})' -f $ClassName)),
                'HRESULT 0x80041010,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand', 'MetadataError', $ClassName)
            $PSCmdlet.WriteError($e)
        }
    }
}

function Invoke-CimMethod {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true)]$InputObject, [Parameter(Mandatory = $true)][string]$MethodName, [System.Collections.IDictionary]$Arguments = @{})
    if ($InputObject.PSObject.TypeNames -notcontains 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service' -or $MethodName -ne 'Change') {
        throw ('the simulated node models no method {0} on {1}' -f $MethodName, $InputObject.PSObject.TypeNames[0])
    }
    $password = $null
    if ($Arguments.Contains('StartPassword')) { $password = [string]$Arguments['StartPassword'] }
    $code = Invoke-PlayWindows Service.ChangeAccount @{ name = [string]$InputObject.Name; account = [string]$Arguments['StartName']; password = $password }
    [pscustomobject]@{ ReturnValue = [uint32]$code }
}

Export-ModuleMember -Function Get-CimInstance, Invoke-CimMethod
