// windows.hnsHostEndpoint({ name, network, addressPrefix, ipAddress, gateway?, compartmentId?, forwarding? }):
// an HNS endpoint on the node's network, attached to the host (docs/field-notes.md#a-hns-network-and-endpoint: New-HnsEndpoint
// -Name cbr0 -IPAddress 10.160.11.2 -Gateway 0.0.0.0; Attach-HnsHostEndpoint -CompartmentID 1;
// netsh int ipv4 set int "vEthernet (cbr0)" for=en). addressPrefix is the network's (the same
// value as hnsNetwork's): ipAddress must be a host address inside it, checked when the step is
// built. gateway defaults to 0.0.0.0 (directly connected), compartmentId to 1 (the host's default
// compartment, the only one this step can see and attach to), forwarding to true.
// Fields: endpoint (network, ipAddress, gateway: HNS cannot change them, so a difference replaces
// the endpoint), compartmentId, forwarding. Output: { id }.
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { integer, readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { formatCidr } from '../../../common/ipv4.js';
import { invoke, probeCall } from '../../remote/calls.js';
import { HNS_NAME, hostInside, ipv4, networkPrefix, sameAddress } from '../../options/hns-address.js';
import { checked, type Refuse } from '../../options/checked.js';
import { textMatching } from '../../options/win-options.js';
import type { FunctionResult } from '../step-remote.js';
import { HNS_HOST_ENDPOINT_REMOTE as REMOTE } from './remote.js';

/** 0.0.0.0: directly connected, no gateway. */
const NO_GATEWAY = { text: '0.0.0.0', n: 0 };

const Options = checked(
  z.strictObject({
    name: textMatching(HNS_NAME, 'an HNS endpoint name such as cbr0 (letters, digits, _ . -)'),
    network: textMatching(HNS_NAME, 'the name of an HNS network such as l2bridge'),
    addressPrefix: networkPrefix(),
    ipAddress: ipv4(),
    gateway: ipv4().optional(),
    compartmentId: integer({ min: 1 })
      .refine((v) => v === 1, {
        error: (iss) =>
          `must be 1, the host's default compartment (other compartments belong to containers), got ${String(iss.input)}`,
      })
      .default(1),
    forwarding: z.boolean().default(true),
  }),
  (o, refuse: Refuse) => {
    const ip = o.ipAddress;
    const gateway = o.gateway ?? NO_GATEWAY;
    hostInside(refuse, 'ipAddress', ip, o.addressPrefix, 'addressPrefix');
    if (gateway.n !== 0) hostInside(refuse, 'gateway', gateway, o.addressPrefix, 'addressPrefix');
    if (gateway.n === ip.n) refuse(`is the endpoint's own address ${ip.text}`, 'gateway');
    return {
      name: o.name,
      network: o.network,
      addressPrefix: formatCidr(o.addressPrefix),
      ipAddress: ip.text,
      gateway: gateway.text,
      compartmentId: o.compartmentId,
      forwarding: o.forwarding,
    };
  },
);

export type HnsHostEndpointOptions = z.input<typeof Options>;
export type HnsHostEndpointDesired = Readonly<z.output<typeof Options>>;

export interface HnsHostEndpointActual {
  readonly id: string;
  readonly network: string;
  readonly ipAddress: string;
  /** '' from HNS (no GatewayAddress) reads as 0.0.0.0: both mean directly connected. */
  readonly gateway: string;
  readonly compartmentId: number | null;
  readonly forwarding: boolean;
}

export interface HnsHostEndpointOutputs {
  id: string | null;
}

const KIND = 'windows.hnsHostEndpoint';

function diffHnsHostEndpoint(d: Readonly<HnsHostEndpointDesired>, a: HnsHostEndpointActual | null): Change {
  const endpointView = (x: { network: string; ipAddress: string; gateway: string }) =>
    `${x.ipAddress} on ${x.network}, gateway ${x.gateway}`;
  if (a === null) {
    return {
      action: 'create',
      fields: ['endpoint', 'compartmentId', 'forwarding'],
      before: null,
      after: { endpoint: endpointView(d), compartmentId: d.compartmentId, forwarding: d.forwarding },
    };
  }
  const replace =
    a.network.toLowerCase() !== d.network.toLowerCase() ||
    !sameAddress(a.ipAddress, d.ipAddress) ||
    !sameAddress(a.gateway, d.gateway);
  const fields: string[] = [];
  const before: Fields = {},
    after: Fields = {};
  if (replace) {
    fields.push('endpoint');
    before.endpoint = endpointView(a);
    after.endpoint = endpointView(d);
  }
  // A new endpoint starts detached: attaching and forwarding follow a replacement.
  if (replace || a.compartmentId !== d.compartmentId) {
    fields.push('compartmentId');
    before.compartmentId = a.compartmentId;
    after.compartmentId = d.compartmentId;
  }
  if (replace || a.forwarding !== d.forwarding) {
    fields.push('forwarding');
    before.forwarding = a.forwarding;
    after.forwarding = d.forwarding;
  }
  if (fields.length === 0) return NOOP;
  return { action: replace ? 'replace' : 'update', fields, before, after };
}

function readActual(e: FunctionResult<(typeof REMOTE)['Get-PlayHnsEndpoint']>): HnsHostEndpointActual | null {
  if (e === null) return null;
  const { id, ipAddress, compartmentId, forwarding } = e;
  return { id, network: e.networkName, ipAddress, gateway: e.gateway || '0.0.0.0', compartmentId, forwarding };
}

export function hnsHostEndpoint(
  options: HnsHostEndpointOptions,
): Step<HnsHostEndpointDesired, HnsHostEndpointActual, HnsHostEndpointOutputs> {
  const desired: HnsHostEndpointDesired = Object.freeze(readOptions(KIND, Options, options));
  const { name } = desired;
  const title = `HNS host endpoint ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayHnsEndpoint'], { name }, readActual),
    diff: diffHnsHostEndpoint,
    async apply(
      remote: Remote,
      change: Change,
      actual: HnsHostEndpointActual | null,
      d: HnsHostEndpointDesired,
    ): Promise<Partial<HnsHostEndpointOutputs>> {
      let id: string | undefined;
      const { name, compartmentId, forwarding } = d;
      if (change.fields.includes('endpoint')) {
        if (actual !== null)
          await invoke(remote, REMOTE['Remove-PlayHnsEndpoint'], { name }, `${title}: Remove-PlayHnsEndpoint`);
        const created = await invoke(
          remote,
          REMOTE['New-PlayHnsEndpoint'],
          { name, networkName: d.network, ipAddress: d.ipAddress, gateway: d.gateway },
          `${title}: New-PlayHnsEndpoint`,
        );
        id = created.id;
      }
      if (change.fields.includes('compartmentId') || change.fields.includes('forwarding')) {
        await invoke(
          remote,
          REMOTE['Set-PlayHnsEndpointHost'],
          { name, compartmentId, forwarding },
          `${title}: attach and forwarding`,
        );
      }
      return id === undefined ? {} : { id };
    },
    outputs: (_d: Readonly<HnsHostEndpointDesired>, a: HnsHostEndpointActual | null): HnsHostEndpointOutputs => ({
      id: a?.id ?? null,
    }),
  });
}
