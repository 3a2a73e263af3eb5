// Restarting the simulated Windows node (a test double): what a reboot applies (pending hotfixes
// raise the build revision, pending features and capabilities become Installed, so a fresh Docker
// can start) and how the node comes back (a new LastBootUpTime, Auto services started).
import { applyBootFaults } from './boot-faults.js';
import { setValue } from './registry-store.js';
import { bootServices } from './services.js';
import type { NodeState } from './node-state.js';

/** LastBootUpTime as the steps' Get-PlayOsInfo writes it: .ToUniversalTime().ToString('o'), 7 fraction digits. */
export function bootTime(at: Date): string {
  return at.toISOString().replace(/\.(\d{3})Z$/, '.$10000Z');
}

export function setRevision(s: NodeState, revision: number): void {
  s.os.revision = revision;
  setValue(s, 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion', 'UBR', 'DWord', revision);
}

/** Applied while the node is down. */
export function applyPendingChanges(s: NodeState): void {
  for (const change of s.pending) {
    switch (change.kind) {
      case 'hotfix':
        if (change.revision !== null && change.revision > s.os.revision) setRevision(s, change.revision);
        // An update Get-HotFix did not list before its reboot (MsuRecord.listedBeforeReboot) is listed now.
        if (!s.hotfixes.some((h) => h.kb.toLowerCase() === change.kb.toLowerCase()))
          s.hotfixes.push({ kb: change.kb, installedOn: new Date().toISOString().slice(0, 10) });
        break;
      case 'hotfix-removal':
        setRevision(s, change.revision); // dism /remove-package: back to the build before the update
        break;
      case 'feature': {
        const f = s.features[change.name.toLowerCase()];
        if (f) f.installState = 'Installed';
        break;
      }
      case 'capability': {
        const c = s.capabilities[change.name.toLowerCase()];
        if (c) c.state = 'Installed';
        break;
      }
    }
  }
  s.pending = [];
}

/** The node is up again. */
export function completeBoot(s: NodeState, now: Date): void {
  s.os.lastBootUpTime = bootTime(now);
  s.bootCount++;
  s.boot = { phase: 'up', until: null };
  bootServices(s);
  applyBootFaults(s);
}
