// IPv4 addresses and subnets as the simulated node checks them (HNS, New-NetIPAddress, routes). The
// lab's own, on Node's node:net (isIPv4: strict dotted quads, no leading zeros; BlockList for subnet
// membership), rather than play's step helpers, which are not part of play's public API.
import { BlockList, isIPv4 } from 'node:net';

export { isIPv4 };

/** `a.b.c.d/p`: the address as written (host bits may be set) and its prefix length. */
export interface Subnet {
  readonly address: string;
  readonly prefix: number;
}

/** `a.b.c.d/p` with p in 0..32, or null. */
export function parseSubnet(text: string): Subnet | null {
  const m = /^([^/]+)\/(0|[1-9][0-9]?)$/.exec(text);
  if (!m || !isIPv4(m[1]!) || Number(m[2]) > 32) return null;
  return { address: m[1]!, prefix: Number(m[2]) };
}

/** Whether `address` (a dotted quad) is inside `subnet`. */
export function subnetContains(subnet: Subnet, address: string): boolean {
  const block = new BlockList();
  block.addSubnet(subnet.address, subnet.prefix, 'ipv4');
  return block.check(address, 'ipv4');
}

/** The model keeps an interface address as "address/length". */
export function splitCidr(cidr: string): { address: string; length: number } {
  const [address, length] = cidr.split('/');
  return { address: address!, length: Number(length ?? 32) };
}
