// The remote half of the dockerImage step (PowerShell 5.1): images inspected and pulled with docker.exe
// through Invoke-Native (ps-native.ts), the reference one argument. The engine's install and
// `docker version` are the dockerEngine step folder's (tasks/windows/steps/docker-engine/).
import { playFunction } from './contract.js';
import { FIND_DOCKER } from './ps-find-docker.js';
import { INVOKE_NATIVE } from './ps-native.js';

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
