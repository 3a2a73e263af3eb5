# The simulated node's ScheduledTasks module (Windows Server 2019, PowerShell 5.1): the cmdlets
# windows.scheduledTask calls, shaped as 5.1 returns them (CIM instances of MSFT_ScheduledTask and its
# parts), with Windows' refusals: an account it cannot map to a SID, a task that exists when
# Register-ScheduledTask has no -Force, a task that does not exist, a time that is not one.
# A task is where Windows keeps it: its XML (Task Scheduler schema, UTF-16) in
# C:\Windows\System32\Tasks\<folder>\<name>, a file of the node's model, so it survives a restart of
# the simulator and a test can seed or read it as a file. Loaded by the lab from this folder
# (lab/windows/step-simulators.ts); not part of play.

$script:TasksRoot = 'C:\Windows\System32\Tasks'
$script:Ns = 'http://schemas.microsoft.com/windows/2004/02/mit/task'
# The accounts a fresh node maps to a SID (well-known SIDs are kept as SIDs, as Windows does).
$script:WellKnown = [ordered]@{ 'SYSTEM' = 'S-1-5-18'; 'LOCAL SERVICE' = 'S-1-5-19'; 'NETWORK SERVICE' = 'S-1-5-20' }
$script:LocalAccounts = @('Administrator', 'Guest', 'DefaultAccount')

function New-PlayCim {
    param([string]$Class, [hashtable]$Properties)
    $o = [pscustomobject]$Properties
    $o | Add-Member -NotePropertyName CimClass -NotePropertyValue ([pscustomobject]@{ CimClassName = $Class })
    $o.PSObject.TypeNames.Insert(0, "Microsoft.Management.Infrastructure.CimInstance#Root/Microsoft/Windows/TaskScheduler/$Class")
    $o
}

function Write-PlayTaskError {
    param($Cmdlet, [string]$Message, [string]$Id, [string]$Category, $Target)
    $e = New-Object System.Management.Automation.ErrorRecord ((New-Object System.Exception $Message), $Id, $Category, $Target)
    $Cmdlet.WriteError($e)
}

function Stop-PlayTask {
    param($Cmdlet, [string]$Message, [string]$Id, [string]$Category, $Target)
    $e = New-Object System.Management.Automation.ErrorRecord ((New-Object System.Exception $Message), $Id, $Category, $Target)
    $Cmdlet.ThrowTerminatingError($e)
}

function Get-PlayTaskFile {
    param([string]$TaskPath, [string]$TaskName)
    $folder = $TaskPath.Trim('\')
    if ($folder -eq '') { return '{0}\{1}' -f $script:TasksRoot, $TaskName }
    '{0}\{1}\{2}' -f $script:TasksRoot, $folder, $TaskName
}

# SYSTEM, NT AUTHORITY\SYSTEM, S-1-5-18 -> its SID; a local account -> its name; else $null (no SID).
function Resolve-PlayAccount {
    param([string]$User)
    $prefix = '^(NT AUTHORITY|\.|{0})\\' -f [regex]::Escape([string]$env:COMPUTERNAME)
    $bare = $User -replace $prefix, ''
    foreach ($k in $script:WellKnown.Keys) { if ($bare -eq $k -or $bare -eq $script:WellKnown[$k]) { return $script:WellKnown[$k] } }
    foreach ($n in $script:LocalAccounts) { if ($bare -eq $n) { return $n } }
    $null
}

function Get-PlayAccountName {
    param([string]$UserId)
    foreach ($k in $script:WellKnown.Keys) { if ($script:WellKnown[$k] -eq $UserId) { return $k } }
    $UserId
}

function New-ScheduledTaskAction {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$Execute, [Parameter(Position = 1)][string]$Argument, [string]$WorkingDirectory, [string]$Id)
    New-PlayCim 'MSFT_TaskExecAction' @{ Id = $Id; Execute = $Execute; Arguments = $(if ($Argument) { $Argument } else { $null }); WorkingDirectory = $(if ($WorkingDirectory) { $WorkingDirectory } else { $null }) }
}

