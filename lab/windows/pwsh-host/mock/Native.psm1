# Native programs of the simulated node. The host's System.Diagnostics.Process shim (Shims.cs)
# calls Invoke-PlayMockNative with the program's path and its argv as a C-runtime program would
# split the command line; the answer is { Code; Out; Err } (strings, or byte[] for programs that
# write UTF-16LE such as nssm.exe). Only sc.exe qc/queryex is sketched here.

function Format-ScField { param([string]$Name, [string]$Value) ('        {0}: {1}' -f $Name.PadRight(19), $Value) }

function Invoke-PlayMockSc {
    param([string[]]$Argv)
    $verb = $Argv[0]
    $name = $Argv[1]
    $s = $null
    if ($name) { $s = $global:PlayNode.services[$name.ToLowerInvariant()] }
    if ($verb -in @('qc', 'queryex') -and $null -eq $s) {
        return @{ Code = 1060; Out = "[SC] OpenService FAILED 1060:`r`n`r`nThe specified service does not exist as an installed service.`r`n`r`n"; Err = '' }
    }
    $type = @{ own = '10  WIN32_OWN_PROCESS'; share = '20  WIN32_SHARE_PROCESS' }[[string]$s.type]
    switch ($verb) {
        'qc' {
            $deps = @($s.dependencies)
            if ($deps.Count -eq 0) { $deps = @('') }
            $lines = @('[SC] QueryServiceConfig SUCCESS', '', ('SERVICE_NAME: {0}' -f $s.name),
                (Format-ScField 'TYPE' $type),
                (Format-ScField 'START_TYPE' @{ Auto = '2   AUTO_START'; Manual = '3   DEMAND_START'; Disabled = '4   DISABLED' }[[string]$s.startMode]),
                (Format-ScField 'ERROR_CONTROL' '1   NORMAL'),
                (Format-ScField 'BINARY_PATH_NAME' $s.binPath),
                (Format-ScField 'LOAD_ORDER_GROUP' ''),
                (Format-ScField 'TAG' '0'),
                (Format-ScField 'DISPLAY_NAME' $s.displayName),
                (Format-ScField 'DEPENDENCIES' $deps[0]))
            $lines += @($deps | Select-Object -Skip 1 | ForEach-Object { (' ' * 27) + ': ' + $_ })
            $lines += (Format-ScField 'SERVICE_START_NAME' $s.account)
            return @{ Code = 0; Out = (($lines | ForEach-Object { $_ + "`r`n" }) -join ''); Err = '' }
        }
        'queryex' {
            $running = $s.state -eq 'Running'
            $code = 0
            if (-not $running) { $code = [int]$s.win32ExitCode }
            $lines = @('', ('SERVICE_NAME: {0}' -f $s.name), (Format-ScField 'TYPE' $type))
            if ($running) {
                $lines += (Format-ScField 'STATE' '4  RUNNING')
                $pausable = 'NOT_PAUSABLE'
                if ($s.pausable) { $pausable = 'PAUSABLE' }
                $lines += ((' ' * 32) + ('(STOPPABLE, {0}, ACCEPTS_SHUTDOWN)' -f $pausable))
            } else {
                $lines += (Format-ScField 'STATE' '1  STOPPED')
            }
            $procId = 0
            if ($running) { $procId = $s.pid }
            $lines += @((Format-ScField 'WIN32_EXIT_CODE' ('{0}  (0x{1})' -f $code, $code.ToString('x'))),
                (Format-ScField 'SERVICE_EXIT_CODE' '0  (0x0)'), (Format-ScField 'CHECKPOINT' '0x0'), (Format-ScField 'WAIT_HINT' '0x0'),
                (Format-ScField 'PID' ([string]$procId)), (Format-ScField 'FLAGS' ''))
            return @{ Code = 0; Out = (($lines | ForEach-Object { $_ + "`r`n" }) -join ''); Err = '' }
        }
        default { return @{ Code = 1; Out = ('[SC] the simulated sc.exe does not know {0}' -f $verb); Err = '' } }
    }
}

function Invoke-PlayMockNative {
    param([string]$FilePath, [string[]]$ArgumentList, [string]$Stdin)
    $leaf = ($FilePath -split '[\\/]')[-1].ToLowerInvariant()
    switch ($leaf) {
        'sc.exe' { return Invoke-PlayMockSc $ArgumentList }
        default { throw ("The system cannot find the file specified: {0} (the simulated node has no such program)" -f $FilePath) }
    }
}

Export-ModuleMember -Function Invoke-PlayMockNative
