// Windows features (Server Manager: Get-/Install-WindowsFeature) and capabilities (DISM:
// Get-/Add-WindowsCapability) as mock/Features.psm1 sees them. An install that needs a restart is
// pending until the node reboots (boot.ts applies it); CBS's RebootPending key shows it
// (surface/registry-views.ts).
// OpenSSH.Server brings its sshd service and firewall rule along when it is installed.
import { serviceRecord } from '../services.js';
import type { NodeState, ServiceRecord } from '../node-state.js';
import { type Ops, str } from './types.js';

/** Server Manager's display names of the features the node models. */
const DISPLAY: Record<string, string> = {
  containers: 'Containers',
  'hyper-v': 'Hyper-V',
  'windows-defender': 'Windows Defender Antivirus',
  'telnet-client': 'Telnet Client',
};

export function newService(
  s: NodeState,
  svc: Omit<ServiceRecord, 'state' | 'pid' | 'win32ExitCode' | 'pausable' | 'type'>,
): void {
  s.services[svc.name.toLowerCase()] ??= serviceRecord(svc.name, svc.binPath, svc);
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

/**
 * Install-WindowsFeature of a known feature: 'none' when already installed, 'restart' when it (now or
 * already) waits for a reboot, 'installed' when it took effect at once.
 */
export function installFeature(s: NodeState, key: string): 'none' | 'restart' | 'installed' {
  const f = s.features[key]!;
  if (f.installState === 'Installed') return 'none';
  if (f.installState === 'InstallPending') return 'restart';
  if (!f.restartNeeded) {
    f.installState = 'Installed';
    return 'installed';
  }
  f.installState = 'InstallPending';
  s.pending.push({ kind: 'feature', name: f.name });
  return 'restart';
}

export const featureOps: Ops = {
  'Feature.List': (node) =>
    Object.entries(node.state.features).map(([key, f]) => ({
      name: f.name,
      displayName: DISPLAY[key] ?? f.name,
      installState: f.installState,
    })),

  /** Server Manager's answer for a name the mock found in Feature.List. */
  'Feature.Install': (node, a) => {
    const key = str(a, 'name').toLowerCase();
    const f = node.state.features[key];
    if (!f)
      throw new Error(`Feature.Install of ${key}, which Feature.List does not have (a bug in mock/Features.psm1)`);
    return { outcome: installFeature(node.state, key), name: f.name, displayName: DISPLAY[key] ?? f.name };
  },

  'Capability.List': (node) => Object.values(node.state.capabilities).map((c) => ({ name: c.name, state: c.state })),

  /** DISM's answer: restartNeeded; an unknown name is 0x800f080c (CBS_E_UNKNOWN_UPDATE), as DISM says. */
  'Capability.Add': (node, a) => {
    const s = node.state;
    const c = s.capabilities[str(a, 'name').toLowerCase()];
    if (!c) return { errorCode: '0x800f080c' };
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
};
