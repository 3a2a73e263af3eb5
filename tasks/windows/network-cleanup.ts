// networkCleanup({ token, removeHnsNetworks?, removeGhostAdapters? }): docs/domain.md#step-1-network-clean-up, the
// destructive clean-up of a node that was used before (field note A): every HNS network goes (their
// endpoints with them), and the ghost virtual adapters (network devices in state Error) are removed
// from HKLM\SYSTEM\CurrentControlSet\Enum, which on 1809 is what `netcfg -d` fails to do. A reboot
// completes it (output rebootRequired, true until the node has booted since the clean-up).
//
// Never automatic: it runs once per token (any string the operator picks, e.g. a date), recorded on
// the node; the same token again is a noop, a new token runs it again. `netcfg -d` itself is left out:
// it clears every adapter's IP configuration at the next boot, the SSH session's own included.
import { NOOP, type Change } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_NETWORK_CLEANUP, INVOKE_NETWORK_CLEANUP } from './remote/ps-network.js';
import { oneLine } from './options/win-options.js';

export type NetworkCleanupOptions = { token: string; removeHnsNetworks?: boolean; removeGhostAdapters?: boolean };
export interface NetworkCleanupDesired {
  readonly token: string;
  readonly removeHnsNetworks: boolean;
  readonly removeGhostAdapters: boolean;
}
export type NetworkCleanupActual = Readonly<ResultOf<'Get-PlayNetworkCleanup'>>;
export interface NetworkCleanupOutputs {
  rebootRequired: boolean;
}

const KIND = 'windows.networkCleanup';

export function diffNetworkCleanup(d: Readonly<NetworkCleanupDesired>, a: NetworkCleanupActual | null): Change {
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
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['token', 'removeHnsNetworks', 'removeGhostAdapters']);
  const token = oneLine(r, 'token')!;
  if (token.length > 200) r.fail('token', 'must be at most 200 characters (it is recorded in the registry)');
  const desired: NetworkCleanupDesired = Object.freeze({
    token,
    removeHnsNetworks: r.boolean('removeHnsNetworks', true),
    removeGhostAdapters: r.boolean('removeGhostAdapters', true),
  });
  if (!desired.removeHnsNetworks && !desired.removeGhostAdapters)
    r.fail('removeHnsNetworks', 'and removeGhostAdapters are both false: there is nothing to clean up');
  const title = `network clean-up ${JSON.stringify(token)}`;
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_NETWORK_CLEANUP, {}, (cleanup) => cleanup),
    diff: diffNetworkCleanup,
    async apply(remote: Remote, change: Change): Promise<void> {
      if (change.fields.length === 0) return;
      await invoke(remote, INVOKE_NETWORK_CLEANUP, { ...desired }, title);
    },
    outputs: (_d: Readonly<NetworkCleanupDesired>, a: NetworkCleanupActual | null): NetworkCleanupOutputs => ({
      rebootRequired: a?.rebootPending ?? false,
    }),
  });
}
