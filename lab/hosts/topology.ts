// The lab's network plan, pure: host names, groups, addresses and interface names. Everything the lab
// touches lies in 198.18.0.0/15 (the benchmarking range) and stays on this machine: a bridge in the
// root namespace, one veth per host, no default route inside the hosts; past one bridge's ports, more
// bridges joined to it as one segment (segments.ts); for jump hosts, a second bridge the root namespace
// cannot reach (PRIVATE_BRIDGE).

import { UsageError } from '../../runner/index.js';

/** `bastion` hosts have a leg on playlab0 and one on PRIVATE_BRIDGE; `private` hosts only the latter:
 *  they are reached through a bastion (a jump host), never from the root namespace. */
export type LabGroup = 'linux' | 'tor' | 'windows' | 'control' | 'bastion' | 'private';

export const BRIDGE = 'playlab0';
export const BRIDGE_ADDRESS = '198.18.0.1';
/** Fixed, like every host's (see macFor): a bridge otherwise takes its lowest port's MAC, which
 *  changes as hosts come and go and leaves the hosts' ARP entries for 198.18.0.1 pointing nowhere. */
export const BRIDGE_MAC = macFor(BRIDGE_ADDRESS);
export const PREFIX_LENGTH = 24;
/** Routed onto the bridge in the root namespace: the root namespace has a default route, so without
 *  this a packet to an unassigned lab address (a future VIP, say) would leave the machine. */
export const LAB_ROUTE = '198.18.0.0/15';
/** The host's side of its veth pair, inside its namespace. */
export const HOST_IFACE = 'eth1';
/** Linux's limit on interface names (IFNAMSIZ - 1). */
export const MAX_IFNAME = 15;

// Host addresses: tor hosts 198.18.0.11-100, linux1..154 198.18.0.101-254 (.1 is the bridge,
// .2-.10 are left for VIPs and the like). Simulated Windows nodes (lab/windows/, a test double) have
// a block of their own, 198.18.1.0/24, named as in the field notes: node009 is 198.18.1.9, node010
// 198.18.1.10, ... (the first is node009; the last, node254, is 198.18.1.254). The cluster's control
// host (a Linux host with the real kubectl and the API double of lab/cluster/, a test double) is control1 at
// 198.18.0.5, taken from the .2-.10 block (one only). Linux hosts beyond 154 continue at 198.18.16.1,
// 254 to a /24 (.1-.254), up to linux4000 at 198.18.31.x: below the private segment 198.18.32.0/24 and
// far below 198.18.240.0/20 (the simulated cluster's service CIDR); 198.19.0.0/16 (pod CIDRs, VIPs) is
// never used for hosts.
// Jump hosts: bastion1..9 have their playlab0 leg at 198.18.2.1-9 and their second leg at
// 198.18.32.1-9, on the private segment 198.18.32.0/24 (bridge PRIVATE_BRIDGE), where the hosts
// behind them, private1..244, are 198.18.32.11-254. The root namespace has no address on that bridge
// and the private hosts have no route beyond their /24: only a bastion reaches them.
const FIRST: Record<LabGroup, number> = { tor: 11, linux: 101, windows: 9, control: 5, bastion: 1, private: 11 };
const SUBNET: Record<LabGroup, string> = {
  tor: '198.18.0',
  linux: '198.18.0',
  windows: '198.18.1',
  control: '198.18.0',
  bastion: '198.18.2',
  private: '198.18.32',
};
/** The bridge of the hosts behind a bastion: no address in the root namespace, no route to it. */
export const PRIVATE_BRIDGE = 'playlab1';
export const PRIVATE_SUBNET = '198.18.32';
/** A bastion's interface on the private bridge, inside its namespace. */
export const PRIVATE_IFACE = 'eth2';
/** linux1..154 fill 198.18.0.101-254; the later ones start at 198.18.16.1. */
const LINUX_IN_FIRST_SUBNET = 154;
const WIDE_LINUX_THIRD_OCTET = 16;
const HOSTS_PER_SUBNET = 254;
/** A Linux bridge has at most 1024 ports, port number 0 reserved: the 1024th fails with EXFULL
 *  ("Exchange full"), as tried on this project's machine. Every lab host is one port of a bridge. */
export const BRIDGE_MAX_PORTS = 1023;
/** linux1..600 are ports of playlab0 (beside every tor, Windows, control and bastion host: 946 ports at
 *  most, and one uplink per segment bridge); the later ones fill segment bridges of 1,000 hosts each. */