function New-ScheduledTaskTrigger {
    [CmdletBinding()]
    param(
        [Parameter(ParameterSetName = 'AtStartup', Mandatory = $true)][switch]$AtStartup,
        [Parameter(ParameterSetName = 'Daily', Mandatory = $true)][switch]$Daily,
        [Parameter(ParameterSetName = 'Daily', Mandatory = $true)][datetime]$At,
        [Parameter(ParameterSetName = 'Daily')][uint32]$DaysInterval = 1,
        [Parameter(ParameterSetName = 'Once', Mandatory = $true)][switch]$Once
    )
    if ($PSCmdlet.ParameterSetName -eq 'AtStartup') { return New-PlayCim 'MSFT_TaskBootTrigger' @{ Enabled = $true; StartBoundary = $null; Delay = $null } }
    if ($PSCmdlet.ParameterSetName -eq 'Once') { throw 'the simulated ScheduledTasks module makes -AtStartup and -Daily triggers only' }
    New-PlayCim 'MSFT_TaskDailyTrigger' @{ Enabled = $true; StartBoundary = $At.ToString('yyyy-MM-ddTHH:mm:ss'); DaysInterval = [int16]$DaysInterval }
}

function New-ScheduledTaskPrincipal {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true)][string]$UserId, [ValidateSet('None', 'Password', 'S4U', 'Interactive', 'Group', 'ServiceAccount', 'InteractiveOrPassword')][string]$LogonType = 'Interactive', [ValidateSet('Limited', 'Highest')][string]$RunLevel = 'Limited')
    New-PlayCim 'MSFT_TaskPrincipal2' @{ Id = 'Author'; UserId = $UserId; LogonType = $LogonType; RunLevel = $RunLevel }
}

function New-ScheduledTaskSettingsSet {
    [CmdletBinding()]
    param([switch]$Disable)
    New-PlayCim 'MSFT_TaskSettings3' @{ Enabled = -not $Disable }
}

function ConvertTo-PlayTaskXml {
    param([string]$Uri, $Action, $Trigger, $Principal, [bool]$Enabled)
    $x = New-Object System.Xml.XmlDocument
    $x.AppendChild($x.CreateXmlDeclaration('1.0', 'UTF-16', $null)) | Out-Null
    $task = $x.AppendChild($x.CreateElement('Task', $script:Ns))
    $task.SetAttribute('version', '1.2')
    $add = { param($parent, [string]$name, [string]$text) $e = $parent.AppendChild($x.CreateElement($name, $script:Ns)); if ($null -ne $text) { $e.InnerText = $text }; $e }
    $info = & $add $task 'RegistrationInfo' $null
    & $add $info 'URI' $Uri | Out-Null
    $triggers = & $add $task 'Triggers' $null
    foreach ($t in @($Trigger | Where-Object { $null -ne $_ })) {
        if ($t.CimClass.CimClassName -eq 'MSFT_TaskBootTrigger') { $b = & $add $triggers 'BootTrigger' $null; & $add $b 'Enabled' 'true' | Out-Null }
        else {
            $c = & $add $triggers 'CalendarTrigger' $null
            & $add $c 'StartBoundary' ([string]$t.StartBoundary) | Out-Null
            $d = & $add $c 'ScheduleByDay' $null
            & $add $d 'DaysInterval' ([string]$t.DaysInterval) | Out-Null
        }
    }
    $principals = & $add $task 'Principals' $null
    $p = & $add $principals 'Principal' $null
    $p.SetAttribute('id', 'Author')
    & $add $p 'UserId' (Resolve-PlayAccount $Principal.UserId) | Out-Null
    & $add $p 'LogonType' ([string]$Principal.LogonType) | Out-Null
    & $add $p 'RunLevel' $(if ($Principal.RunLevel -eq 'Highest') { 'HighestAvailable' } else { 'LeastPrivilege' }) | Out-Null
    $settings = & $add $task 'Settings' $null
    & $add $settings 'Enabled' $(if ($Enabled) { 'true' } else { 'false' }) | Out-Null
    $actions = & $add $task 'Actions' $null
    $actions.SetAttribute('Context', 'Author')
    foreach ($a in @($Action | Where-Object { $null -ne $_ })) {
        $exec = & $add $actions 'Exec' $null
        & $add $exec 'Command' ([string]$a.Execute) | Out-Null
        if ($a.Arguments) { & $add $exec 'Arguments' ([string]$a.Arguments) | Out-Null }
    }
    $x
}

function Read-PlayTaskXml {
    param([string]$File)
    $bytes = [System.Convert]::FromBase64String((Invoke-PlayWindows File.Read @{ path = $File }))
    [xml]([System.Text.Encoding]::Unicode.GetString($bytes).TrimStart([char]0xFEFF))
}

