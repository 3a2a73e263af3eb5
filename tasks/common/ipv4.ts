// IPv4 addresses and CIDR blocks as 32-bit numbers, for the checks the ToR steps need (is a VIP
// inside its pod CIDR, do two CIDRs overlap). Pure. Strict dotted quads only: no leading zeros
// (inet_aton would read `010` as octal 8), no shorthand such as `10.1`.

export interface Cidr {
  /** The network address (host bits cleared). */
  readonly network: number;
  readonly prefix: number;
  /** The address as written, which may have host bits set. */
  readonly address: number;
}

const OCTET = /^(?:0|[1-9][0-9]{0,2})$/;

/** The address as an unsigned 32-bit number, or null when it is not a strict dotted quad. */
export function parseIPv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!OCTET.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

export function formatIPv4(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export function maskOf(prefix: number): number {
  return prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
}

/** `a.b.c.d/p` (p in 0..32), or null. */
export function parseCidr(text: string): Cidr | null {
  const m = /^([0-9.]+)\/(0|[1-9][0-9]?)$/.exec(text);
  if (!m) return null;
  const address = parseIPv4(m[1]!);
  const prefix = Number(m[2]);
  if (address === null || prefix > 32) return null;
  return { network: (address & maskOf(prefix)) >>> 0, prefix, address };
}

export function formatCidr(c: { network: number; prefix: number }): string {
  return `${formatIPv4(c.network)}/${c.prefix}`;
}

export function cidrContains(c: { network: number; prefix: number }, address: number): boolean {
  return (address & maskOf(c.prefix)) >>> 0 === c.network;
}

/** Two CIDR blocks overlap exactly when the shorter prefix contains the other's network. */
export function cidrsOverlap(a: { network: number; prefix: number }, b: { network: number; prefix: number }): boolean {
  const shorter = a.prefix <= b.prefix ? a : b,
    other = shorter === a ? b : a;
  return cidrContains(shorter, other.network);
}
