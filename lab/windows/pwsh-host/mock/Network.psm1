# Network adapters, IPv4 interfaces, addresses, routes and DNS servers on the simulated node:
# the NetAdapter, NetTCPIP and DnsClient cmdlets our programs call, answered from the node's model
# (lab/windows/surface/network.ts) through Invoke-PlayWindows. They shape objects as Windows
# PowerShell 5.1's CIM cmdlets do: enums where 5.1 has its generated enum types (so [string] gives
# 'Enabled' and ConvertTo-Json a number), PrefixLength a Byte, indexes UInt32; and they select
# objects as cmdletization does: a value without wildcards that matches nothing is a non-terminating
# ObjectNotFound error (mock/CimQuery.psm1), which -ErrorAction SilentlyContinue silences. Only
# IPv4 is modelled.

enum NetAddressFamily { IPv4 = 2; IPv6 = 23 }
enum NetIPInterfaceDhcp { Disabled = 0; Enabled = 1 }
enum NetIPInterfaceForwarding { Disabled = 0; Enabled = 1 }
enum NetConnectionState { Disconnected = 0; Connected = 1 }
enum NetIPAddressPrefixOrigin { Other = 0; Manual = 1; WellKnown = 2; Dhcp = 3; RouterAdvertisement = 4 }
enum NetIPAddressSuffixOrigin { Other = 0; Manual = 1; WellKnown = 2; Dhcp = 3; Link = 4; Random = 5 }
enum NetIPAddressState { Invalid = 0; Tentative = 1; Duplicate = 2; Deprecated = 3; Preferred = 4 }

# --- NetAdapter ----------------------------------------------------------------------------------

function ConvertTo-PlayNetAdapter {
    param($Record)
    New-PlayCimObject 'MSFT_NetAdapter' ([ordered]@{
        Name = [string]$Record.name
        InterfaceAlias = [string]$Record.name
        ifAlias = [string]$Record.name
        InterfaceDescription = [string]$Record.interfaceDescription
        ifDesc = [string]$Record.interfaceDescription
        InterfaceIndex = [uint32]$Record.interfaceIndex
        ifIndex = [uint32]$Record.interfaceIndex
        Status = 'Up'
        MacAddress = [string]$Record.macAddress
        LinkSpeed = '10 Gbps'
        MediaConnectionState = 'Connected'
        Virtual = -not [bool]$Record.physical
        HardwareInterface = [bool]$Record.physical
        ConnectorPresent = [bool]$Record.physical
    })
}

function Get-NetAdapter {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)][Alias('ifAlias', 'InterfaceAlias')][string[]]$Name,
        [Alias('ifDesc')][string[]]$InterfaceDescription,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [switch]$Physical,
        [switch]$IncludeHidden
    )
    $all = @(Invoke-PlayWindows Net.Adapters) | Where-Object { -not $Physical -or $_.physical } | ForEach-Object { ConvertTo-PlayNetAdapter $_ }
    $filters = [ordered]@{ Name = $Name; InterfaceDescription = $InterfaceDescription; InterfaceIndex = $InterfaceIndex }
    Select-PlayCim $PSCmdlet 'MSFT_NetAdapter' @($all) $filters @('Name', 'InterfaceDescription', 'InterfaceIndex')
}

function Rename-NetAdapter {
    [CmdletBinding(SupportsShouldProcess = $true)]
    param([Parameter(Mandatory = $true, Position = 0)][Alias('ifAlias', 'InterfaceAlias')][string[]]$Name, [Parameter(Mandatory = $true, Position = 1)][string]$NewName, [switch]$PassThru)
    $all = @(Invoke-PlayWindows Net.Adapters) | ForEach-Object { ConvertTo-PlayNetAdapter $_ }
    foreach ($nic in @(Select-PlayCim $PSCmdlet 'MSFT_NetAdapter' @($all) ([ordered]@{ Name = $Name }) @('Name'))) {
        if (-not $PSCmdlet.ShouldProcess($nic.Name, 'Rename')) { continue }
        try {
            $null = Invoke-PlayWindows Net.Rename @{ name = $nic.Name; newName = $NewName }
        } catch {
            Write-PlayRefusal $PSCmdlet $_ $nic.Name
            continue
        }
        if ($PassThru) { Get-NetAdapter -Name $NewName }
    }
}

