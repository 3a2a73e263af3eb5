// The remote half of services (PowerShell 5.1): sc.exe through Invoke-Native (see ps-native.ts for
// how binPath reaches it unchanged; nssm: tasks/windows/steps/nssm-service/), the service account through
// Win32_Service.Change (so a password is never on a command line), and state changes with bounded
// waits: a restart stops the running services that depend on this one first (a stop with running
// dependents fails with "A stop control has been sent to a service that other running services are
// dependent on", field note B), stops it (killing its own process if it does not stop within a
// minute, as field note B did with taskkill /PID /F), starts it and the dependents again
// (docs/field-notes.md#b-restarting-a-service-with-dependents).
import { playFunction } from './contract.js';
import { INVOKE_NATIVE } from './ps-native.js';

const SC = String.raw`
  $sc = Join-Path $env:SystemRoot 'System32\sc.exe'
`;

export const GET_SERVICE = playFunction(
  'Get-PlayService',
  String.raw`
${INVOKE_NATIVE}${SC}
  $name = [string]$a.name
  $qc = Invoke-Native -FilePath $sc -ArgumentList @('qc', $name, '8192')
  if ($qc.Code -eq 1060) { return $null }
  if ($qc.Code -ne 0) { throw ('sc.exe qc {0} failed (exit {1}): {2}' -f $name, $qc.Code, (Get-NativeText $qc)) }
  $query = Invoke-Native -FilePath $sc -ArgumentList @('queryex', $name)
  if ($query.Code -ne 0) { throw ('sc.exe queryex {0} failed (exit {1}): {2}' -f $name, $query.Code, (Get-NativeText $query)) }
  $service = Get-Service -Name $name
  $dependents = @($service.DependentServices | ForEach-Object { $_.Name })
  [ordered]@{ qc = $qc.Out; queryex = $query.Out; dependents = $dependents }
`,
);

export const SET_SERVICE = playFunction(
  'Set-PlayService',
  String.raw`
${INVOKE_NATIVE}${SC}
  $name = [string]$a.name
  $verb = 'config'
  if ($a.create) { $verb = 'create' }
  $argv = @($verb, $name)
  if ($null -ne $a.binPath) { $argv += @('binPath=', [string]$a.binPath) }
  if ($null -ne $a.displayName) { $argv += @('DisplayName=', [string]$a.displayName) }
  if ($null -ne $a.startMode) {
    $modes = @{ Auto = 'auto'; Manual = 'demand'; Disabled = 'disabled' }
    $argv += @('start=', $modes[[string]$a.startMode])
  }
  if ($null -ne $a.dependencies) {
    $depend = @($a.dependencies) -join '/'
    if ($depend -eq '') { $depend = '/' }
    $argv += @('depend=', $depend)
  }
  if ($a.create -or $argv.Count -gt 2) {
    $r = Invoke-Native -FilePath $sc -ArgumentList $argv
    if ($r.Code -ne 0) { throw ('sc.exe {0} {1} failed (exit {2}): {3}' -f $verb, $name, $r.Code, (Get-NativeText $r)) }
  }
  if ($null -ne $a.account) {
    $service = Get-CimInstance -ClassName Win32_Service | Where-Object { $_.Name -eq $name } | Select-Object -First 1
    if ($null -eq $service) { throw ('there is no service {0}' -f $name) }
    $change = @{ StartName = [string]$a.account }
    if ($null -ne $a.password) {
      $change.StartPassword = [string]$a.password
    } elseif ($change.StartName -eq 'LocalSystem' -or $change.StartName -like 'NT AUTHORITY\*') {
      $change.StartPassword = ''
    }
    $result = Invoke-CimMethod -InputObject $service -MethodName Change -Arguments $change
    if ($result.ReturnValue -ne 0) {
      throw ('setting the account of {0} to {1} failed: Win32_Service.Change returned {2}' -f $name, $change.StartName, $result.ReturnValue)
    }
  }
  [ordered]@{}
`,
);

