# Services on the simulated node: Get-Service, Start-Service, Stop-Service, Restart-Service,
# Set-Service (shadowing Microsoft.PowerShell.Management, which the host does not import) and Stop-Process. Every read and
# change goes to the node's model (lab/windows/surface/services.ts) through Invoke-PlayWindows; this
# file only gives the answers the shapes Windows PowerShell 5.1 gives: Status is an enum (so
# ConvertTo-Json writes a number), DependentServices are service objects, Start()/Stop()/Continue()
# are methods that throw what .NET throws.

enum ServiceControllerStatus { Stopped = 1; StartPending = 2; StopPending = 3; Running = 4; ContinuePending = 5; PausePending = 6; Paused = 7 }
enum ServiceStartMode { Boot = 0; System = 1; Automatic = 2; Manual = 3; Disabled = 4 }

$script:StartModes = @{ Auto = 'Automatic'; Manual = 'Manual'; Disabled = 'Disabled' }

function Invoke-PlayServiceControl {
    param([string]$Name, [string]$Control)
    $r = Invoke-PlayWindows Service.Control @{ name = $Name; control = $Control }
    if ($null -ne $r.refused) {
        # What ServiceController throws: the reason is only in the inner Win32Exception.
        $inner = New-Object System.ComponentModel.Win32Exception ([int]$r.win32Code), ([string]$r.win32Message)
        throw (New-Object System.InvalidOperationException ([string]$r.refused), $inner)
    }
}

function ConvertTo-PlayServiceController {
    param($Record)
    $o = [pscustomobject]@{
        Name = [string]$Record.name
        ServiceName = [string]$Record.name
        DisplayName = [string]$Record.displayName
        Status = [ServiceControllerStatus][string]$Record.state
        StartType = [ServiceStartMode]$script:StartModes[[string]$Record.startMode]
        CanPauseAndContinue = [bool]$Record.pausable
        CanStop = ([string]$Record.state -eq 'Running')
    }
    $o.PSObject.TypeNames.Insert(0, 'System.ServiceProcess.ServiceController')
    $quoted = "'" + ([string]$Record.name -replace "'", "''") + "'"
    # Read when used, as the real ServiceController does.
    $o.PSObject.Properties.Add([psscriptproperty]::new('DependentServices', [scriptblock]::Create(
        "@((Invoke-PlayWindows Service.Dependents @{ name = $quoted }) | ForEach-Object { ConvertTo-PlayServiceController `$_ })")))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Start', [scriptblock]::Create("Invoke-PlayServiceControl $quoted start")))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Stop', [scriptblock]::Create("Invoke-PlayServiceControl $quoted stop")))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Continue', [scriptblock]::Create("Invoke-PlayServiceControl $quoted continue")))
    $o.PSObject.Methods.Add([psscriptmethod]::new('Refresh', { }))
    return $o
}

function Get-PlayServiceRecords {
    param([string]$Pattern)
    @(Invoke-PlayWindows Service.List) | Where-Object { $_.name -like $Pattern -or $_.displayName -like $Pattern }
}

function Get-Service {
    [CmdletBinding()]
    param([Parameter(Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][Alias('ServiceName')][string[]]$Name = '*')
    process {
        foreach ($n in $Name) {
            $found = @(Get-PlayServiceRecords $n)
            if ($found.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($n)) {
                $e = New-Object System.Management.Automation.ErrorRecord (
                    (New-Object System.InvalidOperationException ("Cannot find any service with service name '{0}'." -f $n)),
                    'NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.GetServiceCommand', 'ObjectNotFound', $n)
                $PSCmdlet.WriteError($e)
                continue
            }
            foreach ($s in $found) { ConvertTo-PlayServiceController $s }
        }
    }
}

function Get-PlayOneService {
    param($Cmdlet, [string]$Name)
    $found = @(Get-PlayServiceRecords $Name)
    if ($found.Count -eq 0) {
        $e = New-Object System.Management.Automation.ErrorRecord (
            (New-Object System.InvalidOperationException ("Cannot find any service with service name '{0}'." -f $Name)),
            'NoServiceFoundForGivenName', 'ObjectNotFound', $Name)
        $Cmdlet.ThrowTerminatingError($e)
    }
    return $found[0]
}

# ServiceCommandException's text: "Service 'Display (name)' cannot be started due to the following error: <inner>".
function New-PlayServiceError {
    param($Caught, [string]$Done, [string]$Id, [string]$Category, $Record)
    $inner = $Caught.Exception
    if ($null -ne $inner.InnerException) { $inner = $inner.InnerException }
    $text = "Service '{0} ({1})' cannot be {2} due to the following error: {3}" -f $Record.displayName, $Record.name, $Done, $inner.Message
    $exception = New-Object System.InvalidOperationException $text, $inner
    return New-Object System.Management.Automation.ErrorRecord $exception, $Id, $Category, $Record.name
}

function Start-Service {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][Alias('ServiceName')][string[]]$Name, [switch]$PassThru)
    process {
        foreach ($n in $Name) {
            $s = Get-PlayOneService $PSCmdlet $n
            try {
                Invoke-PlayServiceControl $s.name start
            } catch {
                $PSCmdlet.WriteError((New-PlayServiceError $_ 'started' 'CouldNotStartService,Microsoft.PowerShell.Commands.StartServiceCommand' 'OpenError' $s))
                continue
            }
            if ($PassThru) { Get-Service -Name $s.name }
        }
    }
}

