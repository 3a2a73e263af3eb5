# Windows Firewall on the simulated node: the NetSecurity module's Get-NetFirewallRule,
# Get-NetFirewallPortFilter, New-NetFirewallRule and Set-NetFirewallRule. Rules are CIM instances of
# MSFT_NetFirewallRule in 5.1, with Enabled, Direction and Action as enums (Enabled's names are the
# strings 'True' and 'False', not booleans). The rules live in the node's model (surface/firewall.ts).

enum Enabled { True = 1; False = 2 }
enum Direction { Inbound = 1; Outbound = 2 }
enum Action { NotConfigured = 0; Allow = 2; Block = 4 }

function ConvertTo-PlayFirewallRule {
    param($Record)
    $enabled = [Enabled]::False
    if ($Record.enabled) { $enabled = [Enabled]::True }
    $o = [pscustomobject]@{
        Name = [string]$Record.name
        ID = [string]$Record.name
        DisplayName = [string]$Record.displayName
        Description = ''
        DisplayGroup = $null
        Group = $null
        Enabled = $enabled
        Profile = 'Any'
        Platform = @()
        Direction = [Direction][string]$Record.direction
        Action = [Action][string]$Record.action
        EdgeTraversalPolicy = 'Block'
        LooseSourceMapping = $false
        LocalOnlyMapping = $false
        Owner = $null
        PrimaryStatus = 'OK'
        Status = 'The rule was parsed successfully from the store. (65536)'
        EnforcementStatus = 'NotApplicable'
        PolicyStoreSource = 'PersistentStore'
        PolicyStoreSourceType = 'Local'
    }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetFirewallRule')
    return $o
}

function Write-PlayRuleNotFound {
    param($Cmdlet, [string]$Name, [string]$Verb)
    $e = New-Object System.Management.Automation.ErrorRecord (
        (New-Object System.Exception ("No MSFT_NetFirewallRule objects found with property 'Name' equal to '{0}'.  Verify the value of the property and retry." -f $Name)),
        ('CmdletizationQuery_NotFound_Name,{0}-NetFirewallRule' -f $Verb), 'ObjectNotFound', $Name)
    $Cmdlet.WriteError($e)
}

function Find-PlayRules {
    param([string]$Name)
    @(Invoke-PlayWindows Firewall.List) | Where-Object { $_.name -like $Name }
}

function Get-NetFirewallRule {
    [CmdletBinding()]
    param([Parameter(Position = 0)][Alias('ID')][string[]]$Name = '*', [string[]]$DisplayName)
    foreach ($n in $Name) {
        $found = @(Find-PlayRules $n)
        if ($DisplayName) { $found = @($found | Where-Object { $r = $_; @($DisplayName | Where-Object { $r.displayName -like $_ }).Count -gt 0 }) }
        if ($found.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($n)) {
            Write-PlayRuleNotFound $PSCmdlet $n 'Get'
            continue
        }
        foreach ($r in $found) { ConvertTo-PlayFirewallRule $r }
    }
}

function Get-NetFirewallPortFilter {
    [CmdletBinding()]
    param([Parameter(Mandatory = $true, ValueFromPipeline = $true)]$AssociatedNetFirewallRule)
    process {
        foreach ($rule in @($AssociatedNetFirewallRule)) {
            $r = Find-PlayRules ([string]$rule.Name) | Select-Object -First 1
            if ($null -eq $r) { continue }
            $ports = @(([string]$r.localPort) -split ',')
            $o = [pscustomobject]@{
                Protocol = [string]$r.protocol
                LocalPort = $ports
                RemotePort = 'Any'
                IcmpType = 'Any'
                DynamicTarget = 'Any'
            }
            $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#root/standardcimv2/MSFT_NetProtocolPortFilter')
            $o
        }
    }
}

function Invoke-PlayFirewallChange {
    param($Cmdlet, [string]$Op, [hashtable]$Arguments, [string]$ErrorId)
    try {
        Invoke-PlayWindows $Op $Arguments
    } catch {
        $e = New-Object System.Management.Automation.ErrorRecord (
            (New-Object System.Exception $_.Exception.Message), $ErrorId, 'InvalidArgument', $null)
        $Cmdlet.ThrowTerminatingError($e)
    }
}

function New-NetFirewallRule {
    [CmdletBinding()]
    param(
        [string]$Name = ([guid]::NewGuid().ToString('B')),
        [Parameter(Mandatory = $true)][string]$DisplayName,
        [Enabled]$Enabled = [Enabled]::True,
        [Direction]$Direction = [Direction]::Inbound,
        [string]$Protocol = 'Any',
        [string[]]$LocalPort = @('Any'),
        [Action]$Action = [Action]::Allow,
        [string]$Description,
        [string]$Group,
        [string[]]$Profile
    )
    $r = Invoke-PlayFirewallChange $PSCmdlet Firewall.New @{
        name = $Name
        displayName = $DisplayName
        enabled = ($Enabled -eq [Enabled]::True)
        direction = [string]$Direction
        protocol = $Protocol
        localPort = @($LocalPort)
        action = [string]$Action
    } 'Windows System Error 183,New-NetFirewallRule'
    ConvertTo-PlayFirewallRule $r
}

function Set-NetFirewallRule {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)][Alias('ID')][string[]]$Name,
        [string]$NewDisplayName,
        [Enabled]$Enabled,
        [Direction]$Direction,
        [string]$Protocol,
        [string[]]$LocalPort,
        [Action]$Action,
        [switch]$PassThru
    )
    foreach ($n in $Name) {
        $found = @(Find-PlayRules $n)
        if ($found.Count -eq 0) {
            Write-PlayRuleNotFound $PSCmdlet $n 'Set'
            continue
        }
        foreach ($rule in $found) {
            $change = @{ name = [string]$rule.name }
            if ($PSBoundParameters.ContainsKey('NewDisplayName')) { $change.displayName = $NewDisplayName }
            if ($PSBoundParameters.ContainsKey('Enabled')) { $change.enabled = ($Enabled -eq [Enabled]::True) }
            if ($PSBoundParameters.ContainsKey('Direction')) { $change.direction = [string]$Direction }
            if ($PSBoundParameters.ContainsKey('Protocol')) { $change.protocol = $Protocol }
            if ($PSBoundParameters.ContainsKey('LocalPort')) { $change.localPort = @($LocalPort) }
            if ($PSBoundParameters.ContainsKey('Action')) { $change.action = [string]$Action }
            $r = Invoke-PlayFirewallChange $PSCmdlet Firewall.Set $change 'HRESULT 0x80070057,Set-NetFirewallRule'
            if ($PassThru) { ConvertTo-PlayFirewallRule $r }
        }
    }
}

Export-ModuleMember -Function Get-NetFirewallRule, Get-NetFirewallPortFilter, New-NetFirewallRule, Set-NetFirewallRule
