// Docker's remote functions (PowerShell 5.1), one .ps1 file each in this folder: the raw `docker version`
// text (parsed on our side, parse/docker-version.ts) and the install from PSGallery's DockerMsftProvider,
// as field notes A and D do it (a fresh install enables the Containers feature, which needs a reboot).
// Get-PlayDockerEngine runs docker.exe through Invoke-Native (remote/ps-native.ts), found by Find-DockerExe.
import { z } from 'zod';
import { FIND_DOCKER } from '../../remote/ps-find-docker.js';
import { INVOKE_NATIVE } from '../../remote/ps-native.js';
import { powerShellFile, stepRemote } from '../step-remote.js';

export const DOCKER_ENGINE_REMOTE = stepRemote({
  /**
   * Raw `docker version` output, stdout then stderr (the client part prints even when the daemon is
   * down; null when docker.exe is absent), and the service's existence.
   */
  'Get-PlayDockerEngine': {
    args: z.strictObject({}),
    result: z.strictObject({ dockerVersion: z.string().nullable(), serviceExists: z.boolean() }),
    body: `\n${INVOKE_NATIVE}${FIND_DOCKER}\n${powerShellFile(import.meta.url, './Get-PlayDockerEngine.ps1')}`,
  },
  /** Install-Module DockerMsftProvider; Install-Package Docker -ProviderName DockerMsftProvider. */
  'Install-PlayDockerEngine': {
    args: z.strictObject({ version: z.string().nullable() }),
    result: z.strictObject({ restartNeeded: z.boolean() }),
    body: powerShellFile(import.meta.url, './Install-PlayDockerEngine.ps1'),
  },
});
