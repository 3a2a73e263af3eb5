# Finding and starting programs on the simulated node: Get-Command for applications (the node's
# PATH, lab/windows/surface/commands.ts; the engine's own Get-Command would search this Linux
# machine's PATH) and Start-Process (Microsoft.PowerShell.Management, which this host does not
# have), which starts the program through the Process shim (op Native.Run) as Windows PowerShell
# 5.1 does: -ArgumentList joined with spaces into one command line, which the program splits itself.

function New-PlayApplicationInfo {
    param($Found)
    $o = [pscustomobject]@{
        CommandType = [System.Management.Automation.CommandTypes]::Application
        Name = [string]$Found.name
        Version = [version]'10.0.17763.1'
        Source = [string]$Found.path
        Path = [string]$Found.path
        Definition = [string]$Found.path
        Extension = [System.IO.Path]::GetExtension([string]$Found.name)
        Visibility = [System.Management.Automation.SessionStateEntryVisibility]::Public
    }
    $o.PSObject.TypeNames.Insert(0, 'System.Management.Automation.ApplicationInfo')
    return $o
}

function Get-Command {
    [CmdletBinding()]
    param(
        [Parameter(Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)][string[]]$Name,
        [Alias('Type')][System.Management.Automation.CommandTypes]$CommandType,
        [string[]]$Module,
        [string[]]$Verb,
        [string[]]$Noun,
        [int]$TotalCount = -1,
        [switch]$Syntax,
        [switch]$All,
        [switch]$ListImported
    )
    process {
        $application = [System.Management.Automation.CommandTypes]::Application
        $wantApplications = -not $PSBoundParameters.ContainsKey('CommandType') -or (($CommandType -band $application) -ne 0)
        # The engine resolves the rest; never applications or external scripts, which it would look for
        # on this Linux machine's PATH (the node has no scripts on its PATH).
        $outside = $application -bor [System.Management.Automation.CommandTypes]::ExternalScript
        $others = [System.Management.Automation.CommandTypes]::All -band (-bnot $outside)
        if ($PSBoundParameters.ContainsKey('CommandType')) { $others = $CommandType -band (-bnot $outside) }
        $rest = @{}
        foreach ($k in @('Module', 'Verb', 'Noun', 'TotalCount', 'Syntax', 'All', 'ListImported')) {
            if ($PSBoundParameters.ContainsKey($k)) { $rest[$k] = $PSBoundParameters[$k] }
        }
        if ($null -eq $Name -or $Module -or $Verb -or $Noun) {
            # Not a lookup by name: the engine's commands only (the node's programs are not listed).
            $pass = @{ CommandType = $others }
            foreach ($k in $PSBoundParameters.Keys) { if ($k -ne 'CommandType') { $pass[$k] = $PSBoundParameters[$k] } }
            if ([int]$others -ne 0) { Microsoft.PowerShell.Core\Get-Command @pass }
            return
        }
        foreach ($n in $Name) {
            $found = @()
            if ([int]$others -ne 0) {
                $found += @(Microsoft.PowerShell.Core\Get-Command -Name $n -CommandType $others -ErrorAction SilentlyContinue @rest)
            }
            if ($wantApplications -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($n)) {
                $found += @(@(Invoke-PlayWindows Command.FindApplication @{ name = $n }) | ForEach-Object { New-PlayApplicationInfo $_ })
            }
            if ($found.Count -eq 0 -and -not [System.Management.Automation.WildcardPattern]::ContainsWildcardCharacters($n)) {
                $text = "The term '{0}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again." -f $n
                $e = New-Object System.Management.Automation.ErrorRecord (
                    (New-Object System.Management.Automation.CommandNotFoundException $text),
                    'CommandNotFoundException,Microsoft.PowerShell.Commands.GetCommandCommand', 'ObjectNotFound', $n)
                $PSCmdlet.WriteError($e)
                continue
            }
            $found
        }
    }
}

function Start-Process {
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true, Position = 0)][Alias('PSPath', 'Path')][string]$FilePath,
        [Parameter(Position = 1)][Alias('Args')][string[]]$ArgumentList,
        [string]$WorkingDirectory,
        [System.Diagnostics.ProcessWindowStyle]$WindowStyle,
        [switch]$PassThru,
        [switch]$Wait,
        [switch]$NoNewWindow,
        [string]$RedirectStandardOutput,
        [string]$RedirectStandardError,
        [string]$RedirectStandardInput,
        [string]$Verb,
        [pscredential]$Credential
    )
    foreach ($unmodelled in @('RedirectStandardOutput', 'RedirectStandardError', 'RedirectStandardInput', 'Verb', 'Credential')) {
        if ($PSBoundParameters.ContainsKey($unmodelled)) { throw ('the simulated Start-Process does not model -{0} (mock/Commands.psm1)' -f $unmodelled) }
    }
    $path = $FilePath
    if ($path -notmatch '[\\/]') {
        $found = @(Invoke-PlayWindows Command.FindApplication @{ name = $path }) | Select-Object -First 1
        if ($null -ne $found) { $path = [string]$found.path }
    }
    $psi = New-Object System.Diagnostics.ProcessStartInfo
    $psi.FileName = $path
    # 5.1 joins the arguments with spaces, quoting nothing: the program splits the line itself.
    if ($ArgumentList) { $psi.Arguments = $ArgumentList -join ' ' }
    $psi.UseShellExecute = $false
    try {
        $process = [System.Diagnostics.Process]::Start($psi)
    } catch {
        $inner = $_.Exception
        while ($null -ne $inner.InnerException) { $inner = $inner.InnerException }
        $text = 'This command cannot be run due to the error: {0}.' -f $inner.Message.TrimEnd('.')
        $e = New-Object System.Management.Automation.ErrorRecord (
            (New-Object System.InvalidOperationException $text), 'InvalidOperationException,Microsoft.PowerShell.Commands.StartProcessCommand', 'InvalidOperation', $null)
        $PSCmdlet.ThrowTerminatingError($e)
    }
    if ($NoNewWindow) {
        # The program shares this console: what it prints goes where PowerShell's own output goes.
        $out = $process.StandardOutput.ReadToEnd()
        $err = $process.StandardError.ReadToEnd()
        if ($out) { [Console]::Out.Write($out) }
        if ($err) { [Console]::Error.Write($err) }
    }
    if ($PassThru) { $process }
}

Export-ModuleMember -Function Get-Command, Start-Process
