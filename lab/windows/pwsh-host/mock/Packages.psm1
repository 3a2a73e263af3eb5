# PackageManagement and PowerShellGet on the simulated node, as docs/field-notes.md#d-docker-install-and-docker-version
# uses them to install Docker: Get-PackageProvider, Install-PackageProvider (NuGet), Get-Module
# -ListAvailable and Install-Module (PSGallery's DockerMsftProvider), Install-Package -ProviderName
# DockerMsftProvider. What is installed is the node's (surface/packages.ts, surface/docker.ts); this
# file gives the answers the shapes and texts of Windows PowerShell 5.1 with PackageManagement 1.0.0.1.

function New-PlayPackageError {
    param([string]$Text, [string]$Id, [string]$Category, $Target)
    New-Object System.Management.Automation.ErrorRecord ((New-Object System.Exception $Text), $Id, $Category, $Target)
}

function Get-PackageProvider {
    [CmdletBinding()]
    param([Parameter(Position = 0)][string[]]$Name, [switch]$ListAvailable, [switch]$Force, [switch]$ForceBootstrap)
    $all = @(Invoke-PlayWindows Packages.Providers)
    if (-not $Name) { $Name = @('*') }
    foreach ($n in $Name) {
        $found = @($all | Where-Object { $_.name -like $n })
        if ($found.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($n)) {
            $PSCmdlet.WriteError((New-PlayPackageError ("Unable to find package provider '{0}'. It may not be imported yet. Try 'Get-PackageProvider -ListAvailable'." -f $n) `
                'UnknownProviderFromActivatedList,Microsoft.PowerShell.PackageManagement.Cmdlets.GetPackageProviderCommand' 'ObjectNotFound' $n))
            continue
        }
        foreach ($p in $found) {
            $o = [pscustomobject]@{ Name = [string]$p.name; Version = [version][string]$p.version; ProviderName = [string]$p.name; DynamicOptions = @() }
            $o.PSObject.TypeNames.Insert(0, 'Microsoft.PackageManagement.Implementation.PackageProvider')
            $o
        }
    }
}

function Install-PackageProvider {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string[]]$Name, [string]$MinimumVersion, [string]$RequiredVersion, [string]$MaximumVersion, [switch]$Force, [string]$Scope)
    foreach ($n in $Name) {
        try {
            $p = Invoke-PlayWindows Packages.InstallProvider @{ name = $n }
        } catch {
            $PSCmdlet.ThrowTerminatingError((New-PlayPackageError $_.Exception.Message `
                'NoMatchFoundForProvider,Microsoft.PowerShell.PackageManagement.Cmdlets.InstallPackageProvider' 'InvalidArgument' $n))
        }
        $o = [pscustomobject]@{ Name = [string]$p.name; Version = [string]$p.version; Source = [string]$p.source; Summary = [string]$p.summary; Status = 'Installed' }
        $o.PSObject.TypeNames.Insert(0, 'Microsoft.PackageManagement.Packaging.SoftwareIdentity')
        $o
    }
}

function ConvertTo-PlayModuleInfo {
    param($Record)
    $o = [pscustomobject]@{
        ModuleType = [System.Management.Automation.ModuleType]::Script
        Version = [version][string]$Record.version
        Name = [string]$Record.name
        Path = [string]$Record.path
        ModuleBase = [string]$Record.moduleBase
        ExportedCommands = @{}
    }
    $o.PSObject.TypeNames.Insert(0, 'System.Management.Automation.PSModuleInfo')
    return $o
}

# -ListAvailable lists the modules PowerShellGet installed on the node (the engine's own would read
# this Linux machine's module path); the modules Windows ships are not modelled. Loaded modules are
# the engine's.
function Get-Module {
    [CmdletBinding()]
    param([Parameter(Position = 0, ValueFromPipeline = $true)][string[]]$Name, [switch]$ListAvailable, [switch]$All, [switch]$Refresh)
    if (-not $ListAvailable) {
        Microsoft.PowerShell.Core\Get-Module @PSBoundParameters
        return
    }
    if (-not $Name) { $Name = @('*') }
    $installed = @(Invoke-PlayWindows Packages.Modules)
    foreach ($n in $Name) {
        $installed | Where-Object { $_.name -like $n } | ForEach-Object { ConvertTo-PlayModuleInfo $_ }
    }
}

function Install-Module {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string[]]$Name, [string[]]$Repository, [string]$RequiredVersion, [string]$MinimumVersion,
        [switch]$Force, [switch]$AllowClobber, [switch]$SkipPublisherCheck, [string]$Scope)
    foreach ($r in @($Repository)) {
        if ($r -and $r -ne 'PSGallery') {
            $PSCmdlet.ThrowTerminatingError((New-PlayPackageError ("Unable to find repository '{0}'. Use Get-PSRepository to see all available repositories." -f $r) `
                'SourceNotFound,Microsoft.PowerShell.PackageManagement.Cmdlets.InstallPackage' 'ObjectNotFound' $r))
        }
    }
    foreach ($n in $Name) {
        try {
            $null = Invoke-PlayWindows Packages.InstallModule @{ name = $n }
        } catch {
            $PSCmdlet.ThrowTerminatingError((New-PlayPackageError $_.Exception.Message `
                'NoMatchFoundForCriteria,Microsoft.PowerShell.PackageManagement.Cmdlets.InstallPackage' 'ObjectNotFound' $n))
        }
    }
}

function Install-Package {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string[]]$Name, [string[]]$ProviderName, [string]$RequiredVersion, [string]$MinimumVersion,
        [string]$MaximumVersion, [string[]]$Source, [switch]$Force, [switch]$ForceBootstrap)
    if (@($ProviderName) -notcontains 'DockerMsftProvider') {
        throw 'the simulated Install-Package models only -ProviderName DockerMsftProvider (mock/Packages.psm1)'
    }
    foreach ($n in $Name) {
        $change = @{ name = $n; version = $null }
        if ($RequiredVersion) { $change.version = $RequiredVersion }
        try {
            $r = Invoke-PlayWindows Docker.Install $change
        } catch {
            $id = 'NoMatchFoundForCriteria,Microsoft.PowerShell.PackageManagement.Cmdlets.InstallPackage'
            if ($_.Exception.Message -like 'Unable to find package provider*') { $id = 'UnknownProviderFromActivatedList,Microsoft.PowerShell.PackageManagement.Cmdlets.InstallPackage' }
            $PSCmdlet.ThrowTerminatingError((New-PlayPackageError $_.Exception.Message $id 'ObjectNotFound' $n))
        }
        if ($r.restartNeeded) {
            # DockerMsftProvider's own words when it enabled the Containers feature.
            $PSCmdlet.WriteWarning('A restart is required to start docker service. Please restart your machine.')
            $PSCmdlet.WriteWarning('After the restart please start the docker service.')
        }
        $o = [pscustomobject]@{
            Name = [string]$r.name; Version = [string]$r.version; Source = [string]$r.source; Status = 'Installed'
            ProviderName = 'DockerMsftProvider'; Summary = 'Contains Docker EE for use with Windows Server.'
        }
        $o.PSObject.TypeNames.Insert(0, 'Microsoft.PackageManagement.Packaging.SoftwareIdentity')
        $o
    }
}

Export-ModuleMember -Function Get-PackageProvider, Install-PackageProvider, Get-Module, Install-Module, Install-Package