function Write-PlayTaskXml {
    param([string]$File, [xml]$Xml)
    $null = Invoke-PlayWindows Item.New @{ path = (Split-Path -Path $File -Parent); type = 'Directory' }
    $bytes = [System.Text.Encoding]::Unicode.GetPreamble() + [System.Text.Encoding]::Unicode.GetBytes($Xml.OuterXml)
    $null = Invoke-PlayWindows File.Write @{ path = $File; contentBase64 = [System.Convert]::ToBase64String([byte[]]$bytes) }
}

function ConvertFrom-PlayTaskXml {
    param([xml]$Xml, [string]$TaskPath, [string]$TaskName)
    $ns = New-Object System.Xml.XmlNamespaceManager $Xml.NameTable
    $ns.AddNamespace('t', $script:Ns)
    $one = { param([string]$xpath) $n = $Xml.SelectSingleNode($xpath, $ns); if ($null -eq $n) { $null } else { $n.InnerText } }
    $actions = @($Xml.SelectNodes('/t:Task/t:Actions/t:Exec', $ns) | ForEach-Object {
        $arg = $_.SelectSingleNode('t:Arguments', $ns)
        New-PlayCim 'MSFT_TaskExecAction' @{ Id = $null; Execute = $_.SelectSingleNode('t:Command', $ns).InnerText; Arguments = $(if ($arg) { $arg.InnerText } else { $null }); WorkingDirectory = $null }
    })
    $triggers = @($Xml.SelectNodes('/t:Task/t:Triggers/*', $ns) | ForEach-Object {
        if ($_.LocalName -eq 'BootTrigger') { New-PlayCim 'MSFT_TaskBootTrigger' @{ Enabled = $true; StartBoundary = $null; Delay = $null } }
        else { New-PlayCim 'MSFT_TaskDailyTrigger' @{ Enabled = $true; StartBoundary = $_.SelectSingleNode('t:StartBoundary', $ns).InnerText; DaysInterval = [int16]$_.SelectSingleNode('t:ScheduleByDay/t:DaysInterval', $ns).InnerText } }
    })
    $enabled = (& $one '/t:Task/t:Settings/t:Enabled') -ne 'false'
    $runLevel = 'Limited'
    if ((& $one '/t:Task/t:Principals/t:Principal/t:RunLevel') -eq 'HighestAvailable') { $runLevel = 'Highest' }
    $principal = New-PlayCim 'MSFT_TaskPrincipal2' @{ Id = 'Author'; UserId = (Get-PlayAccountName (& $one '/t:Task/t:Principals/t:Principal/t:UserId')); LogonType = (& $one '/t:Task/t:Principals/t:Principal/t:LogonType'); RunLevel = $runLevel }
    New-PlayCim 'MSFT_ScheduledTask' @{
        TaskName = $TaskName; TaskPath = $TaskPath; URI = $TaskPath + $TaskName; Description = $null; Author = $null
        State = $(if ($enabled) { 'Ready' } else { 'Disabled' })
        Actions = $actions; Triggers = $triggers; Principal = $principal
        Settings = (New-PlayCim 'MSFT_TaskSettings3' @{ Enabled = $enabled })
    }
}

function Find-PlayTask {
    param($Cmdlet, [string]$TaskPath, [string]$TaskName, [switch]$Terminating)
    $file = Get-PlayTaskFile $TaskPath $TaskName
    if (-not (Invoke-PlayWindows File.Exists @{ path = $file })) {
        $text = "No MSFT_ScheduledTask objects found with property 'TaskName' equal to '{0}'.  Verify the value of the property and retry." -f $TaskName
        if ($Terminating) { Stop-PlayTask $Cmdlet $text 'CmdletizationQuery_NotFound_TaskName' 'ObjectNotFound' $TaskName }
        Write-PlayTaskError $Cmdlet $text 'CmdletizationQuery_NotFound_TaskName,Get-ScheduledTask' 'ObjectNotFound' $TaskName
        return $null
    }
    ConvertFrom-PlayTaskXml (Read-PlayTaskXml $file) $TaskPath $TaskName
}

