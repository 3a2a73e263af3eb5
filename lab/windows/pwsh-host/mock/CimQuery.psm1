# What the CIM-based cmdlets of Windows PowerShell 5.1 (NetAdapter, NetTCPIP, DnsClient, PnpDevice:
# "cmdletization" over CIM classes) share, for the mocks that stand for them (mock/Network.psm1,
# mock/Pnp.psm1): objects typed as CIM instances, selection by property values, and their errors.
# A value without wildcards that selects nothing is a non-terminating ObjectNotFound error
# ("No MSFT_X objects found with property 'P' equal to 'V'.  Verify the value of the property and
# retry.", two spaces as 5.1 writes it), id CmdletizationQuery_NotFound_P, a CimJobException.

# The exception type the CIM cmdlets report their errors with.
class CimJobException : System.Exception {
    CimJobException([string]$Message) : base($Message) { }
}

function New-PlayCimErrorRecord {
    param([string]$Message, [string]$Id, [System.Management.Automation.ErrorCategory]$Category, $Target)
    # The runtime appends ",<cmdlet>" to the id.
    New-Object System.Management.Automation.ErrorRecord ([CimJobException]::new($Message)), $Id, $Category, $Target
}

# A mock is a function in a module: it does not see its caller's $ErrorActionPreference, which the
# compiled cmdlets it stands for honour (the bootstrap sets 'Stop'). So the caller's preference is
# read here ($Cmdlet.SessionState is the caller's), unless -ErrorAction was given (the runtime
# applies that).
function Write-PlayCimError {
    param($Cmdlet, [System.Management.Automation.ErrorRecord]$Record)
    if (-not $Cmdlet.MyInvocation.BoundParameters.ContainsKey('ErrorAction')) {
        $pref = [string]$Cmdlet.SessionState.PSVariable.GetValue('ErrorActionPreference')
        if ($pref -eq 'Stop') { $Cmdlet.ThrowTerminatingError($Record) }
        if ($pref -eq 'SilentlyContinue' -or $pref -eq 'Ignore') { return }
    }
    $Cmdlet.WriteError($Record)
}

function Write-PlayNotFound {
    param($Cmdlet, [string]$Class, [string]$Property, $Value)
    $text = "No {0} objects found with property '{1}' equal to '{2}'.  Verify the value of the property and retry." -f $Class, $Property, $Value
    Write-PlayCimError $Cmdlet (New-PlayCimErrorRecord $text ('CmdletizationQuery_NotFound_{0}' -f $Property) 'ObjectNotFound' $Value)
}

# A refusal the model answered with (a WindowsError, caught): the cmdlet's non-terminating error.
function Write-PlayRefusal {
    param($Cmdlet, $Caught, $Target)
    Write-PlayCimError $Cmdlet (New-PlayCimErrorRecord $Caught.Exception.Message 'Windows System Error' 'NotSpecified' $Target)
}

function Test-PlayCimMatch {
    param($Actual, $Wanted)
    if ($Wanted -is [string] -and [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($Wanted)) { return ([string]$Actual -like $Wanted) }
    return ([string]$Actual -eq [string]$Wanted)
}

# Objects matching every filter (property -> wanted values, $null: no filter); each value of a
# $Reported property that matches none of them is an ObjectNotFound error.
function Select-PlayCim {
    param($Cmdlet, [string]$Class, [object[]]$Objects, [System.Collections.Specialized.OrderedDictionary]$Filters, [string[]]$Reported)
    $result = @($Objects)
    foreach ($p in @($Filters.Keys)) {
        $values = $Filters[$p]
        if ($null -eq $values) { continue }
        $result = @(foreach ($o in $result) {
            $hit = $false
            foreach ($v in @($values)) { if (Test-PlayCimMatch $o.$p $v) { $hit = $true } }
            if ($hit) { $o }
        })
    }
    foreach ($p in $Reported) {
        foreach ($v in @($Filters[$p])) {
            if ($null -eq $v -or ($v -is [string] -and [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($v))) { continue }
            $hit = $false
            foreach ($o in $result) { if (Test-PlayCimMatch $o.$p $v) { $hit = $true } }
            if (-not $hit) { Write-PlayNotFound $Cmdlet $Class $p $v }
        }
    }
    $result
}

function New-PlayCimObject {
    param([string]$Class, [System.Collections.Specialized.OrderedDictionary]$Properties, [string]$Namespace = 'ROOT/StandardCimv2')
    $o = New-Object PSObject -Property $Properties
    $o.PSObject.TypeNames.Insert(0, ('Microsoft.Management.Infrastructure.CimInstance#{0}/{1}' -f $Namespace, $Class))
    $o
}

Export-ModuleMember -Function New-PlayCimErrorRecord, Write-PlayCimError, Write-PlayNotFound, Write-PlayRefusal, Select-PlayCim, New-PlayCimObject
