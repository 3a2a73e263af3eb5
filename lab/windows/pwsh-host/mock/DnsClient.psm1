# The DNS client's global settings on the simulated node: Get-DnsClientGlobalSetting and
# Set-DnsClientGlobalSetting -SuffixSearchList (the DnsClient module's CIM cmdlets), answered by
# the node's model (lab/windows/surface/dns-client.ts). The object is shaped as the CIM instance
# MSFT_DNSClientGlobalSetting is: SuffixSearchList a string[], DevolutionLevel a UInt32.

function Get-DnsClientGlobalSetting {
    [CmdletBinding()]
    param()
    $g = Invoke-PlayWindows DnsClient.GetGlobal
    $o = [pscustomobject]@{
        SuffixSearchList = [string[]]@($g.suffixSearchList | ForEach-Object { [string]$_ })
        UseDevolution = [bool]$g.useDevolution
        DevolutionLevel = [uint32]$g.devolutionLevel
    }
    $o.PSObject.TypeNames.Insert(0, 'Microsoft.Management.Infrastructure.CimInstance#ROOT/StandardCimv2/MSFT_DNSClientGlobalSetting')
    $o
}

function Set-DnsClientGlobalSetting {
    [CmdletBinding()]
    param([AllowEmptyCollection()][string[]]$SuffixSearchList, [bool]$UseDevolution, [uint32]$DevolutionLevel, [switch]$PassThru)
    if ($PSBoundParameters.ContainsKey('UseDevolution') -or $PSBoundParameters.ContainsKey('DevolutionLevel')) {
        throw 'the simulated node models Set-DnsClientGlobalSetting -SuffixSearchList only'
    }
    if ($PSBoundParameters.ContainsKey('SuffixSearchList')) {
        $null = Invoke-PlayWindows DnsClient.SetGlobal @{ suffixSearchList = @($SuffixSearchList | Where-Object { $null -ne $_ }) }
    }
    if ($PassThru) { Get-DnsClientGlobalSetting }
}

Export-ModuleMember -Function Get-DnsClientGlobalSetting, Set-DnsClientGlobalSetting
