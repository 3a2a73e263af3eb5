// hnsNetwork({ name, type: 'L2Bridge', addressPrefix, gateway, adapterName, allowReplace? }): the HNS
// network of the node's pod CIDR, bridged to a physical adapter (docs/field-notes.md#a-hns-network-and-endpoint:
// `New-HNSNetwork -Type L2Bridge -AddressPrefix 10.160.11.0/24 -Gateway 10.160.11.1 -Name l2bridge
// -AdapterName eth1`). Fields: type, addressPrefix, gateway, adapterName. Output: { id }.
//
// HNS cannot change a network in place: a difference is a `replace` (Remove-PlayHnsNetwork, then
// New-PlayHnsNetwork), which cuts every pod of the node off, so apply refuses it unless
// allowReplace is true (the plan warns). Creating the network makes the adapter blink and can drop
// our own connection (docs/domain.md#step-8-hns-network): apply then treats the call as maybe applied, waits for the host
// to answer again and lets the runner's probe after apply decide (connection-loss.ts).
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { formatCidr } from '../common/ipv4.js';
import { invoke, probeCall, stepFailure } from './remote/calls.js';
import { REAL_CLOCK, type Clock } from './remote/clock.js';
import type { ResultOf } from './remote/contract.js';
import { surviveConnectionLoss } from './remote/connection-loss.js';
import {
  ADAPTER_NAME,
  HNS_NAME,
  hostInside,
  ipv4,
  networkPrefix,
  sameAddress,
  samePrefix,
} from './options/hns-address.js';
import { GET_HNS_NETWORK, NEW_HNS_NETWORK, REMOVE_HNS_NETWORK } from './remote/ps-hns.js';
import { accepted, checked, type Refuse } from './options/checked.js';
import { textMatching } from './options/win-options.js';

const Options = checked(
  z.strictObject({
    name: textMatching(HNS_NAME, 'an HNS network name such as l2bridge (letters, digits, _ . -)'),
    type: accepted<'L2Bridge'>(
      (v) => v === 'L2Bridge',
      (v) => `must be 'L2Bridge' (the only network type this step manages), got ${JSON.stringify(v)}`,
    ),
    addressPrefix: networkPrefix(),
    gateway: ipv4(),
    adapterName: textMatching(ADAPTER_NAME, 'a network adapter name such as eth1'),
    allowReplace: z.boolean().default(false),
  }),
  (o, refuse: Refuse) => {
    hostInside(refuse, 'gateway', o.gateway, o.addressPrefix, 'addressPrefix');
    return { ...o, addressPrefix: formatCidr(o.addressPrefix), gateway: o.gateway.text };
  },
);

export type HnsNetworkOptions = z.input<typeof Options>;
export type HnsNetworkDesired = Readonly<z.output<typeof Options>>;

export type HnsNetworkActual = Readonly<NonNullable<ResultOf<'Get-PlayHnsNetwork'>>>;

export interface HnsNetworkOutputs {
  id: string | null;
}

const KIND = 'windows.hnsNetwork';
const FIELDS = ['type', 'addressPrefix', 'gateway', 'adapterName'] as const;

function differs(field: (typeof FIELDS)[number], d: HnsNetworkDesired, a: HnsNetworkActual): boolean {
  switch (field) {
    case 'type':
      return d.type.toLowerCase() !== a.type.toLowerCase();
    case 'addressPrefix':
      return !samePrefix(d.addressPrefix, a.addressPrefix);
    case 'gateway':
      return !sameAddress(d.gateway, a.gateway);
    case 'adapterName':
      return d.adapterName.toLowerCase() !== a.adapterName.toLowerCase();
  }
}

export function diffHnsNetwork(d: Readonly<HnsNetworkDesired>, a: HnsNetworkActual | null): Change {
  const after: Fields = {
    type: d.type,
    addressPrefix: d.addressPrefix,
    gateway: d.gateway,
    adapterName: d.adapterName,
  };
  if (a === null) {
    return {
      action: 'create',
      fields: [...FIELDS],
      before: null,
      after,
      warnings: [`creating the network makes ${d.adapterName} blink: connections over it may drop for a moment`],
    };
  }
  const changed = FIELDS.filter((f) => differs(f, d, a));
  if (changed.length === 0) return NOOP;
  const pick = (o: Fields) => Object.fromEntries(changed.map((f) => [f, o[f]]));
  const warning = d.allowReplace
    ? `HNS networks cannot be changed in place: ${d.name} will be removed and created again, cutting off every endpoint on it`
    : `HNS networks cannot be changed in place: replacing ${d.name} cuts off every endpoint on it, so apply will refuse (set allowReplace: true to allow it)`;
  return { action: 'replace', fields: changed, before: pick({ ...a }), after: pick(after), warnings: [warning] };
}

export function hnsNetwork(
  options: HnsNetworkOptions,
  clock: Clock = REAL_CLOCK,
): Step<HnsNetworkDesired, HnsNetworkActual, HnsNetworkOutputs> {
  const desired: HnsNetworkDesired = Object.freeze(readOptions(KIND, Options, options));
  const { name } = desired;
  const title = `HNS network ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_HNS_NETWORK, { name }, (network) => network),
    diff: diffHnsNetwork,
    async apply(
      remote: Remote,
      change: Change,
      _actual: HnsNetworkActual | null,
      d: HnsNetworkDesired,
    ): Promise<Partial<HnsNetworkOutputs>> {
      if (change.action === 'noop') return {};
      const { allowReplace, ...args } = d;
      if (change.action === 'replace') {
        if (!allowReplace)
          throw stepFailure(
            title,
            `differs in ${change.fields.join(', ')} and HNS cannot change a network in place; set allowReplace: true to remove and create it again`,
          );
        await invoke(remote, REMOVE_HNS_NETWORK, { name: d.name }, `${title}: Remove-PlayHnsNetwork`);
      }
      const outcome = await surviveConnectionLoss(
        () => invoke(remote, NEW_HNS_NETWORK, args, `${title}: New-PlayHnsNetwork`),
        () => invoke(remote, GET_HNS_NETWORK, { name: d.name }, `${title}: Get-PlayHnsNetwork`),
        clock,
      );
      // Maybe applied: the id comes from the probe after apply (outputs()).
      return outcome.applied === true ? { id: outcome.value.id } : {};
    },
    outputs: (_d: Readonly<HnsNetworkDesired>, a: HnsNetworkActual | null): HnsNetworkOutputs => ({
      id: a?.id ?? null,
    }),
  });
}
