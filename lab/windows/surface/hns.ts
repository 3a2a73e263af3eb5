// The HNS v1 JSON API (vmcompute.dll HNSCall) as the host's PlayHns.NativeMethods shim calls it
// (op Hns.Call {method, path, request}): the response TEXT {"Success":true,"Output":...} or
// {"Success":false,"Error":"..."}, with the objects' field names as Get-HnsNetwork and
// Get-HnsEndpoint show them (docs/field-notes.md#a-hns-network-and-endpoint). The rules are
// hns-store.ts's. A request the model does not cover (another path, SystemType, several subnets) is
// a simulator gap, said plainly; an HNS refusal is a Success:false answer, never an exception.
import { WindowsError } from '../errors.js';
import {
  attachHost,
  byId,
  createEndpoint,
  createNetwork,
  deleteEndpoint,
  deleteNetwork,
  derivedGuid,
  detachHost,
  endpointMac,
  HNS_ERRORS,
  macPool,
  networkOf,
} from '../hns-store.js';
import { ipInterfaceOf, physicalByName, sameName } from '../adapters.js';
import { parseSubnet, splitCidr } from '../ipv4.js';
import type { SimulatedWindowsNode } from '../model.js';
import type { HnsEndpointRecord, HnsNetworkRecord, NodeState } from '../node-state.js';
import { type Ops, str } from './types.js';

/** HNS's object version stamp on 1809 (Get-HnsEndpoint's Version). */
const VERSION = 42949672963;

function networkJson(s: NodeState, n: HnsNetworkRecord) {
  const endpoints = s.hns.endpoints.filter((e) => sameName(e.networkName, n.name)).length;
  const nic = physicalByName(s, n.adapterName);
  const vnic = nic ? ipInterfaceOf(s, nic) : undefined;
  const managementIp = vnic && vnic !== nic ? vnic.ipv4[0] : undefined;
  const pool = macPool(n);
  return {
    ActivityId: derivedGuid(n.id, 'activity'),
    CurrentEndpointCount: endpoints,
    Flags: 0,
    ID: n.id,
    IPv6: false,
    MacPools: [{ EndMacAddress: pool.end, StartMacAddress: pool.start }],
    ...(managementIp ? { ManagementIP: splitCidr(managementIp).address } : {}),
    Name: n.name,
    NetworkAdapterName: n.adapterName,
    Policies: [],
    State: 1,
    Subnets: [
      {
        AdditionalParams: {},
        AddressPrefix: n.addressPrefix,
        GatewayAddress: n.gateway,
        ID: derivedGuid(n.id, 'subnet'),
        ObjectType: 5,
        Policies: [],
        State: 0,
      },
    ],
    TotalEndpoints: endpoints,
    Type: n.type,
    Version: VERSION,
  };
}

function endpointJson(s: NodeState, e: HnsEndpointRecord) {
  const n = networkOf(s, e)!;
  return {
    ActivityId: derivedGuid(e.id, 'activity'),
    EncapOverhead: 50,
    Flags: 0,
    // HNS leaves out what it was not given (Get-HnsEndpoint shows no GatewayAddress then).
    ...(e.gateway !== '' ? { GatewayAddress: e.gateway } : {}),
    ID: e.id,
    IPAddress: e.ipAddress,
    MacAddress: endpointMac(s, e),
    Name: e.name,
    Policies: [],
    PrefixLength: parseSubnet(n.addressPrefix)!.prefix,
    SharedContainers: [],
    State: e.compartmentId === null ? 1 : 3,
    Type: n.type,
    Version: VERSION,
    VirtualNetwork: n.id,
    VirtualNetworkName: n.name,
  };
}

type Body = Record<string, unknown>;