export const SET_SERVICE_STATE = playFunction(
  'Set-PlayServiceState',
  String.raw`
  $name = [string]$a.name
  function Get-ContractState {
    param([string]$Status)
    switch ($Status) {
      'Running' { return 'Running' }
      'Stopped' { return 'Stopped' }
      'StartPending' { return 'StartPending' }
      'ContinuePending' { return 'StartPending' }
      'StopPending' { return 'StopPending' }
      default { return 'Paused' }
    }
  }
  function Wait-ServiceStatus {
    param([string]$Service, [string]$Status, [int]$Seconds)
    $deadline = (Get-Date).AddSeconds($Seconds)
    do {
      if ([string](Get-Service -Name $Service).Status -eq $Status) { return $true }
      Start-Sleep -Milliseconds 500
    } while ((Get-Date) -lt $deadline)
    return $false
  }
  function Get-Reason {
    param($Caught)
    # ServiceController throws "Cannot start service X on computer '.'." around a Win32Exception
    # that holds the reason (disabled, file not found, dependency failed): report the innermost.
    $e = $Caught.Exception
    while ($null -ne $e.InnerException) { $e = $e.InnerException }
    $code = ''
    if ($e -is [System.ComponentModel.Win32Exception]) { $code = ' (Win32 error {0})' -f $e.NativeErrorCode }
    return $e.Message + $code
  }
  function Stop-OneService {
    param([string]$Service)
    $controller = Get-Service -Name $Service
    if ([string]$controller.Status -eq 'Stopped') { return }
    if ([string]$controller.Status -ne 'StopPending') {
      try { $controller.Stop() } catch { Write-Verbose (Get-Reason $_) }
    }
    if (Wait-ServiceStatus $Service 'Stopped' 60) { return }
    $cim = Get-CimInstance -ClassName Win32_Service | Where-Object { $_.Name -eq $Service } | Select-Object -First 1
    if ($null -ne $cim -and $cim.ProcessId -gt 0 -and $cim.ServiceType -eq 'Own Process') {
      Stop-Process -Id $cim.ProcessId -Force
      if (Wait-ServiceStatus $Service 'Stopped' 30) { return }
    }
    throw ('{0} did not stop (state {1})' -f $Service, [string](Get-Service -Name $Service).Status)
  }
  function Start-OneService {
    param([string]$Service)
    $controller = Get-Service -Name $Service
    $status = [string]$controller.Status
    try {
      if ($status -eq 'Paused') { $controller.Continue() } elseif ($status -ne 'Running' -and $status -ne 'StartPending') { $controller.Start() }
    } catch {
      throw ('{0} cannot start: {1}' -f $Service, (Get-Reason $_))
    }
    if (-not (Wait-ServiceStatus $Service 'Running' 60)) {
      throw ('{0} did not start (state {1})' -f $Service, [string](Get-Service -Name $Service).Status)
    }
  }
  $service = Get-Service -Name $name
  $restarted = @()
  switch ([string]$a.action) {
    'start' { Start-OneService $name }
    'stop' {
      $running = @($service.DependentServices | Where-Object { [string]$_.Status -ne 'Stopped' } | ForEach-Object { $_.Name })
      if ($running.Count -gt 0) {
        throw ('{0} cannot be stopped while services that depend on it run: {1} (stop them first)' -f $name, ($running -join ', '))
      }
      Stop-OneService $name
    }
    'restart' {
      $running = @($service.DependentServices | Where-Object { [string]$_.Status -ne 'Stopped' } | ForEach-Object { $_.Name })
      foreach ($dependent in $running) { Stop-OneService $dependent }
      Stop-OneService $name
      Start-OneService $name
      [array]::Reverse($running)
      foreach ($dependent in $running) {
        Start-OneService $dependent
        $restarted += $dependent
      }
    }
    default { throw ('unknown service action {0}' -f $a.action) }
  }
  $cim = Get-CimInstance -ClassName Win32_Service | Where-Object { $_.Name -eq $name } | Select-Object -First 1
  [ordered]@{
    state = Get-ContractState ([string](Get-Service -Name $name).Status)
    pid = [int]$cim.ProcessId
    restartedDependents = @($restarted)
  }
`,
);
