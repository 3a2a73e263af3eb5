// The remote half of the Docker steps (PowerShell 5.1): the raw `docker version` text (parsed
// on our side, docker-version.ts) and the install from PSGallery's DockerMsftProvider, as field notes
// A and D do it (a fresh install enables the Containers feature, which needs a reboot); images
// inspected and pulled with docker.exe through Invoke-Native (ps-native.ts), the reference one argument.
import { playFunction } from './contract.js';
import { INVOKE_NATIVE } from './ps-native.js';

/** Find-DockerExe: docker.exe on the PATH, else where DockerMsftProvider installs it; $null when absent. */
const FIND_DOCKER = String.raw`
  function Find-DockerExe {
    $command = Get-Command -Name docker.exe -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($null -ne $command) { return $command.Path }
    $candidate = Join-Path $env:ProgramFiles 'Docker\docker.exe'
    if (Test-Path -LiteralPath $candidate -PathType Leaf) { return $candidate }
    return $null
  }
`;

/** stdout then stderr of `docker version` (the client part prints even when the daemon is down). */
export const GET_DOCKER_ENGINE = playFunction(
  'Get-PlayDockerEngine',
  String.raw`
${INVOKE_NATIVE}${FIND_DOCKER}
  $service = Get-Service -Name docker -ErrorAction SilentlyContinue
  $exe = Find-DockerExe
  $text = $null
  if ($null -ne $exe) {
    $r = Invoke-Native -FilePath $exe -ArgumentList @('version')
    $text = $r.Out
    if ($r.Err) { $text = $text + [System.Environment]::NewLine + $r.Err }
  }
  [ordered]@{ dockerVersion = $text; serviceExists = ($null -ne $service) }
`,
);

export const INSTALL_DOCKER_ENGINE = playFunction(
  'Install-PlayDockerEngine',
  String.raw`
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
`,
);

/**
 * `docker image inspect`: exit 0 is the image; "No such image" is absent with the daemon up; the
 * daemon not answering (docs/field-notes.md#d-docker-install-and-docker-version: "error during connect") is absent with daemonRunning false, so a
 * plan can say why; any other failure throws.
 */
export const GET_DOCKER_IMAGE = playFunction(
  'Get-PlayDockerImage',
  String.raw`
${INVOKE_NATIVE}${FIND_DOCKER}
  $reference = [string]$a.reference
  $exe = Find-DockerExe
  if ($null -eq $exe) { return [ordered]@{ daemonRunning = $false; image = $null } }
  $r = Invoke-Native -FilePath $exe -ArgumentList @('image', 'inspect', $reference)
  if ($r.Code -ne 0) {
    $text = Get-NativeText $r
    if ($text -match 'No such image') { return [ordered]@{ daemonRunning = $true; image = $null } }
    if ($text -match 'error during connect|docker daemon is not running|pipe/docker_engine') { return [ordered]@{ daemonRunning = $false; image = $null } }
    throw ('docker image inspect {0} failed (exit {1}): {2}' -f $reference, $r.Code, $text)
  }
  $info = @($r.Out | ConvertFrom-Json)[0]
  $tags = @()
  if ($null -ne $info.RepoTags) { $tags = @($info.RepoTags | ForEach-Object { [string]$_ }) }
  [ordered]@{ daemonRunning = $true; image = [ordered]@{ id = [string]$info.Id; repoTags = $tags } }
`,
);

/** `docker pull`; its stderr is the error (docker's own words: registry, manifest, daemon). Then the image's id. */
export const INVOKE_DOCKER_PULL = playFunction(
  'Invoke-PlayDockerPull',
  String.raw`
${INVOKE_NATIVE}${FIND_DOCKER}
  $reference = [string]$a.reference
  $exe = Find-DockerExe
  if ($null -eq $exe) { throw 'docker.exe was not found: install Docker first' }
  $r = Invoke-Native -FilePath $exe -ArgumentList @('pull', $reference)
  if ($r.Code -ne 0) {
    $text = ($r.Err -replace [string][char]0, '').Trim()
    if ($text -eq '') { $text = ('docker pull exited {0}: {1}' -f $r.Code, (Get-NativeText $r)) }
    throw $text
  }
  $id = Invoke-Native -FilePath $exe -ArgumentList @('image', 'inspect', '--format', '{{.Id}}', $reference)
  if ($id.Code -ne 0) { throw ('docker image inspect {0} failed after the pull (exit {1}): {2}' -f $reference, $id.Code, (Get-NativeText $id)) }
  [ordered]@{ id = $id.Out.Trim() }
`,
);