# --- NetIPInterface ------------------------------------------------------------------------------

function ConvertTo-PlayNetIPInterface {
    param($Record)
    New-PlayCimObject 'MSFT_NetIPInterface' ([ordered]@{
        ifIndex = [uint32]$Record.interfaceIndex
        InterfaceIndex = [uint32]$Record.interfaceIndex
        ifAlias = [string]$Record.interfaceAlias
        InterfaceAlias = [string]$Record.interfaceAlias
        AddressFamily = [NetAddressFamily]::IPv4
        Dhcp = [NetIPInterfaceDhcp]([int][bool]$Record.dhcp)
        Forwarding = [NetIPInterfaceForwarding]([int][bool]$Record.forwarding)
        ConnectionState = [NetConnectionState]::Connected
        NlMtu = [uint32]1500
        InterfaceMetric = [uint32]15
        CompartmentId = [uint32]1
        PolicyStore = 'ActiveStore'
    })
}

function Get-NetIPInterface {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)][Alias('ifAlias')][string[]]$InterfaceAlias,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [ValidateSet('IPv4', 'IPv6')][string[]]$AddressFamily,
        [switch]$IncludeAllCompartments
    )
    $all = @(Invoke-PlayWindows Net.IpInterfaces) | ForEach-Object { ConvertTo-PlayNetIPInterface $_ }
    $filters = [ordered]@{ InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias; AddressFamily = $AddressFamily }
    Select-PlayCim $PSCmdlet 'MSFT_NetIPInterface' @($all) $filters @('InterfaceIndex', 'InterfaceAlias')
}

function Set-NetIPInterface {
    [CmdletBinding(SupportsShouldProcess = $true)]
    param(
        [Parameter(Position = 0)][Alias('ifAlias')][string[]]$InterfaceAlias,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [ValidateSet('IPv4', 'IPv6')][string[]]$AddressFamily,
        [Parameter(ValueFromPipeline = $true)][psobject[]]$InputObject,
        [ValidateSet('Enabled', 'Disabled')][string]$Dhcp,
        [ValidateSet('Enabled', 'Disabled')][string]$Forwarding,
        [switch]$PassThru
    )
    process {
        $targets = $InputObject
        if ($null -eq $targets) {
            $all = @(Invoke-PlayWindows Net.IpInterfaces) | ForEach-Object { ConvertTo-PlayNetIPInterface $_ }
            $filters = [ordered]@{ InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias; AddressFamily = $AddressFamily }
            $targets = Select-PlayCim $PSCmdlet 'MSFT_NetIPInterface' @($all) $filters @('InterfaceIndex', 'InterfaceAlias')
        }
        foreach ($t in @($targets)) {
            if (-not $PSCmdlet.ShouldProcess($t.InterfaceAlias, 'Set')) { continue }
            $change = @{ interfaceIndex = [int]$t.InterfaceIndex }
            if ($Dhcp) { $change.dhcp = $Dhcp }
            if ($Forwarding) { $change.forwarding = $Forwarding }
            $null = Invoke-PlayWindows Net.SetIpInterface $change
            if ($PassThru) { Get-NetIPInterface -InterfaceIndex $t.InterfaceIndex }
        }
    }
}

# --- NetIPAddress --------------------------------------------------------------------------------

function ConvertTo-PlayNetIPAddress {
    param($Record, [string]$Store = 'ActiveStore')
    New-PlayCimObject 'MSFT_NetIPAddress' ([ordered]@{
        IPAddress = [string]$Record.ipAddress
        InterfaceIndex = [uint32]$Record.interfaceIndex
        ifIndex = [uint32]$Record.interfaceIndex
        InterfaceAlias = [string]$Record.interfaceAlias
        AddressFamily = [NetAddressFamily]::IPv4
        Type = 'Unicast'
        PrefixLength = [byte]$Record.prefixLength
        PrefixOrigin = [NetIPAddressPrefixOrigin][string]$Record.prefixOrigin
        SuffixOrigin = [NetIPAddressSuffixOrigin][string]$Record.suffixOrigin
        AddressState = [NetIPAddressState]::Preferred
        ValidLifetime = [TimeSpan]::MaxValue
        PreferredLifetime = [TimeSpan]::MaxValue
        SkipAsSource = $false
        PolicyStore = $Store
    })
}

