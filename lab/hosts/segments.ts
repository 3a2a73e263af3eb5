// The lab's segment past one bridge's 1,023 ports, pure: segment bridges playlab0s1.. each joined to
// playlab0 by a veth pair (an uplink), so every host stays on one layer-2 segment with one address
// plan, on-link routes and the root namespace's permanent neighbour entries, as with one bridge.
// Bridges of bridges forward by MAC: each bridge gets a static forwarding entry for every host
// (behind its own port, or behind the uplink the host lies beyond), so no frame to a host floods the
// other thousand ports while a bridge learns where the host is.
import { BRIDGE, BRIDGE_MAC, MAX_SEGMENTS, type HostPlan } from './topology.js';

export function segmentBridge(segment: number): string {
  return `${BRIDGE}s${segment}`;
}

/** The uplink's end that is a port of playlab0. */
export function hubUplink(segment: number): string {
  return `${BRIDGE}-s${segment}`;
}

/** The uplink's end that is a port of the segment bridge. */
export function segmentUplink(segment: number): string {
  return `${segmentBridge(segment)}-up`;
}

/** playlab0s1 -> 1; anything else -> undefined. */
export function segmentOfBridge(name: string): number | undefined {
  const m = new RegExp(`^${BRIDGE}s([1-9][0-9]*)$`).exec(name);
  const n = m ? Number(m[1]) : undefined;
  return n !== undefined && n <= MAX_SEGMENTS ? n : undefined;
}

/** The bridge a host's veth is a port of. */
export function bridgeOf(host: Pick<HostPlan, 'bridge' | 'segment'>): string {
  return host.bridge ?? (host.segment ? segmentBridge(host.segment) : BRIDGE);
}

/** Hosts on the lab's segment (any bridge but the private one) are neighbours of the root namespace. */
export function onLabSegment(host: Pick<HostPlan, 'bridge'>): boolean {
  return host.bridge === undefined;
}

/** Segment bridges 1..N that the plan's hosts need (all up to the highest, so the numbering has no gaps). */
export function segmentsFor(plan: readonly Pick<HostPlan, 'segment'>[]): number[] {
  const highest = Math.max(0, ...plan.map((h) => h.segment ?? 0));
  return Array.from({ length: highest }, (_, i) => i + 1);
}

/** `ip -batch` lines making each segment bridge and its uplink: up, no IPv6 link-local (no chatter). */
export function segmentLinkLines(segments: readonly number[], exists: (link: string) => boolean): string[] {
  return segments.flatMap((s) => [
    ...(exists(segmentBridge(s)) ? [] : [`link add ${segmentBridge(s)} type bridge`]),
    ...(exists(hubUplink(s)) ? [] : [`link add ${hubUplink(s)} type veth peer name ${segmentUplink(s)}`]),
    `link set ${segmentBridge(s)} addrgenmode none`,
    `link set ${hubUplink(s)} addrgenmode none`,
    `link set ${segmentUplink(s)} addrgenmode none`,
    `link set ${segmentBridge(s)} up`,
    `link set ${hubUplink(s)} master ${BRIDGE} up`,
    `link set ${segmentUplink(s)} master ${segmentBridge(s)} up`,
  ]);
}

/**
 * `bridge -batch` lines: where each bridge forwards each host's MAC. On its own bridge, its veth; on
 * playlab0, a segment host lies beyond that segment's uplink; on a segment bridge, every host not on it
 * (and playlab0's own MAC, the hosts' gateway to the root namespace) lies beyond its uplink.
 */
export function forwardingLines(plan: readonly HostPlan[], segments: readonly number[]): string[] {
  const lines: string[] = [];
  const fdb = (mac: string, dev: string) => lines.push(`fdb replace ${mac} dev ${dev} master static`);
  for (const host of plan) {
    fdb(host.mac, host.veth);
    if (!onLabSegment(host)) continue;
    if (host.segment) fdb(host.mac, hubUplink(host.segment));
    for (const s of segments) if (s !== host.segment) fdb(host.mac, segmentUplink(s));
  }
  for (const s of segments) fdb(BRIDGE_MAC, segmentUplink(s));
  return lines;
}
