// IPv4 text as Windows takes it on the simulated node (a test double): dotted quads, "address/length"
// prefixes, and whether an address lies in a prefix (HNS subnets, endpoint addresses).

/** The address as a number, or null when it is not a dotted quad of 0-255. */
export function ipv4(text: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) return null;
  return m.slice(1).reduce((n, o) => n * 256 + Number(o), 0);
}

export interface Prefix {
  base: number;
  bits: number;
}

/** "10.160.11.0/24", or null. */
export function prefix(text: string): Prefix | null {
  const [addr, len, extra] = text.split('/');
  const base = ipv4(addr ?? '');
  const bits = Number(len);
  if (extra !== undefined || base === null || !/^\d{1,2}$/.test(len ?? '') || bits > 32) return null;
  return { base, bits };
}

export function inPrefix(ip: number, p: Prefix): boolean {
  const size = 2 ** (32 - p.bits);
  return Math.floor(ip / size) === Math.floor(p.base / size);
}

/** The model keeps addresses as "address/length". */
export function splitCidr(cidr: string): { address: string; length: number } {
  const [address, length] = cidr.split('/');
  return { address: address!, length: Number(length ?? 32) };
}