/** The request as HNS parses it; not a JSON object: HNS's own refusal. */
function body(request: string): Body {
  let v: unknown;
  try {
    v = JSON.parse(request);
  } catch {
    throw new WindowsError('Invalid JSON document string.');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new WindowsError(HNS_ERRORS.invalid);
  return v as Body;
}

const text = (b: Body, k: string) => (typeof b[k] === 'string' ? (b[k] as string) : '');

function gap(what: string): Error {
  return new Error(`the simulated HNS does not model ${what} (lab/windows/surface/hns.ts)`);
}

function postNetwork(node: SimulatedWindowsNode, b: Body) {
  const subnets = Array.isArray(b.Subnets) ? (b.Subnets as Body[]) : [];
  if (subnets.length > 1) throw gap('a network with several subnets');
  if (Array.isArray(b.Policies) && b.Policies.length > 0) throw gap('network policies');
  const subnet = subnets[0] ?? {};
  const n = createNetwork(node.state, {
    name: text(b, 'Name'),
    type: text(b, 'Type'),
    addressPrefix: text(subnet, 'AddressPrefix'),
    gateway: text(subnet, 'GatewayAddress'),
    adapterName: text(b, 'NetworkAdapterName'),
  });
  // The vSwitch takes the NIC over: its configuration moves to "vEthernet (<nic>)" and the link
  // blinks, dropping every open connection once (docs/domain.md#step-8-hns-network).
  node.dropConnections();
  return networkJson(node.state, n);
}

function postEndpoint(s: NodeState, b: Body) {
  if (Array.isArray(b.Policies) && b.Policies.length > 0) throw gap('endpoint policies');
  const network = byId(s.hns.networks, text(b, 'VirtualNetwork'));
  if (!network) throw new WindowsError(HNS_ERRORS.notFound);
  const e = createEndpoint(s, {
    network,
    name: text(b, 'Name'),
    ipAddress: text(b, 'IPAddress'),
    gateway: text(b, 'GatewayAddress'),
  });
  return endpointJson(s, e);
}

function endpointAction(s: NodeState, e: HnsEndpointRecord, action: string, b: Body): void {
  if (text(b, 'SystemType') !== 'Host') throw gap(`attaching to a ${text(b, 'SystemType') || 'missing'} SystemType`);
  if (action === 'attach') {
    const id = b.CompartmentId;
    attachHost(s, e, typeof id === 'number' ? id : Number.NaN);
  } else detachHost(s, e);
}

/** The Output of one request, or a WindowsError with HNS's Error text. */
function answer(node: SimulatedWindowsNode, method: string, path: string, request: string): unknown {
  const s = node.state;
  const [, kind, id, action, extra] = path.split('/');
  const route = `${method} /${kind}${id === undefined ? '' : '/<id>'}${action === undefined ? '' : `/${action}`}`;
  if (extra !== undefined || (kind !== 'networks' && kind !== 'endpoints')) throw gap(`${method} ${path}`);
  if (kind === 'networks') {
    switch (route) {
      case 'GET /networks':
        return s.hns.networks.map((n) => networkJson(s, n));
      case 'POST /networks':
        return postNetwork(node, body(request));
      case 'GET /networks/<id>':
      case 'DELETE /networks/<id>': {
        const n = byId(s.hns.networks, id!);
        if (!n) throw new WindowsError(HNS_ERRORS.notFound);
        if (method === 'GET') return networkJson(s, n);
        deleteNetwork(s, n);
        return null;
      }
    }
    throw gap(`${method} ${path}`);
  }
  switch (route) {
    case 'GET /endpoints':
      return s.hns.endpoints.map((e) => endpointJson(s, e));
    case 'POST /endpoints':
      return postEndpoint(s, body(request));
  }
  const e = id === undefined ? undefined : byId(s.hns.endpoints, id);
  if (route === 'GET /endpoints/<id>' || route === 'DELETE /endpoints/<id>') {
    if (!e) throw new WindowsError(HNS_ERRORS.notFound);
    if (method === 'GET') return endpointJson(s, e);
    deleteEndpoint(s, e);
    return null;
  }
  if (route === 'POST /endpoints/<id>/attach' || route === 'POST /endpoints/<id>/detach') {
    if (!e) throw new WindowsError(HNS_ERRORS.notFound);
    endpointAction(s, e, action!, body(request));
    return null;
  }
  throw gap(`${method} ${path}`);
}

export const hnsOps: Ops = {
  'Hns.Call': (node, a) => {
    const method = str(a, 'method');
    const path = str(a, 'path');
    try {
      const output = answer(node, method, path, str(a, 'request'));
      // Requests that return no object answer {"Success":true} alone.
      return JSON.stringify(output === null ? { Success: true } : { Success: true, Output: output });
    } catch (e) {
      if (!(e instanceof WindowsError)) throw e;
      return JSON.stringify({ Success: false, Error: e.message });
    }
  },
};
