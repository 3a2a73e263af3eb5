// Windows features, capabilities and Docker on the simulated Windows node (a test double). Installs
// that need a restart are pending until the node reboots (boot.ts applies them). Docker from
// DockerMsftProvider enables the Containers feature; until that is installed (after a reboot) the
// docker service cannot start (services.ts), and the install says a restart is needed.
import { DOCKER_RELEASES, dockerVersionText, LATEST_DOCKER } from '../docker-text.js';
import { WindowsError } from '../errors.js';
import { writeFile } from '../file-store.js';
import { findService, restartService, startService } from '../services.js';
import type { NodeState, ServiceRecord } from '../state.js';
import type { Handlers } from './types.js';

const DOCKER_DIR = 'C:\\Program Files\\Docker';

function newService(
  s: NodeState,
  svc: Omit<ServiceRecord, 'state' | 'pid' | 'win32ExitCode' | 'pausable' | 'type'>,
): void {
  s.services[svc.name.toLowerCase()] ??= {
    ...svc,
    type: 'own',
    state: 'Stopped',
    pid: 0,
    win32ExitCode: 1077,
    pausable: false,
  };
}

/** What installing a capability brings along (OpenSSH.Server: the sshd service and its firewall rule). */
function capabilityInstalled(s: NodeState, name: string): void {
  if (name.toLowerCase() !== 'openssh.server~~~~0.0.1.0') return;
  newService(s, {
    name: 'sshd',
    displayName: 'OpenSSH SSH Server',
    binPath: 'C:\\Windows\\System32\\OpenSSH\\sshd.exe',
    startMode: 'Manual',
    account: 'LocalSystem',
    dependencies: [],
  });
  s.firewall['openssh-server-in-tcp'] ??= {
    name: 'OpenSSH-Server-In-TCP',
    displayName: 'OpenSSH SSH Server (sshd)',
    enabled: true,
    direction: 'Inbound',
    protocol: 'TCP',
    localPort: '22',
    action: 'Allow',
  };
}

function installFeature(s: NodeState, key: string): boolean {
  const f = s.features[key]!;
  if (f.installState === 'Installed') return false;
  if (f.installState === 'InstallPending') return true;
  if (!f.restartNeeded) {
    f.installState = 'Installed';
    return false;
  }
  f.installState = 'InstallPending';
  s.pending.push({ kind: 'feature', name: f.name });
  return true;
}

export const featureHandlers = {
  'Get-PlayWindowsFeature': (node, { name }) => {
    const f = node.state.features[name.toLowerCase()];
    return f ? { name: f.name, installState: f.installState } : null;
  },

  'Install-PlayWindowsFeature': (node, { name }) => {
    if (!node.state.features[name.toLowerCase()]) {
      throw new WindowsError(
        `ArgumentNotValid: The role, role service, or feature name is not valid: '${name}'. The name was not found.`,
      );
    }
    return { restartNeeded: installFeature(node.state, name.toLowerCase()) };
  },

  'Get-PlayWindowsCapability': (node, { name }) => {
    const c = node.state.capabilities[name.toLowerCase()];
    return c ? { name: c.name, state: c.state } : null;
  },

  'Add-PlayWindowsCapability': (node, { name }) => {
    const s = node.state;
    const c = s.capabilities[name.toLowerCase()];
    if (!c) throw new WindowsError('Add-WindowsCapability failed. Error code = 0x800f080c');
    if (c.state === 'Installed') return { restartNeeded: false };
    if (c.state === 'InstallPending') return { restartNeeded: true };
    if (c.restartNeeded) {
      c.state = 'InstallPending';
      s.pending.push({ kind: 'capability', name: c.name });
      return { restartNeeded: true };
    }
    c.state = 'Installed';
    capabilityInstalled(s, c.name);
    return { restartNeeded: false };
  },

  'Get-PlayDockerEngine': (node) => {
    const s = node.state;
    const svc = findService(s, 'docker');
    const dockerVersion =
      s.docker.install === 'absent' || s.docker.version === null
        ? null
        : dockerVersionText(s.docker.version, svc?.state === 'Running');
    return { dockerVersion, serviceExists: svc !== undefined };
  },

  'Install-PlayDockerEngine': (node, { version }) => {
    const s = node.state;
    const wanted = version ?? LATEST_DOCKER;
    if (!DOCKER_RELEASES[wanted]) {
      throw new WindowsError(
        `No match was found for the specified search criteria and package name 'Docker'. Try Get-PackageSource to see all available registered package sources.`,
      );
    }
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
    const restartNeeded = s.features['containers'] ? installFeature(s, 'containers') : false;
    // An upgrade replaces the binaries and restarts the daemon (and what runs on it).
    if (upgrade && findService(s, 'docker')?.state === 'Running') restartService(s, 'docker');
    if (!restartNeeded) startService(s, 'docker');
    return { restartNeeded };
  },
} satisfies Partial<Handlers>;