function Get-ScheduledTask {
    [CmdletBinding()]
    param([Parameter(Position = 0, Mandatory = $true)][string]$TaskName, [Parameter(Position = 1)][string]$TaskPath = '\')
    begin { if (-not $PSBoundParameters.ContainsKey('ErrorAction')) { $ErrorActionPreference = $PSCmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference') } }
    process { Find-PlayTask $PSCmdlet $TaskPath $TaskName }
}

function Assert-PlayPrincipal {
    param($Cmdlet, $Principal)
    if ($null -ne $Principal -and $null -eq (Resolve-PlayAccount $Principal.UserId)) {
        Stop-PlayTask $Cmdlet 'No mapping between account names and security IDs was done.' 'HRESULT 0x80070534' 'NotSpecified' $Principal.UserId
    }
}

function Register-ScheduledTask {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$TaskName, [Parameter(Position = 1)][string]$TaskPath = '\',
        [Parameter(Mandatory = $true)]$Action, $Trigger, $Principal, [string]$User, $Settings, [switch]$Force)
    if ($null -eq $Principal) { $Principal = New-ScheduledTaskPrincipal -UserId $(if ($User) { $User } else { 'Administrator' }) -LogonType Interactive }
    Assert-PlayPrincipal $PSCmdlet $Principal
    $file = Get-PlayTaskFile $TaskPath $TaskName
    if (-not $Force -and (Invoke-PlayWindows File.Exists @{ path = $file })) {
        Stop-PlayTask $PSCmdlet 'Cannot create a file when that file already exists.' 'HRESULT 0x800700b7,Register-ScheduledTask' 'ResourceExists' $TaskName
    }
    $enabled = $true
    if ($null -ne $Settings) { $enabled = [bool]$Settings.Enabled }
    Write-PlayTaskXml $file (ConvertTo-PlayTaskXml ($TaskPath + $TaskName) $Action $Trigger $Principal $enabled)
    Find-PlayTask $PSCmdlet $TaskPath $TaskName
}

function Set-ScheduledTask {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$TaskName, [Parameter(Position = 1)][string]$TaskPath = '\', $Action, $Trigger, $Principal, $Settings)
    $task = Find-PlayTask $PSCmdlet $TaskPath $TaskName -Terminating
    Assert-PlayPrincipal $PSCmdlet $Principal
    if ($null -eq $Action) { $Action = $task.Actions }
    if ($null -eq $Trigger) { $Trigger = $task.Triggers }
    if ($null -eq $Principal) { $Principal = $task.Principal }
    $enabled = [bool]$task.Settings.Enabled
    if ($null -ne $Settings) { $enabled = [bool]$Settings.Enabled }
    Write-PlayTaskXml (Get-PlayTaskFile $TaskPath $TaskName) (ConvertTo-PlayTaskXml ($TaskPath + $TaskName) $Action $Trigger $Principal $enabled)
    Find-PlayTask $PSCmdlet $TaskPath $TaskName
}

function Set-PlayTaskEnabled {
    param($Cmdlet, [string]$TaskPath, [string]$TaskName, [bool]$Enabled)
    $task = Find-PlayTask $Cmdlet $TaskPath $TaskName -Terminating
    $settings = New-ScheduledTaskSettingsSet -Disable:(-not $Enabled)
    Set-ScheduledTask -TaskName $TaskName -TaskPath $TaskPath -Action $task.Actions -Trigger $task.Triggers -Principal $task.Principal -Settings $settings
}

function Enable-ScheduledTask {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$TaskName, [Parameter(Position = 1)][string]$TaskPath = '\')
    Set-PlayTaskEnabled $PSCmdlet $TaskPath $TaskName $true
}

function Disable-ScheduledTask {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, Position = 0)][string]$TaskName, [Parameter(Position = 1)][string]$TaskPath = '\')
    Set-PlayTaskEnabled $PSCmdlet $TaskPath $TaskName $false
}

function Unregister-ScheduledTask {
    [CmdletBinding(SupportsShouldProcess = $true, ConfirmImpact = 'High')]
    param([Parameter(Mandatory = $true, Position = 0)][string]$TaskName, [Parameter(Position = 1)][string]$TaskPath = '\')
    $null = Find-PlayTask $PSCmdlet $TaskPath $TaskName -Terminating
    if ($PSCmdlet.ShouldProcess($TaskPath + $TaskName)) { $null = Invoke-PlayWindows File.Delete @{ path = (Get-PlayTaskFile $TaskPath $TaskName) } }
}

Export-ModuleMember -Function New-ScheduledTaskAction, New-ScheduledTaskTrigger, New-ScheduledTaskPrincipal, New-ScheduledTaskSettingsSet,
    Get-ScheduledTask, Register-ScheduledTask, Set-ScheduledTask, Enable-ScheduledTask, Disable-ScheduledTask, Unregister-ScheduledTask
