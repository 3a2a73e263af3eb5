  [System.Net.ServicePointManager]::SecurityProtocol = [System.Net.ServicePointManager]::SecurityProtocol -bor [System.Net.SecurityProtocolType]::Tls12
  if ($null -eq (Get-PackageProvider -ListAvailable -Name NuGet -ErrorAction SilentlyContinue)) {
    Install-PackageProvider -Name NuGet -MinimumVersion 2.8.5.201 -Force | Out-Null
  }
  if ($null -eq (Get-Module -ListAvailable -Name DockerMsftProvider)) {
    Install-Module -Name DockerMsftProvider -Repository PSGallery -Force | Out-Null
  }
  $package = @{ Name = 'docker'; ProviderName = 'DockerMsftProvider'; Force = $true }
  if ($a.version) { $package.RequiredVersion = [string]$a.version }
  Install-Package @package | Out-Null
  $containers = Get-WindowsFeature -Name Containers -ErrorAction SilentlyContinue
  $restart = ($null -ne $containers -and [string]$containers.InstallState -eq 'InstallPending')
  if (-not $restart) { Start-Service -Name docker }
  [ordered]@{ restartNeeded = $restart }
