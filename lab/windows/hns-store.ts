// HNS networks and endpoints of the simulated Windows node (a test double), with the rules the HNS
// service applies (docs/field-notes.md#a-hns-network-and-endpoint): an L2Bridge network binds its
// vSwitch to a physical NIC (adapters.ts bindSwitch: the NIC's IP configuration moves to
// "vEthernet (<nic>)"); an endpoint attached to the host gets its own vNIC "vEthernet (<endpoint>)"
// with the endpoint's address. The model sees one network compartment, the host's default (1):
// a vNIC attached to another compartment is not in `adapters`. Failures are WindowsErrors with the
// text HNS puts in its response's Error.
import { createHash, randomUUID } from 'node:crypto';
import { bindSwitch, physicalByName, sameName, unbindSwitch, vNicName } from './adapters.js';
import { WindowsError } from './errors.js';
import { isIPv4, parseSubnet, subnetContains } from './ipv4.js';
import type { HnsEndpointRecord, HnsNetworkRecord, NetAdapterRecord, NodeState } from './node-state.js';

export const HNS_ERRORS = {
  notFound: 'Element not found.',
  invalid: 'The parameter is incorrect.',
  exists: 'The object already exists.',
} as const;

/** The compartment the host's own interfaces (and this SSH session) live in. */
export const HOST_COMPARTMENT = 1;

/** Network types HNS knows; the model implements L2Bridge (the one the steps create). */
const KNOWN_TYPES = ['ics', 'internal', 'l2bridge', 'l2tunnel', 'nat', 'overlay', 'private', 'transparent'];

export const byId = <T extends { id: string }>(list: readonly T[], id: string) =>
  list.find((x) => x.id.toLowerCase() === id.toLowerCase());