function Get-NetIPAddress {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)][string[]]$IPAddress,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [Alias('ifAlias')][string[]]$InterfaceAlias,
        [ValidateSet('IPv4', 'IPv6')][string[]]$AddressFamily,
        [string[]]$PrefixOrigin
    )
    $all = @(Invoke-PlayWindows Net.IpAddresses) | ForEach-Object { ConvertTo-PlayNetIPAddress $_ }
    $filters = [ordered]@{ IPAddress = $IPAddress; InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias; AddressFamily = $AddressFamily; PrefixOrigin = $PrefixOrigin }
    Select-PlayCim $PSCmdlet 'MSFT_NetIPAddress' @($all) $filters @('IPAddress', 'InterfaceIndex', 'InterfaceAlias')
}

# The interface a New-* cmdlet names; an unknown one is ERROR_NOT_FOUND from the IP helper API.
function Resolve-PlayInterface {
    param($Cmdlet, $InterfaceIndex, [string]$InterfaceAlias)
    $all = @(Invoke-PlayWindows Net.IpInterfaces)
    if ($null -ne $InterfaceIndex) { $found = $all | Where-Object { $_.interfaceIndex -eq $InterfaceIndex } | Select-Object -First 1 }
    else { $found = $all | Where-Object { $_.interfaceAlias -eq $InterfaceAlias } | Select-Object -First 1 }
    if ($null -eq $found) {
        $Cmdlet.ThrowTerminatingError((New-PlayCimErrorRecord 'Element not found.' 'Windows System Error 1168' 'ObjectNotFound' $null))
    }
    return $found
}

function New-NetIPAddress {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)][string]$IPAddress,
        [Alias('ifIndex')][uint32]$InterfaceIndex,
        [Alias('ifAlias')][string]$InterfaceAlias,
        [ValidateSet('IPv4', 'IPv6')][string]$AddressFamily,
        [byte]$PrefixLength,
        [string]$DefaultGateway,
        [ValidateSet('Unicast', 'Anycast')][string]$Type = 'Unicast',
        [bool]$SkipAsSource
    )
    $index = $null
    if ($PSBoundParameters.ContainsKey('InterfaceIndex')) { $index = $InterfaceIndex }
    $ipIf = Resolve-PlayInterface $PSCmdlet $index $InterfaceAlias
    if (-not $PSBoundParameters.ContainsKey('PrefixLength')) { throw 'the simulated New-NetIPAddress needs -PrefixLength (lab/windows/pwsh-host/mock/Network.psm1)' }
    try {
        $null = Invoke-PlayWindows Net.AddIpAddress @{ interfaceIndex = [int]$ipIf.interfaceIndex; ipAddress = $IPAddress; prefixLength = [int]$PrefixLength }
    } catch {
        Write-PlayRefusal $PSCmdlet $_ $IPAddress
        return
    }
    $address = @(Invoke-PlayWindows Net.IpAddresses) | Where-Object { $_.ipAddress -eq $IPAddress } | Select-Object -First 1
    # Written to the active and the persistent store: two objects, as 5.1 shows.
    ConvertTo-PlayNetIPAddress $address 'ActiveStore'
    ConvertTo-PlayNetIPAddress $address 'PersistentStore'
    if ($DefaultGateway) { New-NetRoute -InterfaceIndex $ipIf.interfaceIndex -DestinationPrefix '0.0.0.0/0' -NextHop $DefaultGateway }
}

