# The operating system of the simulated node: Get-HotFix (Microsoft.PowerShell.Management), whose
# objects are Win32_QuickFixEngineering instances as Windows PowerShell 5.1 shows them: InstalledOn
# a DateTime (5.1 adds it as a script property parsing WMI's text date), HotFixID, Description,
# InstalledBy, Caption (the KB's support link). The updates come from the node's model (surface/os.ts).

function ConvertTo-PlayQuickFix {
    param($Record)
    $id = [string]$Record.hotFixId
    $o = [pscustomobject]@{
        Source = [string]$Record.hostname
        Description = [string]$Record.description
        HotFixID = $id
        InstalledBy = 'NT AUTHORITY\SYSTEM'
        InstalledOn = [datetime]::ParseExact([string]$Record.installedOn, 'yyyy-MM-dd', [System.Globalization.CultureInfo]::InvariantCulture)
        Caption = 'http://support.microsoft.com/?kbid={0}' -f ($id -replace '^KB', '')
        CSName = [string]$Record.hostname
        FixComments = ''
        InstallDate = $null
        Name = $null
        ServicePackInEffect = ''
        Status = $null
    }
    $o.PSObject.TypeNames.Insert(0, 'System.Management.ManagementObject#root\cimv2\Win32_QuickFixEngineering')
    return $o
}

function Get-HotFix {
    [CmdletBinding(DefaultParameterSetName = 'Default')]
    param(
        [Parameter(ParameterSetName = 'Default', Position = 0)][Alias('HFID')][string[]]$Id,
        [Parameter(ParameterSetName = 'Description')][string[]]$Description,
        [Alias('CN', '__Server', 'IPAddress')][string[]]$ComputerName
    )
    if ($ComputerName) { throw 'the simulated Get-HotFix reads the local computer only (mock/Os.psm1)' }
    $all = @(@(Invoke-PlayWindows Os.Hotfixes) | ForEach-Object { ConvertTo-PlayQuickFix $_ })
    if ($Description) {
        foreach ($d in $Description) { $all | Where-Object { $_.Description -like $d } }
        return
    }
    if (-not $Id) { return $all }
    foreach ($i in $Id) {
        $match = @($all | Where-Object { $_.HotFixID -eq $i })
        if ($match.Count -eq 0) {
            $e = New-Object System.Management.Automation.ErrorRecord (
                (New-Object System.ArgumentException ("Cannot find the requested hotfix on the 'localhost' computer. Verify the input and run the command again.")),
                'GetHotFixNoEntriesFound,Microsoft.PowerShell.Commands.GetHotFixCommand', 'ObjectNotFound', $i)
            $PSCmdlet.WriteError($e)
            continue
        }
        $match
    }
}

Export-ModuleMember -Function Get-HotFix
