# Windows features and capabilities of the simulated node: Server Manager's Get-WindowsFeature and
# Install-WindowsFeature, DISM's Get-WindowsCapability and Add-WindowsCapability, shaped as Windows
# PowerShell 5.1 returns them (InstallState, RestartNeeded and ExitCode are enums, so [string] gives
# their names and ConvertTo-Json a number). The rules are the node's (lab/windows/surface/features.ts).

enum InstallState { Available = 0; Installed = 1; InstallPending = 2; Removed = 3; UninstallPending = 4 }
enum RestartState { No = 0; Yes = 1; Maybe = 2 }
enum FeatureOperationExitCode { Success = 0; Failed = 1; InvalidArgs = 87; NoChangeNeeded = 1003; SuccessRestartRequired = 3010 }
enum PackageFeatureState { NotPresent = 0; UninstallPending = 1; Staged = 2; Removed = 3; Installed = 4; InstallPending = 5; Superseded = 6; PartiallyInstalled = 7 }

function ConvertTo-PlayFeature {
    param($Record)
    $o = [pscustomobject]@{
        DisplayName = [string]$Record.displayName
        Name = [string]$Record.name
        InstallState = [InstallState][string]$Record.installState
        FeatureType = 'Feature'
        Path = [string]$Record.displayName
        Depth = 1
        Installed = ([string]$Record.installState -eq 'Installed')
        SubFeatures = @()
        DependsOn = @()
        Parent = $null
    }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Windows.ServerManager.Commands.Feature')
    return $o
}

function Get-WindowsFeature {
    [CmdletBinding()]
    param([Parameter(Position = 0, ValueFromPipeline = $true)][string[]]$Name = '*', [string]$ComputerName, [string]$LogPath)
    process {
        $all = @(Invoke-PlayWindows Feature.List)
        foreach ($n in $Name) {
            # A name Server Manager does not know gives nothing, not an error.
            $all | Where-Object { $_.name -like $n } | ForEach-Object { ConvertTo-PlayFeature $_ }
        }
    }
}

function Install-WindowsFeature {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0, ValueFromPipeline = $true)][string[]]$Name,
        [switch]$IncludeAllSubFeature, [switch]$IncludeManagementTools, [switch]$Restart, [string[]]$Source, [string]$ComputerName
    )
    $all = @(Invoke-PlayWindows Feature.List)
    foreach ($n in $Name) {
        if (@($all | Where-Object { $_.name -eq $n }).Count -eq 0) {
            $e = New-Object System.Management.Automation.ErrorRecord (
                (New-Object System.ArgumentException ("ArgumentNotValid: The role, role service, or feature name is not valid: '{0}'. The name was not found." -f $n)),
                'NameDoesNotExist,Microsoft.Windows.ServerManager.Commands.AddWindowsFeatureCommand', 'InvalidArgument', $n)
            $PSCmdlet.ThrowTerminatingError($e)
        }
    }
    $results = @()
    $restartNeeded = $false
    foreach ($n in $Name) {
        $r = Invoke-PlayWindows Feature.Install @{ name = $n }
        if ($r.outcome -eq 'none') { continue }
        if ($r.outcome -eq 'restart') { $restartNeeded = $true }
        $fr = [pscustomobject]@{
            DisplayName = [string]$r.displayName
            Id = 0
            Message = ''
            Name = [string]$r.name
            RestartNeeded = ($r.outcome -eq 'restart')
            SkipReason = 'NotSkipped'
            Success = $true
        }
        $fr.PSObject.TypeNames.Insert(0, 'Microsoft.Windows.ServerManager.Commands.FeatureResult')
        $results += $fr
    }
    $code = [FeatureOperationExitCode]::Success
    if ($results.Count -eq 0) { $code = [FeatureOperationExitCode]::NoChangeNeeded }
    if ($restartNeeded) {
        $code = [FeatureOperationExitCode]::SuccessRestartRequired
        $PSCmdlet.WriteWarning('You must restart this server to finish the installation process.')
    }
    $restartState = [RestartState]::No
    if ($restartNeeded) { $restartState = [RestartState]::Yes }
    $o = [pscustomobject]@{ Success = $true; RestartNeeded = $restartState; FeatureResult = $results; ExitCode = $code }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Windows.ServerManager.Commands.FeatureOperationResult')
    return $o
}

function Assert-PlayOnline {
    param($Cmdlet, [bool]$Online)
    if ($Online) { return }
    throw ('the simulated {0} models the running system only (-Online)' -f $Cmdlet)
}

function Get-WindowsCapability {
    [CmdletBinding()]
    param([string]$Name, [switch]$Online, [string]$Path, [switch]$LimitAccess, [string[]]$Source)
    Assert-PlayOnline 'Get-WindowsCapability' $Online
    $all = @(Invoke-PlayWindows Capability.List)
    if (-not $Name) {
        foreach ($c in $all) {
            $o = [pscustomobject]@{ Name = [string]$c.name; State = [PackageFeatureState][string]$c.state }
            $o.PSObject.TypeNames.Insert(0, 'Microsoft.Dism.Commands.BasicCapabilityObject')
            $o
        }
        return
    }
    $c = $all | Where-Object { $_.name -eq $Name } | Select-Object -First 1
    # DISM answers a name it does not know with an object whose fields are empty.
    $o = [pscustomobject]@{
        Name = ''
        State = [PackageFeatureState]::NotPresent
        DisplayName = ''
        Description = ''
        DownloadSize = 0
        InstallSize = 0
        Online = $true
        RestartNeeded = $false
    }
    if ($null -ne $c) {
        $o.Name = [string]$c.name
        $o.State = [PackageFeatureState][string]$c.state
        $o.DisplayName = ([string]$c.name -split '~')[0]
    }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Dism.Commands.AdvancedCapabilityObject')
    return $o
}

function Add-WindowsCapability {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true)][string]$Name, [switch]$Online, [string]$Path, [switch]$LimitAccess, [string[]]$Source)
    Assert-PlayOnline 'Add-WindowsCapability' $Online
    $r = Invoke-PlayWindows Capability.Add @{ name = $Name }
    if ($null -ne $r.errorCode) {
        $e = New-Object System.Management.Automation.ErrorRecord (
            (New-Object System.Runtime.InteropServices.COMException ('Add-WindowsCapability failed. Error code = {0}' -f $r.errorCode), ([Convert]::ToInt32([string]$r.errorCode, 16))),
            'Microsoft.Dism.Commands.AddWindowsCapabilityCommand', 'NotSpecified', $null)
        $PSCmdlet.ThrowTerminatingError($e)
    }
    $o = [pscustomobject]@{ Path = ''; Online = $true; RestartNeeded = [bool]$r.restartNeeded; LogPath = 'C:\Windows\Logs\DISM\dism.log' }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Dism.Commands.ImageObject')
    return $o
}

Export-ModuleMember -Function Get-WindowsFeature, Install-WindowsFeature, Get-WindowsCapability, Add-WindowsCapability
