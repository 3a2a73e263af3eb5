// Address options of the HNS steps, checked when the step is built (docs/field-notes.md#a-hns-network-and-endpoint: pod CIDR
// 10.160.11.0/24, gateway .1 = the ToR VIP, host endpoint cbr0 at .2 with gateway 0.0.0.0).
import { nonEmpty } from '../../../runner/core/step-options.js';
import { cidrContains, formatCidr, formatIPv4, parseCidr, parseIPv4, type Cidr } from '../../common/ipv4.js';
import { checked, type Refuse } from './checked.js';

/** A pod CIDR as a network address: `10.160.11.0/24`, not `10.160.11.5/24`. */
export const networkPrefix = () =>
  checked(nonEmpty(), (text: string, refuse: Refuse): Cidr => {
    const cidr = parseCidr(text);
    if (!cidr) refuse(`must be an IPv4 CIDR block such as 10.160.11.0/24, got ${JSON.stringify(text)}`);
    if (cidr.address !== cidr.network) refuse(`has host bits set: the network is ${formatCidr(cidr)}, got ${text}`);
    if (cidr.prefix > 30)
      refuse(`must leave room for a gateway and endpoints (a prefix of /30 or shorter), got /${cidr.prefix}`);
    return cidr;
  });

export interface Address {
  readonly text: string;
  readonly n: number;
}

/** An IPv4 address, written back in its canonical form. */
export const ipv4 = () =>
  checked(nonEmpty(), (text: string, refuse: Refuse): Address => {
    const n = parseIPv4(text);
    if (n === null) refuse(`must be an IPv4 address such as 10.160.11.1, got ${JSON.stringify(text)}`);
    return { text: formatIPv4(n), n };
  });

/** An address for a host inside the block: not its network or broadcast address (refused on `field`). */
export function hostInside(refuse: Refuse, field: string, address: Address, cidr: Cidr, cidrField: string): void {
  if (!cidrContains(cidr, address.n)) refuse(`${address.text} is not inside ${cidrField} ${formatCidr(cidr)}`, field);
  const broadcast = (cidr.network | (~(0xffffffff << (32 - cidr.prefix)) >>> 0)) >>> 0;
  if (address.n === cidr.network || address.n === broadcast) {
    refuse(
      `${address.text} is the ${address.n === cidr.network ? 'network' : 'broadcast'} address of ${formatCidr(cidr)}, not a host address`,
      field,
    );
  }
}

/** Two IPv4 addresses written differently are the same address (HNS may not echo our spelling). */
export function sameAddress(a: string, b: string): boolean {
  const x = parseIPv4(a),
    y = parseIPv4(b);
  return x !== null && x === y;
}

export function samePrefix(a: string, b: string): boolean {
  const x = parseCidr(a),
    y = parseCidr(b);
  return x !== null && y !== null && x.network === y.network && x.prefix === y.prefix;
}

/** HNS names and adapter names: what we accept (no quotes, wildcards or parentheses in names). */
export const HNS_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
export const ADAPTER_NAME = /^[A-Za-z0-9_][A-Za-z0-9 _.()-]{0,127}$/;
