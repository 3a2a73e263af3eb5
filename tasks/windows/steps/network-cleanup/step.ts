// networkCleanup({ token, removeHnsNetworks?, removeGhostAdapters? }): docs/domain.md#step-1-network-clean-up, the
// destructive clean-up of a node that was used before (field note A): every HNS network goes (their
// endpoints with them), and the ghost virtual adapters (network devices in state Error) are removed
// from HKLM\SYSTEM\CurrentControlSet\Enum, which on 1809 is what `netcfg -d` fails to do. A reboot
// completes it (output rebootRequired, true until the node has booted since the clean-up).
//
// Never automatic: it runs once per token (any string the operator picks, e.g. a date), recorded on
// the node; the same token again is a noop, a new token runs it again. `netcfg -d` itself is left out:
// it clears every adapter's IP configuration at the next boot, the SSH session's own included.
import { z } from 'zod';
import { NOOP, type Change } from '../../../../runner/core/change.js';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { checked, type Refuse } from '../../options/checked.js';
import { oneLine } from '../../options/win-options.js';
import { invoke, probeCall } from '../../remote/calls.js';
import type { FunctionResult } from '../step-remote.js';
import { NETWORK_CLEANUP_REMOTE as REMOTE } from './remote.js';

const KIND = 'windows.networkCleanup';

const Options = checked(
  z.strictObject({
    token: oneLine().refine((v) => v.length <= 200, {
      error: 'must be at most 200 characters (it is recorded in the registry)',
    }),
    removeHnsNetworks: z.boolean().default(true),
    removeGhostAdapters: z.boolean().default(true),
  }),
  (o, refuse: Refuse) => {
    if (!o.removeHnsNetworks && !o.removeGhostAdapters)
      refuse('and removeGhostAdapters are both false: there is nothing to clean up', 'removeHnsNetworks');
    return o;
  },
);

export type NetworkCleanupOptions = z.input<typeof Options>;
export type NetworkCleanupDesired = Readonly<z.output<typeof Options>>;
export type NetworkCleanupActual = Readonly<FunctionResult<(typeof REMOTE)['Get-PlayNetworkCleanup']>>;
export interface NetworkCleanupOutputs {
  rebootRequired: boolean;
}

function diffNetworkCleanup(d: Readonly<NetworkCleanupDesired>, a: NetworkCleanupActual | null): Change {
  if (a?.token === d.token) return NOOP;
  const networks = d.removeHnsNetworks ? (a?.hnsNetworks ?? []) : [];
  const ghosts = d.removeGhostAdapters
    ? (a?.ghostAdapters ?? []).map((g) => `${g.friendlyName} (${g.instanceId})`)
    : [];
  return {
    action: 'run',
    fields: ['token'],
    before: { token: a?.token ?? null, hnsNetworks: networks, ghostAdapters: ghosts },
    after: { token: d.token },
    warnings: [
      `destructive: removes ${networks.length} HNS network(s)${networks.length ? ` (${networks.join(', ')})` : ''} and ${ghosts.length} ghost adapter(s); the node must reboot after`,
    ],
  };
}

export function networkCleanup(
  options: NetworkCleanupOptions,
): Step<NetworkCleanupDesired, NetworkCleanupActual, NetworkCleanupOutputs> {
  const desired: NetworkCleanupDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `network clean-up ${JSON.stringify(desired.token)}`;
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayNetworkCleanup'], {}, (cleanup) => cleanup),
    diff: diffNetworkCleanup,
    async apply(
      remote: Remote,
      change: Change,
      _actual: NetworkCleanupActual | null,
      d: NetworkCleanupDesired,
    ): Promise<void> {
      if (change.fields.length === 0) return;
      await invoke(remote, REMOTE['Invoke-PlayNetworkCleanup'], { ...d }, title);
    },
    outputs: (_d: Readonly<NetworkCleanupDesired>, a: NetworkCleanupActual | null): NetworkCleanupOutputs => ({
      rebootRequired: a?.rebootPending ?? false,
    }),
  });
}