function Remove-NetIPAddress {
    [CmdletBinding(SupportsShouldProcess = $true, ConfirmImpact = 'High')]
    param(
        [Parameter(Position = 0)][string[]]$IPAddress,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [Alias('ifAlias')][string[]]$InterfaceAlias,
        [ValidateSet('IPv4', 'IPv6')][string[]]$AddressFamily,
        [Parameter(ValueFromPipeline = $true)][psobject[]]$InputObject,
        [switch]$PassThru
    )
    process {
        $targets = $InputObject
        if ($null -eq $targets) {
            $filters = [ordered]@{ IPAddress = $IPAddress; InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias; AddressFamily = $AddressFamily }
            $all = @(Invoke-PlayWindows Net.IpAddresses) | ForEach-Object { ConvertTo-PlayNetIPAddress $_ }
            $targets = Select-PlayCim $PSCmdlet 'MSFT_NetIPAddress' @($all) $filters @('IPAddress', 'InterfaceIndex', 'InterfaceAlias')
        }
        foreach ($t in @($targets)) {
            if (-not $PSCmdlet.ShouldProcess(('{0}/{1}' -f $t.IPAddress, $t.PrefixLength), 'Delete')) { continue }
            $null = Invoke-PlayWindows Net.RemoveIpAddress @{ interfaceIndex = [int]$t.InterfaceIndex; ipAddress = [string]$t.IPAddress }
            if ($PassThru) { $t }
        }
    }
}

# --- NetRoute ------------------------------------------------------------------------------------

function ConvertTo-PlayNetRoute {
    param($Record, [string]$Store = 'ActiveStore')
    New-PlayCimObject 'MSFT_NetRoute' ([ordered]@{
        DestinationPrefix = [string]$Record.destinationPrefix
        NextHop = [string]$Record.nextHop
        InterfaceIndex = [uint32]$Record.interfaceIndex
        ifIndex = [uint32]$Record.interfaceIndex
        InterfaceAlias = [string]$Record.interfaceAlias
        AddressFamily = [NetAddressFamily]::IPv4
        RouteMetric = [uint16]256
        Protocol = 'NetMgmt'
        Store = $Store
    })
}

function Get-NetRoute {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)][string[]]$DestinationPrefix,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [Alias('ifAlias')][string[]]$InterfaceAlias,
        [string[]]$NextHop,
        [ValidateSet('IPv4', 'IPv6')][string[]]$AddressFamily
    )
    $all = @(Invoke-PlayWindows Net.Routes) | ForEach-Object { ConvertTo-PlayNetRoute $_ }
    $filters = [ordered]@{ DestinationPrefix = $DestinationPrefix; InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias; NextHop = $NextHop; AddressFamily = $AddressFamily }
    Select-PlayCim $PSCmdlet 'MSFT_NetRoute' @($all) $filters @('DestinationPrefix', 'InterfaceIndex', 'InterfaceAlias', 'NextHop')
}

function New-NetRoute {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)][string]$DestinationPrefix,
        [Alias('ifIndex')][uint32]$InterfaceIndex,
        [Alias('ifAlias')][string]$InterfaceAlias,
        [string]$NextHop = '0.0.0.0',
        [uint16]$RouteMetric,
        [string]$PolicyStore
    )
    $index = $null
    if ($PSBoundParameters.ContainsKey('InterfaceIndex')) { $index = $InterfaceIndex }
    $ipIf = Resolve-PlayInterface $PSCmdlet $index $InterfaceAlias
    try {
        $null = Invoke-PlayWindows Net.AddRoute @{ interfaceIndex = [int]$ipIf.interfaceIndex; destinationPrefix = $DestinationPrefix; nextHop = $NextHop }
    } catch {
        Write-PlayRefusal $PSCmdlet $_ $DestinationPrefix
        return
    }
    $route = [ordered]@{ interfaceIndex = $ipIf.interfaceIndex; interfaceAlias = $ipIf.interfaceAlias; destinationPrefix = $DestinationPrefix; nextHop = $NextHop }
    ConvertTo-PlayNetRoute $route 'ActiveStore'
    ConvertTo-PlayNetRoute $route 'PersistentStore'
}

