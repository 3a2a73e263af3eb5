  # Servers: the values 1, 2, ... up to the first missing one; w32tm's own configuration from W32Time\Parameters.
  $values = Get-ItemProperty -LiteralPath 'HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\DateTime\Servers' -ErrorAction SilentlyContinue
  $servers = @()
  $default = $null
  if ($null -ne $values) {
    for ($i = 1; $null -ne $values.PSObject.Properties[[string]$i]; $i++) {
      $servers += [string]$values.PSObject.Properties[[string]$i].Value
    }
    if ($null -ne $values.PSObject.Properties['(default)']) { $default = [string]$values.PSObject.Properties['(default)'].Value }
  }
  $parameters = Get-ItemProperty -LiteralPath 'HKLM:\SYSTEM\CurrentControlSet\Services\W32Time\Parameters' -ErrorAction SilentlyContinue
  $service = Get-CimInstance -ClassName Win32_Service | Where-Object { $_.Name -eq 'W32Time' } | Select-Object -First 1
  $mode = [string]$service.StartMode
  if (@('Auto', 'Manual', 'Disabled') -notcontains $mode) { $mode = 'Manual' }
  [ordered]@{
    servers = @($servers)
    defaultIndex = $default
    manualPeerList = [string]$parameters.NtpServer
    syncFromFlags = [string]$parameters.Type
    w32timeStartMode = $mode
    w32timeRunning = ([string]$service.State -eq 'Running')
  }
