// The lab's network: the bridge in the root namespace (with the route that keeps every lab address
// on this machine), its segment bridges past 1,023 ports (segments.ts), and per host a network
// namespace joined to its bridge by a veth pair.
// Every function is idempotent: it checks /run/netns and /sys/class/net and fixes what is missing.
import { existsSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { mapLimit, run, runInput, BRIDGE_TOOL, IP } from '../exec.js';
import { namespacePath } from './sshd.js';
import { BRIDGE, BRIDGE_ADDRESS, BRIDGE_MAC, LAB_ROUTE, PREFIX_LENGTH, inLabRange } from './topology.js';
import {
  bridgeOf,
  forwardingLines,
  hubUplink,
  onLabSegment,
  segmentBridge,
  segmentLinkLines,
  segmentOfBridge,
  segmentsFor,
} from './segments.js';
import type { HostPlan } from './topology.js';

function linkExists(name: string): boolean {
  return existsSync(`/sys/class/net/${name}`);
}

export function namespaceExists(ns: string): boolean {
  return existsSync(namespacePath(ns));
}

export async function ensureBridge(): Promise<void> {
  const exists = linkExists(BRIDGE);
  const mac = exists ? readFileSync(`/sys/class/net/${BRIDGE}/address`, 'utf8').trim() : '';
  await runInput(
    IP,
    ['-batch', '-'],
    [
      ...(exists ? [] : [`link add ${BRIDGE} type bridge`]),
      // Only when it differs: setting a bridge's address flushes its neighbour entries, permanent ones too.
      ...(mac === BRIDGE_MAC ? [] : [`link set ${BRIDGE} address ${BRIDGE_MAC}`]),
      // No IPv6 link-local address, so no neighbour discovery or MLD chatter (see namespaceBatch).
      `link set ${BRIDGE} addrgenmode none`,
      `addr replace ${BRIDGE_ADDRESS}/${PREFIX_LENGTH} dev ${BRIDGE}`,
      `link set ${BRIDGE} up`,
      // The root namespace has a default route: without this, a packet for a lab address that no host
      // holds (yet) would go out through it. With it, every 198.18.0.0/15 packet stays on the bridge.
      `route replace ${LAB_ROUTE} dev ${BRIDGE}`,
    ].join('\n') + '\n',
  );
}

/** The bridge port exists, is attached to the bridge, and its namespace is there. */
export function hostNetworkLooksUp(host: HostPlan): boolean {
  if (!namespaceExists(host.namespace)) return false;
  try {
    return basename(readlinkSync(`/sys/class/net/${host.veth}/master`)) === bridgeOf(host);
  } catch {
    return false;
  }
}

/** The namespace's routing table (as seen by a process in it) has each of the host's routes on its iface. */
export function routesPresent(host: HostPlan, pid: number): boolean {
  let table: string;
  try {
    table = readFileSync(`/proc/${pid}/net/route`, 'utf8');
  } catch {
    return false;
  }
  const rows = new Set(
    table
      .split('\n')
      .slice(1)
      .map((l) => l.trim().split(/\s+/))
      .map((f) => `${f[0]} ${f[1]} ${f[7]}`),
  );
  return host.routes.every((r) => {
    const [net, bits] = r.split('/');
    return rows.has(`${host.iface} ${hexLE(net!)} ${hexLE(maskOf(Number(bits)))}`);
  });
}

/** 198.18.0.0 -> 000012C6, as /proc/net/route shows it (network order bytes, read as a little-endian word). */
function hexLE(address: string): string {
  return address
    .split('.')
    .reverse()
    .map((o) => Number(o).toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
}

function maskOf(bits: number): string {
  const m = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return [24, 16, 8, 0].map((s) => (m >>> s) & 255).join('.');
}

/** Hosts set up at once inside their namespaces: each is one short `ip -n NS -batch -`. */
const NAMESPACE_PARALLEL = 8;

function checkInLabRange(host: HostPlan): void {
  if (!inLabRange(host.address)) throw new Error(`${host.name}: ${host.address} is outside 198.18.0.0/15`);
  const bad = host.routes.find((r) => !inLabRange(r.split('/')[0]!));
  if (bad) throw new Error(`${host.name}: route ${bad} is outside 198.18.0.0/15`);
}

/**
 * The root namespace's part of each host's network, for all hosts in two `ip -batch` runs: the
 * namespace, the veth pair (eth1 inside) on the bridge, and a permanent neighbour entry for the host.
 * On one bridge every broadcast and multicast reaches every port, so a thousand hosts resolving one
 * another (ARP) or announcing IPv6 addresses (neighbour discovery, MLD) cost a million packet copies:
 * the lab's addresses and MACs are fixed, so the root namespace and each host (namespaceBatch) know
 * their neighbours from the start, the bridge knows each host's port (or the first frame to a host
 * that has not spoken yet goes out of all thousand ports), and the lab's links get no IPv6 link-local
 * address.
 */
export async function ensureRootNetworks(hosts: readonly HostPlan[]): Promise<void> {
  hosts.forEach(checkInLabRange);
  const root: string[] = [];
  const leftoverIface: HostPlan[] = [];
  for (const host of hosts) {
    if (!namespaceExists(host.namespace)) {
      // A root-side veth without our namespace belongs to an old namespace that something keeps alive:
      // drop it so the new pair really leads into the new namespace.
      if (linkExists(host.veth)) root.push(`link del ${host.veth}`);
      root.push(`netns add ${host.namespace}`);
    } else if (!linkExists(host.veth)) {
      leftoverIface.push(host);
    }
  }
  // The segment bridges exist before any host's veth is put on one.
  const segments = segmentsFor(hosts);
  root.push(...segmentLinkLines(segments, linkExists));
  if (root.length > 0) await runInput(IP, ['-batch', '-'], root.join('\n') + '\n');
  // A leftover eth1 inside would make the pair's creation fail (a namespace kept from a broken lab).
  await mapLimit(leftoverIface, NAMESPACE_PARALLEL, (h) =>
    run(IP, ['-n', h.namespace, 'link', 'del', h.iface], { allowFail: true }),
  );
  const links: string[] = [];
  for (const host of hosts) {
    if (!linkExists(host.veth)) {
      links.push(
        `link add ${host.veth} group ${LAB_DEVICE_GROUP} type veth peer name ${host.iface} address ${host.mac} netns ${host.namespace}`,
      );
    }
    links.push(
      `link set ${host.veth} addrgenmode none`,
      `link set ${host.veth} master ${bridgeOf(host)} up`,
      // Hosts behind a bastion (on the private bridge) are no neighbours of the root namespace.
      ...(onLabSegment(host) ? [`neigh replace ${host.address} lladdr ${host.mac} dev ${BRIDGE} nud permanent`] : []),
    );
  }
  if (links.length > 0) await runInput(IP, ['-batch', '-'], links.join('\n') + '\n');
  if (hosts.length > 0)
    await runInput(BRIDGE_TOOL, ['-batch', '-'], forwardingLines(hosts, segments).join('\n') + '\n');
}

/** The host's part, for `ip -batch` inside its namespace: address, links up, its routes (never a
 *  default route), the bridge as a permanent neighbour, and no IPv6 link-local address. */
export function namespaceBatch(host: HostPlan): string {
  checkInLabRange(host);
  return (
    [
      `link set ${host.iface} addrgenmode none`,
      `addr replace ${host.address}/${host.prefixLength} dev ${host.iface}`,
      `link set ${host.iface} up`,
      'link set lo up',
      // After the link is up (a route onto a down link is refused).
      ...host.routes.map((r) => `route replace ${r} dev ${host.iface}`),
      ...(onLabSegment(host)
        ? [`neigh replace ${BRIDGE_ADDRESS} lladdr ${BRIDGE_MAC} dev ${host.iface} nud permanent`]
        : []),
    ].join('\n') + '\n'
  );
}

/** namespaceBatch for hosts whose server is not (re)started here (a start runs it itself). */
export async function configureNamespaces(hosts: readonly HostPlan[]): Promise<void> {
  await mapLimit(hosts, NAMESPACE_PARALLEL, (host) =>
    runInput(IP, ['-n', host.namespace, '-batch', '-'], namespaceBatch(host)),
  );
}

/** The lab's veths are put in this device group, so one `ip link del group` removes them all: deleting
 *  veths one by one waits out an RCU grace period each (about 20 ms here, 20 s for a thousand hosts),
 *  a group is unregistered at once. An unusual number ("pl"); a device of someone else's found in the
 *  group makes down fall back to deleting one by one. */
export const LAB_DEVICE_GROUP = 0x706c;

/** Deletes the veths (a pair goes when either end does) and then the namespaces, each kind in one
 *  `ip -batch`: the veths explicitly, since a namespace lingers while a process is in it, and its veth. */
export async function removeHostNetworks(hosts: readonly Pick<HostPlan, 'namespace' | 'veth'>[]): Promise<void> {
  const veths = hosts.map((h) => h.veth).filter(linkExists);
  // -force: one that went away meanwhile must not keep the others.
  const batch = (lines: string[]) =>
    lines.length > 0
      ? runInput(IP, ['-force', '-batch', '-'], lines.join('\n') + '\n', { allowFail: true })
      : undefined;
  if (veths.length > 0) {
    await batch(veths.map((v) => `link set ${v} group ${LAB_DEVICE_GROUP}`));
    const inGroup = (
      await run(IP, ['-o', 'link', 'show', 'group', String(LAB_DEVICE_GROUP)], { allowFail: true })
    ).stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(':')[1]!.trim().split('@')[0]!);
    const ours = new Set(veths);
    if (inGroup.every((d) => ours.has(d)))
      await run(IP, ['link', 'del', 'group', String(LAB_DEVICE_GROUP)], { allowFail: true });
    await batch(veths.filter(linkExists).map((v) => `link del ${v}`));
  }
  await batch(hosts.filter((h) => namespaceExists(h.namespace)).map((h) => `netns del ${h.namespace}`));
}

/** The segment bridges there are (playlab0s1..). */
function existingSegments(): number[] {
  return readdirSync('/sys/class/net')
    .map(segmentOfBridge)
    .filter((s) => s !== undefined);
}

/** Deletes the segment bridges with their uplinks, then the bridge; its address and the lab route go with it. */
export async function removeBridge(): Promise<void> {
  const lines = existingSegments().flatMap((s) => [
    ...(linkExists(hubUplink(s)) ? [`link del ${hubUplink(s)}`] : []),
    `link del ${segmentBridge(s)}`,
  ]);
  if (lines.length > 0) await runInput(IP, ['-force', '-batch', '-'], lines.join('\n') + '\n', { allowFail: true });
  if (linkExists(BRIDGE)) await run(IP, ['link', 'del', BRIDGE], { allowFail: true });
}

export function bridgeExists(): boolean {
  return linkExists(BRIDGE);
}

/** Interfaces attached to the bridge and to its segment bridges (uplinks included). */
export function bridgePorts(): string[] {
  return [BRIDGE, ...existingSegments().map(segmentBridge)].flatMap((bridge) => {
    try {
      return readdirSync(`/sys/class/net/${bridge}/brif`);
    } catch {
      return [];
    }
  });
}

/** The kernel's neighbour (ARP) table limits. One table serves every network namespace (the sysctls
 *  exist only in the root one), so a lab's hosts and the root namespace fill the same table. */
export type NeighbourThresholds = Record<'gc_thresh1' | 'gc_thresh2' | 'gc_thresh3', number>;
const NEIGH_KEYS = ['gc_thresh1', 'gc_thresh2', 'gc_thresh3'] as const;
const neighSysctl = (key: string) => `/proc/sys/net/ipv4/neigh/default/${key}`;

export function readNeighbourThresholds(): NeighbourThresholds {
  const read = (k: string) => Number(readFileSync(neighSysctl(k), 'utf8').trim());
  return { gc_thresh1: read('gc_thresh1'), gc_thresh2: read('gc_thresh2'), gc_thresh3: read('gc_thresh3') };
}

/** What `hosts` hosts need: the root namespace's entry for each host, each host's for the bridge, and
 *  room for the hosts' entries for one another (the defaults, 128/512/1024, overflow at ~500 hosts). */
export function neighbourThresholdsFor(hosts: number): NeighbourThresholds {
  return { gc_thresh1: 2 * hosts, gc_thresh2: 4 * hosts, gc_thresh3: 8 * hosts };
}

/** Raises the limits when the lab needs more than they are; returns the values from before the lab
 *  first raised them (`recorded`, from the state, or the current ones), or undefined when never raised. */
export function raiseNeighbourThresholds(
  hosts: number,
  recorded?: NeighbourThresholds,
): NeighbourThresholds | undefined {
  // Only the initial namespace has the sysctls: a lab built inside another (test/lab's sandbox) cannot.
  if (!existsSync(neighSysctl('gc_thresh3'))) return recorded;
  const current = readNeighbourThresholds();
  const want = neighbourThresholdsFor(hosts);
  if (NEIGH_KEYS.every((k) => current[k] >= want[k])) return recorded;
  // Highest first, so gc_thresh1 <= gc_thresh2 <= gc_thresh3 holds after each write.
  for (const k of [...NEIGH_KEYS].reverse()) writeFileSync(neighSysctl(k), `${Math.max(current[k], want[k])}\n`);
  return recorded ?? current;
}

export function restoreNeighbourThresholds(old: NeighbourThresholds): void {
  if (!existsSync(neighSysctl('gc_thresh3'))) return;
  for (const k of NEIGH_KEYS) writeFileSync(neighSysctl(k), `${old[k]}\n`);
}
