// The remote half of the Docker engine step (PowerShell 5.1): the raw `docker version` text (parsed
// on our side, docker-version.ts) and the install from PSGallery's DockerMsftProvider, as seeds 001
// and 003 do it. A fresh install enables the Containers feature, which needs a reboot.
import { playFunction } from './calls.js';
import { INVOKE_NATIVE } from './ps-native.js';

/** stdout then stderr of `docker version` (the client part prints even when the daemon is down). */
export const GET_DOCKER_ENGINE = playFunction('Get-PlayDockerEngine', String.raw`
${INVOKE_NATIVE}
  $service = Get-Service -Name docker -ErrorAction SilentlyContinue
  $exe = $null
  $command = Get-Command -Name docker.exe -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($null -ne $command) {
    $exe = $command.Path
  } else {
    $candidate = Join-Path $env:ProgramFiles 'Docker\docker.exe'
    if (Test-Path -LiteralPath $candidate -PathType Leaf) { $exe = $candidate }
  }
  $text = $null
  if ($null -ne $exe) {
    $r = Invoke-Native -FilePath $exe -ArgumentList @('version')
    $text = $r.Out
    if ($r.Err) { $text = $text + [System.Environment]::NewLine + $r.Err }
  }
  [ordered]@{ dockerVersion = $text; serviceExists = ($null -ne $service) }
`);

export const INSTALL_DOCKER_ENGINE = playFunction('Install-PlayDockerEngine', String.raw`
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
`);
