// HNS networks and endpoints and firewall rules on the simulated Windows node (a test double).
// Creating an L2Bridge network makes the NIC blink: every open SSH connection drops once (docs/field-notes.md#a-hns-network-and-endpoint).
import { randomUUID } from 'node:crypto';
import { WindowsError } from '../errors.js';
import { bindSwitch, physicalByName, sameName, unbindSwitch } from '../adapters.js';
import type { FirewallRuleRecord, HnsNetworkRecord, NodeState } from '../state.js';
import type { Handlers } from './types.js';

/** The steps' functions call HNS (vmcompute.dll HNSCall) directly and report its Error this way. */
const hnsError = (request: string, what: string) => new WindowsError(`HNS ${request} failed: ${what}`);

function ipv4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) return null;
  return m.slice(1).reduce((n, o) => n * 256 + Number(o), 0);
}

function prefix(text: string): { base: number; bits: number } | null {
  const [addr, len, extra] = text.split('/');
  const base = ipv4(addr ?? '');
  const bits = Number(len);
  if (extra !== undefined || base === null || !/^\d{1,2}$/.test(len ?? '') || bits > 32) return null;
  return { base, bits };
}

function inPrefix(ip: number, p: { base: number; bits: number }): boolean {
  const size = 2 ** (32 - p.bits);
  return Math.floor(ip / size) === Math.floor(p.base / size);
}

const PORT_HELP =
  'The port is invalid. When Protocol is TCP or UDP, individual ports or ranges are allowed. Also, the following keywords are allowed on LocalPort: RPC, RPCEPMap, Any, IPHTTPSIn, PlayToDiscovery.';

function checkRule(r: FirewallRuleRecord): void {
  const proto = r.protocol.toUpperCase();
  const named = ['TCP', 'UDP', 'ANY', 'ICMPV4', 'ICMPV6'];
  if (!named.includes(proto) && !(/^\d{1,3}$/.test(proto) && Number(proto) <= 255)) {
    throw new WindowsError(
      'The protocol is invalid. Valid protocols are TCP, UDP, ICMPv4, ICMPv6, Any, or a number from 0 to 255.',
    );
  }
  if (sameName(r.localPort, 'Any')) return;
  if (proto !== 'TCP' && proto !== 'UDP') throw new WindowsError(PORT_HELP);
  for (const part of r.localPort.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(part);
    const lo = Number(m?.[1]);
    const hi = m?.[2] === undefined ? lo : Number(m[2]);
    if (!m || lo < 1 || hi > 65535 || lo > hi) throw new WindowsError(PORT_HELP);
  }
}

/** Its endpoints go with it, and the NIC gets its IP configuration back from the vNIC. */
export function removeNetwork(s: NodeState, n: HnsNetworkRecord): void {
  s.hns.endpoints = s.hns.endpoints.filter((e) => !sameName(e.networkName, n.name));
  s.hns.networks = s.hns.networks.filter((x) => x !== n);
  unbindSwitch(s, n.adapterName);
}

export const networkHandlers = {
  'Get-PlayHnsNetwork': (node, { name }) => {
    const n = node.state.hns.networks.find((x) => sameName(x.name, name));
    return n ? { ...n } : null;
  },

  'New-PlayHnsNetwork': (node, a) => {
    const hns = node.state.hns;
    const nic = physicalByName(node.state, a.adapterName);
    if (!nic) throw hnsError('POST /networks', 'Element not found.');
    const adapter = nic.name;
    const p = prefix(a.addressPrefix);
    const gw = ipv4(a.gateway);
    if (!p || gw === null || !inPrefix(gw, p)) throw hnsError('POST /networks', 'The parameter is incorrect.');
    if (hns.networks.some((x) => sameName(x.name, a.name) || sameName(x.adapterName, adapter)))
      throw hnsError('POST /networks', 'The object already exists.');
    const id = randomUUID().toUpperCase();
    hns.networks.push({
      id,
      name: a.name,
      type: a.type,
      addressPrefix: a.addressPrefix,
      gateway: a.gateway,
      adapterName: adapter,
    });
    bindSwitch(node.state, nic);
    // The vSwitch takes over the NIC: its configuration moves to "vEthernet (eth1)" and the link blinks.
    node.dropConnections();
    return { id };
  },

  'Remove-PlayHnsNetwork': (node, { name }) => {
    const hns = node.state.hns;
    const n = hns.networks.find((x) => sameName(x.name, name));
    if (!n) return {};
    removeNetwork(node.state, n);
    return {};
  },

  'Get-PlayHnsEndpoint': (node, { name }) => {
    const e = node.state.hns.endpoints.find((x) => sameName(x.name, name));
    return e ? { ...e } : null;
  },

  'New-PlayHnsEndpoint': (node, a) => {
    const hns = node.state.hns;
    const n = hns.networks.find((x) => sameName(x.name, a.networkName));
    if (!n) throw new WindowsError(`there is no HNS network named ${a.networkName}`);
    const ip = ipv4(a.ipAddress);
    if (ip === null || ipv4(a.gateway) === null || !inPrefix(ip, prefix(n.addressPrefix)!))
      throw hnsError('POST /endpoints', 'The parameter is incorrect.');
    if (
      hns.endpoints.some(
        (e) => sameName(e.name, a.name) || (sameName(e.networkName, n.name) && e.ipAddress === a.ipAddress),
      )
    )
      throw hnsError('POST /endpoints', 'The object already exists.');
    const id = randomUUID().toUpperCase();
    hns.endpoints.push({
      id,
      name: a.name,
      networkName: n.name,
      ipAddress: a.ipAddress,
      gateway: a.gateway,
      compartmentId: null,
      forwarding: false,
    });
    return { id };
  },

  'Remove-PlayHnsEndpoint': (node, { name }) => {
    const hns = node.state.hns;
    hns.endpoints = hns.endpoints.filter((e) => !sameName(e.name, name));
    return {};
  },

  'Set-PlayHnsEndpointHost': (node, { name, compartmentId, forwarding }) => {
    const e = node.state.hns.endpoints.find((x) => sameName(x.name, name));
    if (!e) throw new WindowsError(`there is no HNS endpoint named ${name}`);
    if (!Number.isInteger(compartmentId) || compartmentId < 0)
      throw hnsError(`POST /endpoints/${e.id}/attach`, 'The parameter is incorrect.');
    e.compartmentId = compartmentId;
    e.forwarding = forwarding;
    return {};
  },

  'Get-PlayFirewallRule': (node, { name }) => {
    const r = node.state.firewall[name.toLowerCase()];
    return r ? { ...r } : null;
  },

  'Set-PlayFirewallRule': (node, a) => {
    const rule: FirewallRuleRecord = { ...a };
    checkRule(rule);
    const existing = node.state.firewall[a.name.toLowerCase()];
    node.state.firewall[a.name.toLowerCase()] = { ...rule, name: existing?.name ?? a.name };
    return {};
  },
} satisfies Partial<Handlers>;