export const LINUX_ON_MAIN_BRIDGE = 600;
export const HOSTS_PER_SEGMENT = 1000;
/** Four segment bridges; the addresses stop short of the private segment 198.18.32.0/24 (linux4219). */
export const MAX_SEGMENTS = 4;
export const MAX_HOSTS: Record<LabGroup, number> = {
  tor: 90,
  linux: 4000,
  windows: 246,
  control: 1,
  bastion: 9,
  private: 244,
};
/** The `play lab up` flag that asks for each group. */
export const COUNT_FLAG: Record<LabGroup, string> = {
  linux: '--linux',
  tor: '--tor',
  windows: '--windows',
  control: '--control',
  bastion: '--bastion',
  private: '--behind-bastion',
};
/** Windows node numbers start here: windows index 1 is node009. */
export const FIRST_WINDOWS_NODE = 9;
/** Inventory order; control, then the jump host groups last, so adding them moves no other host. */
export const GROUPS: readonly LabGroup[] = ['linux', 'tor', 'windows', 'control', 'bastion', 'private'];
/** Groups a lab without jump hosts never mentions: counted (and written to state.json) only when asked for. */
const JUMP_GROUPS = ['bastion', 'private'] as const;

export interface LabCounts {
  linux: number;
  tor: number;
  windows: number;
  /** The cluster's control host control1 (0 or 1). */
  control: number;
  /** Jump hosts bastion1.. (absent: 0). */
  bastion?: number;
  /** Hosts private1.. reachable only through a bastion (absent: 0). */
  private?: number;
}

/** Counts as callers give them: control (and the jump host groups) may be left out (0). */
export type LabCountsInput = Omit<LabCounts, 'control'> & Partial<Pick<LabCounts, 'control'>>;

export interface HostPlan {
  /** Also the network namespace's name and the host's hostname. */
  name: string;
  group: LabGroup;
  index: number;
  address: string;
  prefixLength: number;
  /** Network namespace name (the host's name, exactly). */
  namespace: string;
  /** The interface inside the namespace. */
  iface: string;
  /** eth1's MAC, derived from the address: a host rebuilt in a new namespace keeps it, so the
   *  neighbours' ARP caches stay right (a new random MAC makes them time out for up to a minute). */
  mac: string;
  /** The root namespace's end of the veth pair, a port of the bridge. */
  veth: string;
  /** On-link routes inside the namespace beyond the address's own subnet (`ip route replace R dev iface`):
   *  every host reaches the bridge and the hosts of other /24s (Windows nodes, linux155..) through the
   *  lab route; the hosts of 198.18.0.0/24 need it too, to answer those. Hosts behind a bastion have
   *  none: only their own /24. */
  routes: string[];
  /** The bridge the veth is a port of, when not on the lab's segment (hosts behind a bastion: PRIVATE_BRIDGE). */
  bridge?: string;
  /** On the lab's segment but past playlab0's ports: the number of its segment bridge (segments.ts). */
  segment?: number;
  /** A bastion's second interface, on PRIVATE_BRIDGE. */
  privateLeg?: PrivateLeg;
}

export interface PrivateLeg {
  iface: string;
  address: string;
  prefixLength: number;
  mac: string;
  /** Its root namespace end, a port of PRIVATE_BRIDGE. */
  veth: string;
}

export function hostName(group: LabGroup, index: number): string {
  if (group === 'windows') return `node${String(FIRST_WINDOWS_NODE + index - 1).padStart(3, '0')}`;
  return `${group}${index}`;
}

/** linux3 -> { group: 'linux', index: 3 }, node010 -> { group: 'windows', index: 2 }; anything else -> undefined. */
export function parseHostName(name: string): { group: LabGroup; index: number } | undefined {
  const node = /^node([0-9]{3})$/.exec(name);
  if (node) {
    const index = Number(node[1]) - FIRST_WINDOWS_NODE + 1;
    return index >= 1 && index <= MAX_HOSTS.windows ? { group: 'windows', index } : undefined;
  }
  const m = /^(linux|tor|control|bastion|private)([1-9][0-9]*)$/.exec(name);
  if (!m) return undefined;
  const group = m[1] as LabGroup;
  const index = Number(m[2]);
  return index <= MAX_HOSTS[group] ? { group, index } : undefined;
}

export function vethName(host: string): string {
  const name = `pl-${host}`;
  if (name.length > MAX_IFNAME) throw new RangeError(`veth name ${name} is longer than ${MAX_IFNAME} characters`);
  return name;
}

/** The host a bridge port belongs to (pl-linux3 -> linux3), for finding hosts when state.json is lost. */
export function hostOfVeth(veth: string): string | undefined {
  if (!veth.startsWith('pl-')) return undefined;
  const host = veth.slice(3);
  return parseHostName(host) ? host : undefined;
}

