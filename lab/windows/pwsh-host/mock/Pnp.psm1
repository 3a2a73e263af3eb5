# Plug and Play devices on the simulated node: Get-PnpDevice (module PnpDevice) over the node's
# network devices (lab/windows/surface/network.ts, op Pnp.Devices), the only class the model holds.
# Objects are Win32_PnPEntity instances as 5.1 shows them: Status a string ('OK'; 'Error' for a
# ghost of a removed virtual adapter, docs/field-notes.md#a-network-clean-up-and-nics), Class 'Net'.
# Selection and its errors as the other CIM cmdlets (mock/CimQuery.psm1). Removing a device is
# removing its key under HKLM\SYSTEM\CurrentControlSet\Enum (the registry mock).

function ConvertTo-PlayPnpEntity {
    param($Record)
    New-PlayCimObject 'Win32_PnPEntity' ([ordered]@{
        Class = [string]$Record.class
        FriendlyName = [string]$Record.friendlyName
        InstanceId = [string]$Record.instanceId
        Status = [string]$Record.status
        Present = [bool]$Record.present
        ClassGuid = '{4d36e972-e325-11ce-bfc1-08002be10318}'
        Manufacturer = 'Microsoft'
        Name = [string]$Record.friendlyName
        DeviceID = [string]$Record.instanceId
        PNPClass = [string]$Record.class
    }) 'ROOT/cimv2'
}

function Get-PnpDevice {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)][Alias('DeviceID')][string[]]$InstanceId,
        [string[]]$Class,
        [string[]]$FriendlyName,
        [ValidateSet('OK', 'ERROR', 'DEGRADED', 'UNKNOWN')][string[]]$Status,
        [switch]$PresentOnly
    )
    $all = @(Invoke-PlayWindows Pnp.Devices) | ForEach-Object { ConvertTo-PlayPnpEntity $_ }
    if ($PresentOnly) { $all = @($all | Where-Object { $_.Present }) }
    $filters = [ordered]@{ InstanceId = $InstanceId; Class = $Class; FriendlyName = $FriendlyName; Status = $Status }
    Select-PlayCim $PSCmdlet 'Win32_PnPEntity' @($all) $filters @('InstanceId', 'Class', 'FriendlyName')
}

Export-ModuleMember -Function Get-PnpDevice
