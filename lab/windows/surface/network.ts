// NICs, IP interfaces, addresses, default routes, DNS servers and network PnP devices as
// the NetAdapter, NetTCPIP, DnsClient and PnpDevice mocks (mock/Network.psm1, mock/Pnp.psm1) read and
// change them, over the model's adapters (adapters.ts: a vSwitch's vNIC carries its NIC's IP
// configuration). The mocks select objects and word "not found" errors themselves, as the CIM
// cmdlets do; these ops give the records and apply changes with Windows' refusals as WindowsErrors.
import { sameName } from '../adapters.js';
import { WindowsError } from '../errors.js';
import { endpointOfVNic } from '../hns-store.js';
import { isIPv4, splitCidr } from '../ipv4.js';
import type { NetAdapterRecord, NodeState } from '../node-state.js';
import { type Args, type Ops, num, optStr, str, strs } from './types.js';

function adapterAt(s: NodeState, a: Args): NetAdapterRecord {
  const index = num(a, 'interfaceIndex');
  const found = s.adapters.find((x) => x.interfaceIndex === index);
  // The mocks look interfaces up first; an unknown index here is a bug in a mock.
  if (!found) throw new Error(`no interface with index ${index} (the mock should have said so)`);
  return found;
}

/** The MAC without dashes, as the device's VMBUS instance ID holds it. */
const macHex = (mac: string) => mac.replace(/-/g, '').toLowerCase();

function description(s: NodeState, a: NetAdapterRecord): string {
  if (a.physical) {
    const device = s.pnpNetDevices.find((d) => d.instanceId.toLowerCase().includes(macHex(a.macAddress)));
    return device?.friendlyName ?? 'Microsoft Hyper-V Network Adapter';
  }
  const n = s.adapters.filter((x) => !x.physical).indexOf(a);
  return n === 0 ? 'Hyper-V Virtual Ethernet Adapter' : `Hyper-V Virtual Ethernet Adapter #${n + 1}`;
}

/**
 * The IPv4 addresses of an interface: the model's list (DHCP leases while DHCP is on, else manual
 * ones); a DHCP interface without a lease has its APIPA address (169.254/16, WellKnown).
 */
function addresses(a: NetAdapterRecord) {
  const base = { interfaceIndex: a.interfaceIndex, interfaceAlias: a.name };
  if (a.dhcp && a.ipv4.length === 0) {
    const [, , , , b5, b6] = a.macAddress.split('-').map((x) => parseInt(x, 16));
    const ip = `169.254.${(b5! % 254) + 1}.${(b6! % 254) + 1}`;
    return [{ ...base, ipAddress: ip, prefixLength: 16, prefixOrigin: 'WellKnown', suffixOrigin: 'Link' }];
  }
  return a.ipv4.map((cidr) => {
    const { address, length } = splitCidr(cidr);
    const origin = a.dhcp ? 'Dhcp' : 'Manual';
    return { ...base, ipAddress: address, prefixLength: length, prefixOrigin: origin, suffixOrigin: origin };
  });
}

const DEFAULT_ROUTE = '0.0.0.0/0';

/** Win32 texts the NetTCPIP and NetAdapter cmdlets report. */
const REFUSED = {
  exists: 'The object already exists.',
  dhcpOn: 'Inconsistent parameters PolicyStore PersistentStore and Dhcp Enabled',
  invalid: 'The parameter is incorrect.',
  routeExists: 'Instance MSFT_NetRoute already exists',
  nameExists: '{Object Exists} An attempt was made to create an object and the object name already existed.',
} as const;

function gap(what: string): Error {
  return new Error(`the simulated node does not model ${what} (lab/windows/surface/network.ts)`);
}