function Stop-Service {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][Alias('ServiceName')][string[]]$Name, [switch]$Force, [switch]$PassThru)
    process {
        foreach ($n in $Name) {
            $s = Get-PlayOneService $PSCmdlet $n
            $running = @(@(Invoke-PlayWindows Service.Dependents @{ name = $s.name }) | Where-Object { $_.state -ne 'Stopped' })
            if ($running.Count -gt 0 -and -not $Force) {
                $e = New-Object System.Management.Automation.ErrorRecord (
                    (New-Object System.InvalidOperationException ("Cannot stop service '{0} ({1})' because it has dependent services. It can only be stopped if the Force flag is set." -f $s.displayName, $s.name)),
                    'ServiceHasDependentServices,Microsoft.PowerShell.Commands.StopServiceCommand', 'InvalidOperation', $s.name)
                $PSCmdlet.WriteError($e)
                continue
            }
            foreach ($d in $running) { Invoke-PlayServiceControl $d.name stop }
            try {
                if ($s.state -ne 'Stopped') { Invoke-PlayServiceControl $s.name stop }
            } catch {
                $PSCmdlet.WriteError((New-PlayServiceError $_ 'stopped' 'CouldNotStopService,Microsoft.PowerShell.Commands.StopServiceCommand' 'CloseError' $s))
                continue
            }
            if ($PassThru) { Get-Service -Name $s.name }
        }
    }
}

# Stop (with -Force the running dependents first, as Stop-Service), then start it and the dependents it stopped.
function Restart-Service {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][Alias('ServiceName')][string[]]$Name, [switch]$Force, [switch]$PassThru)
    process {
        foreach ($n in $Name) {
            $s = Get-PlayOneService $PSCmdlet $n
            $running = @(@(Invoke-PlayWindows Service.Dependents @{ name = $s.name }) | Where-Object { $_.state -ne 'Stopped' })
            $before = $Error.Count
            Stop-Service -Name $s.name -Force:$Force -ErrorAction Continue
            if ($Error.Count -gt $before -and (Get-PlayOneService $PSCmdlet $s.name).state -ne 'Stopped') { continue }
            try {
                Invoke-PlayServiceControl $s.name start
                foreach ($d in $running) { Invoke-PlayServiceControl $d.name start }
            } catch {
                $PSCmdlet.WriteError((New-PlayServiceError $_ 'started' 'CouldNotStartService,Microsoft.PowerShell.Commands.RestartServiceCommand' 'OpenError' $s))
                continue
            }
            if ($PassThru) { Get-Service -Name $s.name }
        }
    }
}

function Set-Service {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)][Alias('ServiceName')][string]$Name,
        [ValidateSet('Automatic', 'Manual', 'Disabled')][string]$StartupType,
        [string]$DisplayName
    )
    $change = @{ name = $Name }
    if ($StartupType) { $change.startMode = @{ Automatic = 'Auto'; Manual = 'Manual'; Disabled = 'Disabled' }[$StartupType] }
    if ($DisplayName) { $change.displayName = $DisplayName }
    $null = Invoke-PlayWindows Service.Configure $change
}

function Stop-Process {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][int[]]$Id, [switch]$Force)
    foreach ($i in $Id) { $null = Invoke-PlayWindows Process.Kill @{ pid = $i } }
}

Export-ModuleMember -Function Get-Service, Start-Service, Stop-Service, Restart-Service, Set-Service, Stop-Process, ConvertTo-PlayServiceController, Invoke-PlayServiceControl
