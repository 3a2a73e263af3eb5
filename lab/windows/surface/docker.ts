// Docker Engine installed by DockerMsftProvider's Install-Package (mock/Packages.psm1), with the
// rules of docs/field-notes.md#d-docker-install-and-docker-version: the binaries go to
// C:\Program Files\Docker, the docker service is created (Auto, not started: Install-Package leaves
// that to the caller), and a fresh install enables the Containers feature, which waits for a reboot;
// until then dockerd cannot start (services.ts). An upgrade replaces the binaries and restarts a
// running daemon (and the services that depend on it).
import { DOCKER_RELEASES, LATEST_DOCKER } from '../docker-text.js';
import { writeFile } from '../file-store.js';
import { findService, restartService } from '../services.js';
import type { NodeState } from '../node-state.js';
import { installFeature, newService } from './features.js';
import { moduleInstalled } from './packages.js';
import { type Ops, optStr, str, WindowsError } from './types.js';

export const DOCKER_DIR = 'C:\\Program Files\\Docker';

/** docker.exe reaches dockerd: installed, and its service running. */
export function dockerDaemonRunning(s: NodeState): boolean {
  return s.docker.install === 'installed' && findService(s, 'docker')?.state === 'Running';
}

export const dockerOps: Ops = {
  'Docker.Install': (node, a) => {
    const s = node.state;
    const name = str(a, 'name');
    if (!moduleInstalled(s, 'DockerMsftProvider'))
      throw new WindowsError(
        "Unable to find package provider 'DockerMsftProvider'. It may not be imported yet. Try 'Get-PackageProvider -ListAvailable'.",
      );
    const wanted = optStr(a, 'version') ?? LATEST_DOCKER;
    if (name.toLowerCase() !== 'docker' || !DOCKER_RELEASES[wanted])
      throw new WindowsError(
        `No match was found for the specified search criteria and package name '${name}'. Try Get-PackageSource to see all available registered package sources.`,
      );
    for (const exe of ['docker.exe', 'dockerd.exe'])
      writeFile(s, `${DOCKER_DIR}\\${exe}`, Buffer.from(`simulated ${exe} ${wanted}\n`));
    const upgrade = s.docker.install === 'installed' && s.docker.version !== wanted;
    s.docker = { install: 'installed', version: wanted };
    newService(s, {
      name: 'docker',
      displayName: 'Docker Engine',
      binPath: `"${DOCKER_DIR}\\dockerd.exe" --run-service`,
      startMode: 'Auto',
      account: 'LocalSystem',
      dependencies: [],
    });
    const restartNeeded = s.features['containers'] ? installFeature(s, 'containers') === 'restart' : false;
    if (upgrade && findService(s, 'docker')?.state === 'Running') restartService(s, 'docker');
    return { name: 'Docker', version: wanted, source: 'DockerDefault', restartNeeded };
  },
};
