# The Windows service surface of the simulated node, as PowerShell functions that shadow the
# Microsoft.PowerShell.Management cmdlets (which the host does not have): Get-Service, Start-Service,
# Stop-Service, Set-Service, and Get-CimInstance for Win32_Service. They read and change the node's
# model, $global:PlayNode (lab/windows/state.ts NodeState, passed in with each request and returned
# changed), with the objects Windows PowerShell 5.1 gives: Status is an enum (so ConvertTo-Json
# writes a number, as 5.1 does), DependentServices are service objects, Stop()/Start() are methods.

enum ServiceControllerStatus { Stopped = 1; StartPending = 2; StopPending = 3; Running = 4; ContinuePending = 5; PausePending = 6; Paused = 7 }
enum ServiceStartMode { Boot = 0; System = 1; Automatic = 2; Manual = 3; Disabled = 4 }

function Get-PlayModelService {
    param([string]$Name)
    if ($null -eq $global:PlayNode) { throw 'the simulated node has no model ($PlayNode is not set)' }
    return $global:PlayNode.services[$Name.ToLowerInvariant()]
}

function Get-PlayModelDependents {
    param([string]$Name)
    foreach ($s in $global:PlayNode.services.Values) {
        if (@($s.dependencies) -contains $Name) { $s }
    }
}

function Start-PlayModelService {
    param([string]$Name)
    $s = Get-PlayModelService $Name
    if ($s.startMode -eq 'Disabled') { throw ("Cannot start service {0} on computer '.'." -f $s.name) }
    foreach ($d in @($s.dependencies)) { if ((Get-PlayModelService $d).state -ne 'Running') { Start-PlayModelService $d } }
    if ($s.state -ne 'Running') {
        $s.state = 'Running'
        $s.pid = [int]$global:PlayNode.nextPid
        $global:PlayNode.nextPid = [int]$global:PlayNode.nextPid + 4
    }
}

function Stop-PlayModelService {
    param([string]$Name)
    $s = Get-PlayModelService $Name
    $running = @(Get-PlayModelDependents $s.name | Where-Object { $_.state -eq 'Running' })
    if ($running.Count -gt 0) {
        throw ("Cannot stop service '{0} ({1})' because it has dependent services. It can only be stopped if the Force flag is set." -f $s.displayName, $s.name)
    }
    $s.state = 'Stopped'
    $s.pid = 0
    $s.win32ExitCode = 0
}

function ConvertTo-ServiceController {
    param($Record)
    $o = [pscustomobject]@{
        Name = [string]$Record.name
        ServiceName = [string]$Record.name
        DisplayName = [string]$Record.displayName
        Status = [ServiceControllerStatus][string]$Record.state
        StartType = [ServiceStartMode]@{ Auto = 'Automatic'; Manual = 'Manual'; Disabled = 'Disabled' }[[string]$Record.startMode]
        CanPauseAndContinue = [bool]$Record.pausable
        CanStop = ($Record.state -eq 'Running')
    }
    $o.PSObject.TypeNames.Insert(0, 'System.ServiceProcess.ServiceController')
    $name = [string]$Record.name
    # Lazily, as the real ServiceController: the dependents are looked up when read.
    $o.PSObject.Properties.Add([psscriptproperty]::new('DependentServices', ([scriptblock]::Create("@(Get-PlayModelDependents '$name' | ForEach-Object { ConvertTo-ServiceController `$_ })"))))
    $o.PSObject.Properties.Add([psscriptproperty]::new('ServicesDependedOn', ([scriptblock]::Create("@((Get-PlayModelService '$name').dependencies | ForEach-Object { ConvertTo-ServiceController (Get-PlayModelService `$_) })"))))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Start', ([scriptblock]::Create("Start-PlayModelService '$name'"))))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Stop', ([scriptblock]::Create("Stop-PlayModelService '$name'"))))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Continue', ([scriptblock]::Create("Start-PlayModelService '$name'"))))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Refresh', { }))
    return $o
}

function Get-Service {
    [CmdletBinding()]
    param([Parameter(Position = 0, ValueFromPipeline = $true)][Alias('ServiceName')][string[]]$Name = '*')
    process {
        foreach ($n in $Name) {
            $found = @($global:PlayNode.services.Values | Where-Object { $_.name -like $n })
            if ($found.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($n)) {
                $e = New-Object System.Management.Automation.ErrorRecord (
                    (New-Object System.InvalidOperationException ("Cannot find any service with service name '{0}'." -f $n)),
                    'NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.GetServiceCommand', 'ObjectNotFound', $n)
                $PSCmdlet.WriteError($e)
                continue
            }
            foreach ($s in $found) { ConvertTo-ServiceController $s }
        }
    }
}

function Start-Service {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Name)
    process { foreach ($n in $Name) { Start-PlayModelService $n } }
}

function Stop-Service {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][string[]]$Name, [switch]$Force)
    process {
        foreach ($n in $Name) {
            if ($Force) { foreach ($d in @(Get-PlayModelDependents $n | Where-Object { $_.state -eq 'Running' })) { Stop-Service -Name $d.name -Force } }
            Stop-PlayModelService $n
        }
    }
}

function Set-Service {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)][string]$Name,
        [ValidateSet('Automatic', 'Manual', 'Disabled')][string]$StartupType,
        [string]$DisplayName
    )
    $s = Get-PlayModelService $Name
    if ($null -eq $s) { throw ("Service {0} was not found on computer '.'." -f $Name) }
    if ($StartupType) { $s.startMode = @{ Automatic = 'Auto'; Manual = 'Manual'; Disabled = 'Disabled' }[$StartupType] }
    if ($DisplayName) { $s.displayName = $DisplayName }
}

function Get-CimInstance {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$ClassName, [string]$Filter)
    switch ($ClassName) {
        'Win32_Service' {
            foreach ($s in $global:PlayNode.services.Values) {
                $o = [pscustomobject]@{
                    Name = [string]$s.name
                    DisplayName = [string]$s.displayName
                    PathName = [string]$s.binPath
                    StartMode = [string]$s.startMode
                    State = [string]$s.state
                    Started = ($s.state -eq 'Running')
                    ProcessId = [uint32]$s.pid
                    ServiceType = @{ own = 'Own Process'; share = 'Share Process' }[[string]$s.type]
                    StartName = [string]$s.account
                }
                $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_Service')
                $o
            }
        }
        'Win32_OperatingSystem' {
            $os = $global:PlayNode.os
            [pscustomobject]@{
                Caption = [string]$os.caption
                Version = [string]$os.version
                BuildNumber = [string]$os.build
                LastBootUpTime = [datetime]::Parse([string]$os.lastBootUpTime, $null, [System.Globalization.DateTimeStyles]::RoundtripKind).ToLocalTime()
            }
        }
        default { throw ("Get-CimInstance: the simulated node has no class {0}" -f $ClassName) }
    }
}

Export-ModuleMember -Function Get-Service, Start-Service, Stop-Service, Set-Service, Get-CimInstance, Get-PlayModelService, Get-PlayModelDependents, Start-PlayModelService, Stop-PlayModelService, ConvertTo-ServiceController
