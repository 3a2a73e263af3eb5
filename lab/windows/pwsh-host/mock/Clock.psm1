# The node's clock: Get-Date and Start-Sleep read and move the host's clock (PlayPwshHost.Clock), which
# is real time, or a virtual one that a sleep advances at once, so our functions' 60-second wait loops
# cost nothing in the tests. Both hand everything else to PowerShell's own Get-Date; Start-Sleep takes
# -Seconds as an int, as 5.1 does (7 takes a double: 5.1 rounds 1.5 to 2).

$script:GetDate = $ExecutionContext.InvokeCommand.GetCmdlet('Get-Date')

function Get-Date {
    [CmdletBinding(DefaultParameterSetName = 'net')]
    param(
        [Parameter(Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][Alias('LastWriteTime')][datetime]$Date,
        [int]$Year, [int]$Month, [int]$Day, [int]$Hour, [int]$Minute, [int]$Second, [int]$Millisecond,
        [Microsoft.PowerShell.Commands.DisplayHintType]$DisplayHint,
        [Parameter(ParameterSetName = 'net')][string]$Format,
        [Parameter(ParameterSetName = 'UFormat')][string]$UFormat
    )
    process {
        if (-not $PSBoundParameters.ContainsKey('Date')) { $PSBoundParameters['Date'] = [PlayPwshHost.Clock]::Now }
        & $script:GetDate @PSBoundParameters
    }
}

function Start-Sleep {
    [CmdletBinding(DefaultParameterSetName = 'Seconds')]
    param(
        [Parameter(ParameterSetName = 'Seconds', Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][int]$Seconds,
        [Parameter(ParameterSetName = 'Milliseconds', Mandatory = $true, ValueFromPipelineByPropertyName = $true)][Alias('ms')][int]$Milliseconds
    )
    process {
        if ($PSCmdlet.ParameterSetName -eq 'Seconds') { [PlayPwshHost.Clock]::Sleep([timespan]::FromSeconds($Seconds)) }
        else { [PlayPwshHost.Clock]::Sleep([timespan]::FromMilliseconds($Milliseconds)) }
    }
}

Export-ModuleMember -Function Get-Date, Start-Sleep