export function hostAddress(group: LabGroup, index: number): string {
  if (!Number.isInteger(index) || index < 1 || index > MAX_HOSTS[group]) {
    throw new RangeError(`${group} host index ${index} is outside 1..${MAX_HOSTS[group]}`);
  }
  if (group === 'linux' && index > LINUX_IN_FIRST_SUBNET) {
    const n = index - LINUX_IN_FIRST_SUBNET - 1;
    return `198.18.${WIDE_LINUX_THIRD_OCTET + Math.floor(n / HOSTS_PER_SUBNET)}.${1 + (n % HOSTS_PER_SUBNET)}`;
  }
  return `${SUBNET[group]}.${FIRST[group] + index - 1}`;
}

/** 198.18.0.103 -> 02:00:c6:12:00:67 (locally administered, unicast). */
export function macFor(address: string): string {
  return ['02', '00', ...address.split('.').map((o) => Number(o).toString(16).padStart(2, '0'))].join(':');
}

/** True when the IPv4 address lies in 198.18.0.0/15: the only addresses the lab may send to. */
export function inLabRange(address: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!m) return false;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return false;
  return octets[0] === 198 && (octets[1] === 18 || octets[1] === 19);
}

export function planHost(group: LabGroup, index: number): HostPlan {
  const name = hostName(group, index);
  return {
    name,
    group,
    index,
    address: hostAddress(group, index),
    prefixLength: PREFIX_LENGTH,
    namespace: name,
    iface: HOST_IFACE,
    mac: macFor(hostAddress(group, index)),
    veth: vethName(name),
    routes: [LAB_ROUTE],
    ...(group === 'private' ? { bridge: PRIVATE_BRIDGE, routes: [] } : {}),
    ...(group === 'linux' && index > LINUX_ON_MAIN_BRIDGE ? { segment: segmentOf(index) } : {}),
    ...(group === 'bastion' ? { privateLeg: privateLegOf(name, index) } : {}),
  };
}

/** linux601..1600 -> 1, linux1601..2600 -> 2, ... */
function segmentOf(linuxIndex: number): number {
  return 1 + Math.floor((linuxIndex - LINUX_ON_MAIN_BRIDGE - 1) / HOSTS_PER_SEGMENT);
}

/** A bastion's leg on the private segment: 198.18.32.N for bastionN. */
function privateLegOf(name: string, index: number): PrivateLeg {
  const address = `${PRIVATE_SUBNET}.${index}`;
  return {
    iface: PRIVATE_IFACE,
    address,
    prefixLength: PREFIX_LENGTH,
    mac: macFor(address),
    veth: privateVethName(name),
  };
}

/** The root namespace's end of a bastion's private leg. */
export function privateVethName(host: string): string {
  return `plp-${host}`;
}

const countOf = (counts: LabCountsInput, group: LabGroup): number => counts[group] ?? 0;

/** Each count a whole number in its group's range (each bridge's ports follow: see LINUX_ON_MAIN_BRIDGE).
 *  A UsageError naming the flag: every count reaches here from the command line. */
export function validateCounts(counts: LabCountsInput): void {
  for (const group of GROUPS) {
    const n = countOf(counts, group);
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > MAX_HOSTS[group]) {
      throw new UsageError(
        `${COUNT_FLAG[group]} ${n}: the lab can have 0..${MAX_HOSTS[group]} ${group} hosts (a whole number)`,
      );
    }
  }
  if (countOf(counts, 'private') > 0 && countOf(counts, 'bastion') === 0)
    throw new UsageError(`--behind-bastion ${counts.private}: hosts behind a bastion need one: add --bastion 1`);
}

/** linux1..linuxN, tor1..torM, node009.. (Windows), then control1, in inventory order. */
export function planTopology(counts: LabCountsInput): HostPlan[] {
  validateCounts(counts);
  const hosts: HostPlan[] = [];
  for (const group of GROUPS) {
    const n = countOf(counts, group);
    for (let i = 1; i <= n; i++) hosts.push(planHost(group, i));
  }
  return hosts;
}

/** Never shrink: a host that exists stays (other users of the lab may be on it). A count missing from
 *  an older state file is 0. */
export function mergeCounts(existing: Partial<LabCounts>, requested: Partial<LabCounts>): LabCounts {
  const max = (g: LabGroup) => Math.max(existing[g] ?? 0, requested[g] ?? 0);
  const jumps = Object.fromEntries(JUMP_GROUPS.filter((g) => max(g) > 0).map((g) => [g, max(g)]));
  return { linux: max('linux'), tor: max('tor'), windows: max('windows'), control: max('control'), ...jumps };
}