export const networkOps: Ops = {
  'Net.Adapters': (node) =>
    node.state.adapters.map((a) => ({
      name: a.name,
      interfaceDescription: description(node.state, a),
      interfaceIndex: a.interfaceIndex,
      macAddress: a.macAddress,
      physical: a.physical,
    })),

  /** Rename-NetAdapter: a name another adapter has is refused. */
  'Net.Rename': (node, a) => {
    const s = node.state;
    const nic = s.adapters.find((x) => sameName(x.name, str(a, 'name')));
    if (!nic) throw new Error(`no adapter ${str(a, 'name')} (the mock should have said so)`);
    const newName = str(a, 'newName');
    if (s.adapters.some((x) => x !== nic && sameName(x.name, newName))) throw new WindowsError(REFUSED.nameExists);
    // HNS and the vNIC keep naming the NIC as it was (docs/domain.md#step-2-nics-and-dns-client renames before step 8).
    nic.name = newName;
    return null;
  },

  /** IPv4 interfaces of the host's compartment (the model has no IPv6). */
  'Net.IpInterfaces': (node) =>
    node.state.adapters.map((a) => ({
      interfaceIndex: a.interfaceIndex,
      interfaceAlias: a.name,
      dhcp: a.dhcp,
      forwarding: endpointOfVNic(node.state, a)?.forwarding ?? false,
    })),

  /** Set-NetIPInterface -Dhcp / -Forwarding. */
  'Net.SetIpInterface': (node, a) => {
    const ipIf = adapterAt(node.state, a);
    const dhcp = optStr(a, 'dhcp');
    if (dhcp !== null) ipIf.dhcp = dhcp === 'Enabled';
    const forwarding = optStr(a, 'forwarding');
    if (forwarding !== null) {
      const e = endpointOfVNic(node.state, ipIf);
      if (!e) throw gap(`IP forwarding on ${ipIf.name} (it is kept for HNS host endpoints' vNICs only)`);
      e.forwarding = forwarding === 'Enabled';
    }
    return null;
  },

  'Net.IpAddresses': (node) => node.state.adapters.flatMap(addresses),

  /** New-NetIPAddress: not while DHCP is on; an address the node has anywhere already exists. */
  'Net.AddIpAddress': (node, a) => {
    const s = node.state;
    const ipIf = adapterAt(s, a);
    const address = str(a, 'ipAddress');
    const length = num(a, 'prefixLength');
    if (!isIPv4(address) || !Number.isInteger(length) || length < 1 || length > 32)
      throw new WindowsError(REFUSED.invalid);
    if (ipIf.dhcp) throw new WindowsError(REFUSED.dhcpOn);
    if (s.adapters.some((x) => x.ipv4.some((c) => splitCidr(c).address === address)))
      throw new WindowsError(REFUSED.exists);
    ipIf.ipv4.push(`${address}/${length}`);
    return null;
  },

  'Net.RemoveIpAddress': (node, a) => {
    const ipIf = adapterAt(node.state, a);
    const address = str(a, 'ipAddress');
    ipIf.ipv4 = ipIf.ipv4.filter((c) => splitCidr(c).address !== address);
    return null;
  },

  /** The model keeps one route per interface: its default gateway. */
  'Net.Routes': (node) =>
    node.state.adapters
      .filter((a) => a.gateway !== null)
      .map((a) => ({
        interfaceIndex: a.interfaceIndex,
        interfaceAlias: a.name,
        destinationPrefix: DEFAULT_ROUTE,
        nextHop: a.gateway,
      })),

  'Net.AddRoute': (node, a) => {
    const ipIf = adapterAt(node.state, a);
    if (str(a, 'destinationPrefix') !== DEFAULT_ROUTE) throw gap(`routes other than ${DEFAULT_ROUTE}`);
    const nextHop = str(a, 'nextHop');
    if (!isIPv4(nextHop)) throw new WindowsError(REFUSED.invalid);
    if (ipIf.gateway === nextHop) throw new WindowsError(REFUSED.routeExists);
    if (ipIf.gateway !== null) throw gap(`a second default route on ${ipIf.name}`);
    ipIf.gateway = nextHop;
    return null;
  },

  'Net.RemoveRoute': (node, a) => {
    const ipIf = adapterAt(node.state, a);
    if (str(a, 'destinationPrefix') === DEFAULT_ROUTE && ipIf.gateway === str(a, 'nextHop')) ipIf.gateway = null;
    return null;
  },

  'Net.DnsServers': (node) =>
    node.state.adapters.map((a) => ({
      interfaceIndex: a.interfaceIndex,
      interfaceAlias: a.name,
      serverAddresses: [...a.dnsServers],
    })),

  /** Set-DnsClientServerAddress -ServerAddresses (an empty list: -ResetServerAddresses). */
  'Net.SetDnsServers': (node, a) => {
    adapterAt(node.state, a).dnsServers = strs(a, 'serverAddresses');
    return null;
  },

  /** Get-PnpDevice: the model holds the Net class only; Error: a ghost of a removed virtual adapter. */
  'Pnp.Devices': (node) => node.state.pnpNetDevices.map((d) => ({ ...d, class: 'Net', present: d.status === 'OK' })),
};
