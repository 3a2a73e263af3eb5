// Registry keys whose truth lives elsewhere in the model: computed each time they are read, never
// stored, so they cannot drift from the state they show.
//
// - `...\Component Based Servicing\RebootPending` exists while a change waits for a restart
//   (NodeState.pending, the model's pendingReboot), as DISM leaves it. Component Based
//   Servicing belongs to TrustedInstaller: an administrator cannot change or delete it.
// - `HKLM:\SYSTEM\CurrentControlSet\Enum\<instance id>` exists for each network device of
//   Get-PnpDevice -Class Net (NodeState.pnpNetDevices). Deleting such a key (Remove-Item -Recurse)
//   removes the device: the way ghost adapters are cleaned up
//   (docs/field-notes.md#a-network-clean-up-and-nics). Enum itself always exists and stays.
import { WindowsError } from '../errors.js';
import { isAtOrBelow } from '../registry-store.js';
import type { NodeState, RegistryValue } from '../node-state.js';
import { registryPath, type WinPath } from '../win-paths.js';

export interface VirtualKey {
  /** `HKLM:\...` */
  path: string;
  values: RegistryValue[];
}

interface RegistryView {
  keys(s: NodeState): VirtualKey[];
  /** Deletes the view's keys at or below `p` by changing the model, or refuses as Windows would. */
  remove(s: NodeState, p: WinPath): void;
}

/** What RegistryKey and the registry provider say when the ACL refuses (SecurityException). */
export const ACCESS_DENIED = 'Requested registry access is not allowed.';

const CBS_KEY = 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Component Based Servicing';
export const REBOOT_PENDING_KEY = `${CBS_KEY}\\RebootPending`;
export const ENUM_KEY = 'HKLM:\\SYSTEM\\CurrentControlSet\\Enum';

/** The class of network adapters (Device Manager's "Network adapters"). */
const NET_CLASS_GUID = '{4d36e972-e325-11ce-bfc1-08002be10318}';

const str = (name: string, data: string): RegistryValue => ({ name, type: 'String', data });

const VIEWS: readonly RegistryView[] = [
  {
    keys: (s) => [
      { path: CBS_KEY, values: [] },
      ...(s.pending.length > 0 ? [{ path: REBOOT_PENDING_KEY, values: [] }] : []),
    ],
    remove: () => {
      throw new WindowsError(ACCESS_DENIED);
    },
  },
  {
    keys: (s) => [
      { path: ENUM_KEY, values: [] },
      ...s.pnpNetDevices.map((d) => ({
        path: `${ENUM_KEY}\\${d.instanceId}`,
        values: [
          str('FriendlyName', d.friendlyName),
          str('DeviceDesc', d.friendlyName),
          str('Class', 'Net'),
          str('ClassGUID', NET_CLASS_GUID),
          str('Service', 'netvsc'),
        ],
      })),
    ],
    remove: (s, p) => {
      if (isAtOrBelow(registryPath(ENUM_KEY).key, p)) throw new WindowsError(ACCESS_DENIED);
      s.pnpNetDevices = s.pnpNetDevices.filter(
        (d) => !isAtOrBelow(registryPath(`${ENUM_KEY}\\${d.instanceId}`).key, p),
      );
    },
  },
];

/** Every virtual key now, by its lower-cased path. */
export function virtualKeys(s: NodeState): Map<string, VirtualKey> {
  const out = new Map<string, VirtualKey>();
  for (const view of VIEWS) for (const k of view.keys(s)) out.set(registryPath(k.path).key, k);
  return out;
}

/** True when `p` is a virtual key or lies below one: the views' keys take no writes. */
export function insideVirtualKey(s: NodeState, p: WinPath): boolean {
  for (const key of virtualKeys(s).keys()) if (isAtOrBelow(p.key, registryPath(key))) return true;
  return false;
}

/** Deletes the views' keys at or below `p` (each view changes its part of the model, or refuses). */
export function removeVirtualKeys(s: NodeState, p: WinPath): void {
  for (const view of VIEWS) {
    if (view.keys(s).some((k) => isAtOrBelow(registryPath(k.path).key, p))) view.remove(s, p);
  }
}