/** A GUID derived from another (activity and subnet IDs stay the same between reads). */
export function derivedGuid(id: string, what: string): string {
  const h = createHash('sha256').update(`${id}/${what}`).digest('hex').toUpperCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A network's MAC pool, 4096 Hyper-V MACs (00-15-5D-xx-y0-00 to 00-15-5D-xx-yF-FF) HNS hands endpoints. */
export function macPool(n: HnsNetworkRecord): { start: string; end: string } {
  const g = derivedGuid(n.id, 'macpool');
  const base = `00-15-5D-${g.slice(0, 2)}-${g[2]}`;
  return { start: `${base}0-00`, end: `${base}F-FF` };
}

/** An endpoint's MAC, from its network's pool. */
export function endpointMac(s: NodeState, e: HnsEndpointRecord): string {
  const n = networkOf(s, e);
  const h = createHash('sha256').update(e.id.toLowerCase()).digest('hex').toUpperCase();
  return `${(n ? macPool(n).start : '00-15-5D-00-00-00').slice(0, 13)}${h[0]}-${h.slice(1, 3)}`;
}

export function networkOf(s: NodeState, e: HnsEndpointRecord): HnsNetworkRecord | undefined {
  return s.hns.networks.find((n) => sameName(n.name, e.networkName));
}

export interface NewNetwork {
  name: string;
  type: string;
  addressPrefix: string;
  gateway: string;
  adapterName: string;
}

/** POST /networks. The caller makes the NIC blink (node.dropConnections) once this returns. */
export function createNetwork(s: NodeState, a: NewNetwork): HnsNetworkRecord {
  if (!KNOWN_TYPES.includes(a.type.toLowerCase())) throw new WindowsError(HNS_ERRORS.invalid);
  if (a.type.toLowerCase() !== 'l2bridge')
    throw new Error(`the simulated HNS models L2Bridge networks only, not ${a.type} (lab/windows/hns-store.ts)`);
  const nic = physicalByName(s, a.adapterName);
  if (!nic) throw new WindowsError(HNS_ERRORS.notFound);
  const p = parseSubnet(a.addressPrefix);
  if (!p || !isIPv4(a.gateway) || !subnetContains(p, a.gateway)) throw new WindowsError(HNS_ERRORS.invalid);
  if (s.hns.networks.some((x) => sameName(x.name, a.name) || sameName(x.adapterName, nic.name)))
    throw new WindowsError(HNS_ERRORS.exists);
  const n: HnsNetworkRecord = {
    id: randomUUID().toUpperCase(),
    name: a.name,
    type: 'L2Bridge',
    addressPrefix: a.addressPrefix,
    gateway: a.gateway,
    adapterName: nic.name,
  };
  s.hns.networks.push(n);
  bindSwitch(s, nic);
  return n;
}

/** DELETE /networks/<id>: its endpoints go with it, and the NIC gets its IP configuration back. */
export function deleteNetwork(s: NodeState, n: HnsNetworkRecord): void {
  for (const e of s.hns.endpoints.filter((x) => sameName(x.networkName, n.name))) deleteEndpoint(s, e);
  s.hns.networks = s.hns.networks.filter((x) => x !== n);
  unbindSwitch(s, n.adapterName);
}

export interface NewEndpoint {
  network: HnsNetworkRecord;
  name: string;
  ipAddress: string;
  /** '' when the request has none. */
  gateway: string;
}

/** POST /endpoints: an address inside the network's subnet, unique in it; a name unique on the node. */
export function createEndpoint(s: NodeState, a: NewEndpoint): HnsEndpointRecord {
  const n = a.network;
  if (
    !isIPv4(a.ipAddress) ||
    (a.gateway !== '' && !isIPv4(a.gateway)) ||
    !subnetContains(parseSubnet(n.addressPrefix)!, a.ipAddress)
  )
    throw new WindowsError(HNS_ERRORS.invalid);
  const taken = s.hns.endpoints.some(
    (e) => sameName(e.name, a.name) || (sameName(e.networkName, n.name) && e.ipAddress === a.ipAddress),
  );
  if (taken) throw new WindowsError(HNS_ERRORS.exists);
  const e: HnsEndpointRecord = {
    id: randomUUID().toUpperCase(),
    name: a.name,
    networkName: n.name,
    ipAddress: a.ipAddress,
    gateway: a.gateway,
    compartmentId: null,
    forwarding: false,
  };
  s.hns.endpoints.push(e);
  return e;
}

export function deleteEndpoint(s: NodeState, e: HnsEndpointRecord): void {
  detachHost(s, e);
  s.hns.endpoints = s.hns.endpoints.filter((x) => x !== e);
}

/** The host vNIC of an attached endpoint, when it is in the host's compartment (by MAC and name). */
export function hostVNicOf(s: NodeState, e: HnsEndpointRecord): NetAdapterRecord | undefined {
  const mac = endpointMac(s, e);
  return s.adapters.find((a) => !a.physical && a.macAddress === mac && sameName(a.name, vNicName(e.name)));
}

/** The endpoint whose host vNIC this adapter is (netsh and Get-NetIPInterface read its forwarding). */
export function endpointOfVNic(s: NodeState, adapter: NetAdapterRecord): HnsEndpointRecord | undefined {
  if (adapter.physical) return undefined;
  return s.hns.endpoints.find((e) => e.compartmentId !== null && hostVNicOf(s, e) === adapter);
}

/**
 * POST /endpoints/<id>/attach {SystemType: Host, CompartmentId}: the vNIC appears in that
 * compartment, with the endpoint's address; a fresh interface forwards nothing. Attaching again to
 * the same compartment keeps it as it is.
 */
export function attachHost(s: NodeState, e: HnsEndpointRecord, compartmentId: number): void {
  if (!Number.isInteger(compartmentId) || compartmentId < 0) throw new WindowsError(HNS_ERRORS.invalid);
  const vnic = hostVNicOf(s, e);
  if (e.compartmentId === compartmentId && (vnic || compartmentId !== HOST_COMPARTMENT)) return;
  detachHost(s, e);
  e.compartmentId = compartmentId;
  if (compartmentId !== HOST_COMPARTMENT) return;
  const n = networkOf(s, e)!;
  const gateway = e.gateway !== '' && e.gateway !== '0.0.0.0' ? e.gateway : null;
  s.adapters.push({
    name: vNicName(e.name),
    macAddress: endpointMac(s, e),
    interfaceIndex: Math.max(...s.adapters.map((a) => a.interfaceIndex)) + 1,
    physical: false,
    dhcp: false,
    ipv4: [`${e.ipAddress}/${parseSubnet(n.addressPrefix)!.prefix}`],
    gateway,
    dnsServers: [],
  });
}

/** POST /endpoints/<id>/detach: the vNIC goes (detaching a detached endpoint changes nothing). */
export function detachHost(s: NodeState, e: HnsEndpointRecord): void {
  const vnic = hostVNicOf(s, e);
  if (vnic) s.adapters = s.adapters.filter((a) => a !== vnic);
  e.compartmentId = null;
  e.forwarding = false;
}