function Remove-NetRoute {
    [CmdletBinding(SupportsShouldProcess = $true, ConfirmImpact = 'High')]
    param(
        [Parameter(Position = 0)][string[]]$DestinationPrefix,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [Alias('ifAlias')][string[]]$InterfaceAlias,
        [string[]]$NextHop,
        [Parameter(ValueFromPipeline = $true)][psobject[]]$InputObject,
        [switch]$PassThru
    )
    process {
        $targets = $InputObject
        if ($null -eq $targets) {
            $all = @(Invoke-PlayWindows Net.Routes) | ForEach-Object { ConvertTo-PlayNetRoute $_ }
            $filters = [ordered]@{ DestinationPrefix = $DestinationPrefix; InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias; NextHop = $NextHop }
            $targets = Select-PlayCim $PSCmdlet 'MSFT_NetRoute' @($all) $filters @('DestinationPrefix', 'InterfaceIndex', 'InterfaceAlias', 'NextHop')
        }
        foreach ($t in @($targets)) {
            if (-not $PSCmdlet.ShouldProcess(('{0} -> {1}' -f $t.DestinationPrefix, $t.NextHop), 'Delete')) { continue }
            $null = Invoke-PlayWindows Net.RemoveRoute @{ interfaceIndex = [int]$t.InterfaceIndex; destinationPrefix = [string]$t.DestinationPrefix; nextHop = [string]$t.NextHop }
            if ($PassThru) { $t }
        }
    }
}

# --- DnsClient -----------------------------------------------------------------------------------

function ConvertTo-PlayDnsServerAddress {
    param($Record)
    New-PlayCimObject 'MSFT_DNSClientServerAddress' ([ordered]@{
        InterfaceAlias = [string]$Record.interfaceAlias
        InterfaceIndex = [uint32]$Record.interfaceIndex
        # A UInt16 here (2: IPv4), shown as IPv4 by the format file.
        AddressFamily = [uint16]2
        ServerAddresses = [string[]]@($Record.serverAddresses)
    })
}

function Get-DnsClientServerAddress {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0)][Alias('ifAlias')][string[]]$InterfaceAlias,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [ValidateSet('IPv4', 'IPv6')][string[]]$AddressFamily
    )
    $all = @()
    if ($null -eq $AddressFamily -or $AddressFamily -contains 'IPv4') {
        $all = @(Invoke-PlayWindows Net.DnsServers) | ForEach-Object { ConvertTo-PlayDnsServerAddress $_ }
    }
    $filters = [ordered]@{ InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias }
    Select-PlayCim $PSCmdlet 'MSFT_DNSClientServerAddress' @($all) $filters @('InterfaceIndex', 'InterfaceAlias')
}

function Set-DnsClientServerAddress {
    [CmdletBinding(SupportsShouldProcess = $true)]
    param(
        [Parameter(Position = 0)][Alias('ifAlias')][string[]]$InterfaceAlias,
        [Alias('ifIndex')][uint32[]]$InterfaceIndex,
        [string[]]$ServerAddresses,
        [switch]$ResetServerAddresses,
        [switch]$Validate,
        [switch]$PassThru
    )
    $all = @(Invoke-PlayWindows Net.DnsServers) | ForEach-Object { ConvertTo-PlayDnsServerAddress $_ }
    $filters = [ordered]@{ InterfaceIndex = $InterfaceIndex; InterfaceAlias = $InterfaceAlias }
    foreach ($t in @(Select-PlayCim $PSCmdlet 'MSFT_DNSClientServerAddress' @($all) $filters @('InterfaceIndex', 'InterfaceAlias'))) {
        if (-not $PSCmdlet.ShouldProcess($t.InterfaceAlias, 'Set')) { continue }
        $list = @()
        if (-not $ResetServerAddresses) { $list = @($ServerAddresses | ForEach-Object { [string]$_ }) }
        $null = Invoke-PlayWindows Net.SetDnsServers @{ interfaceIndex = [int]$t.InterfaceIndex; serverAddresses = $list }
        if ($PassThru) { Get-DnsClientServerAddress -InterfaceIndex $t.InterfaceIndex -AddressFamily IPv4 }
    }
}

Export-ModuleMember -Function Get-NetAdapter, Rename-NetAdapter, Get-NetIPInterface, Set-NetIPInterface, Get-NetIPAddress,
    New-NetIPAddress, Remove-NetIPAddress, Get-NetRoute, New-NetRoute, Remove-NetRoute, Get-DnsClientServerAddress,
    Set-DnsClientServerAddress
