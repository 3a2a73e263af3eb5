// hnsHostEndpoint({ name, network, addressPrefix, ipAddress, gateway?, compartmentId?, forwarding? }):
// an HNS endpoint on the node's network, attached to the host (docs/field-notes.md#a-hns-network-and-endpoint: New-HnsEndpoint
// -Name cbr0 -IPAddress 10.160.11.2 -Gateway 0.0.0.0; Attach-HnsHostEndpoint -CompartmentID 1;
// netsh int ipv4 set int "vEthernet (cbr0)" for=en). addressPrefix is the network's (the same
// value as hnsNetwork's): ipAddress must be a host address inside it, checked when the step is
// built. gateway defaults to 0.0.0.0 (directly connected), compartmentId to 1 (the host's default
// compartment, the only one this step can see and attach to), forwarding to true.
// Fields: endpoint (network, ipAddress, gateway: HNS cannot change them, so a difference replaces
// the endpoint), compartmentId, forwarding. Output: { id }.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { formatCidr } from '../common/ipv4.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { HNS_NAME, hostInside, ipv4, networkPrefix, sameAddress } from './options/hns-address.js';
import { GET_HNS_ENDPOINT, NEW_HNS_ENDPOINT, REMOVE_HNS_ENDPOINT, SET_HNS_ENDPOINT_HOST } from './remote/ps-hns.js';
import { matching } from './options/win-options.js';

export type HnsHostEndpointOptions = {
  name: string;
  network: string;
  addressPrefix: string;
  ipAddress: string;
  gateway?: string;
  compartmentId?: number;
  forwarding?: boolean;
};

export interface HnsHostEndpointDesired {
  readonly name: string;
  readonly network: string;
  readonly addressPrefix: string;
  readonly ipAddress: string;
  readonly gateway: string;
  readonly compartmentId: number;
  readonly forwarding: boolean;
}

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

export function diffHnsHostEndpoint(d: Readonly<HnsHostEndpointDesired>, a: HnsHostEndpointActual | null): Change {
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

function readActual(e: ResultOf<'Get-PlayHnsEndpoint'>): HnsHostEndpointActual | null {
  if (e === null) return null;
  const { id, ipAddress, compartmentId, forwarding } = e;
  return { id, network: e.networkName, ipAddress, gateway: e.gateway || '0.0.0.0', compartmentId, forwarding };
}

export function hnsHostEndpoint(
  options: HnsHostEndpointOptions,
): Step<HnsHostEndpointDesired, HnsHostEndpointActual, HnsHostEndpointOutputs> {
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['name', 'network', 'addressPrefix', 'ipAddress', 'gateway', 'compartmentId', 'forwarding']);
  const name = matching(r, 'name', HNS_NAME, 'an HNS endpoint name such as cbr0 (letters, digits, _ . -)');
  const network = matching(r, 'network', HNS_NAME, 'the name of an HNS network such as l2bridge');
  const prefix = networkPrefix(r, 'addressPrefix');
  const ip = ipv4(r, 'ipAddress');
  hostInside(r, 'ipAddress', ip, prefix, 'addressPrefix');
  const gateway = ipv4(r, 'gateway', '0.0.0.0');
  if (gateway.n !== 0) hostInside(r, 'gateway', gateway, prefix, 'addressPrefix');
  if (gateway.n === ip.n) r.fail('gateway', `is the endpoint's own address ${ip.text}`);
  const compartmentId = r.integer('compartmentId', { min: 1 }, 'optional') ?? 1;
  if (compartmentId !== 1)
    r.fail(
      'compartmentId',
      `must be 1, the host's default compartment (other compartments belong to containers), got ${compartmentId}`,
    );
  const desired: HnsHostEndpointDesired = Object.freeze({
    name,
    network,
    addressPrefix: formatCidr(prefix),
    ipAddress: ip.text,
    gateway: gateway.text,
    compartmentId,
    forwarding: r.boolean('forwarding', true),
  });
  const title = `HNS host endpoint ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_HNS_ENDPOINT, { name }, readActual),
    diff: diffHnsHostEndpoint,
    async apply(
      remote: Remote,
      change: Change,
      actual: HnsHostEndpointActual | null,
    ): Promise<Partial<HnsHostEndpointOutputs>> {
      let id: string | undefined;
      if (change.fields.includes('endpoint')) {
        if (actual !== null) await invoke(remote, REMOVE_HNS_ENDPOINT, { name }, `${title}: Remove-PlayHnsEndpoint`);
        const created = await invoke(
          remote,
          NEW_HNS_ENDPOINT,
          { name, networkName: network, ipAddress: ip.text, gateway: gateway.text },
          `${title}: New-PlayHnsEndpoint`,
        );
        id = created.id;
      }
      if (change.fields.includes('compartmentId') || change.fields.includes('forwarding')) {
        await invoke(
          remote,
          SET_HNS_ENDPOINT_HOST,
          { name, compartmentId, forwarding: desired.forwarding },
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
