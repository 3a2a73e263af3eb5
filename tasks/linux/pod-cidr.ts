// Windows nodes' pod CIDRs and their gateway VIPs on the ToR hosts (docs/field-notes.md#a-upstream-tor-gateway: node009 has
// 10.160.11.0/24, its pod gateway and VIP is 10.160.11.1/24). Pure. A VIP outside its node's
// pod CIDR, or two nodes whose CIDRs overlap, would route one node's pods to another's gateway:
// both are refused before any host is touched, naming the nodes.
import { InputError } from '../../runner/core/errors.js';
import {
  cidrContains,
  cidrsOverlap,
  formatCidr,
  formatIPv4,
  maskOf,
  parseCidr,
  parseIPv4,
  type Cidr,
} from '../common/ipv4.js';

export interface PodVip {
  readonly address: string;
  readonly prefix: number;
}

export interface PodCidrNode {
  readonly name: string;
  /** As the API server assigned it, e.g. 10.160.11.0/24. */
  readonly podCidr: string;
  /** The node's gateway VIP: `a.b.c.d`, `a.b.c.d/p` or { address, prefix }; default vipFor(podCidr). */
  readonly vip?: string | PodVip;
}

export interface CheckedPodCidr {
  readonly name: string;
  readonly podCidr: string;
  readonly vip: PodVip;
}

function readPodCidr(text: unknown, who: string): Cidr {
  const c = typeof text === 'string' ? parseCidr(text) : null;
  if (c === null) throw new InputError(`${who}: pod CIDR must be like 10.160.11.0/24, got ${JSON.stringify(text)}`);
  if (c.address !== c.network)
    throw new InputError(`${who}: pod CIDR ${text} has host bits set (did you mean ${formatCidr(c)}?)`);
  if (c.prefix > 30) throw new InputError(`${who}: pod CIDR ${text} is too small for a gateway and pods (at most /30)`);
  return c;
}

/** The first host address of the CIDR, with its prefix: 10.160.11.0/24 -> 10.160.11.1/24. */
export function vipFor(podCidr: string): PodVip {
  const c = readPodCidr(podCidr, 'vipFor');
  return { address: formatIPv4(c.network + 1), prefix: c.prefix };
}

function readVip(v: string | PodVip, c: Cidr, who: string): PodVip {
  let address: number | null, prefix: number;
  if (typeof v === 'string') {
    const withPrefix = parseCidr(v);
    address = withPrefix ? withPrefix.address : parseIPv4(v);
    prefix = withPrefix ? withPrefix.prefix : c.prefix;
  } else {
    address = typeof v?.address === 'string' ? parseIPv4(v.address) : null;
    prefix = v?.prefix;
  }
  if (address === null) throw new InputError(`${who}: VIP must be an IPv4 address, got ${JSON.stringify(v)}`);
  const shown = formatIPv4(address);
  if (!cidrContains(c, address))
    throw new InputError(`${who}: VIP ${shown} is outside the node's pod CIDR ${formatCidr(c)}`);
  const broadcast = (c.network | ~maskOf(c.prefix)) >>> 0;
  if (address === c.network || address === broadcast) {
    throw new InputError(
      `${who}: VIP ${shown} is the ${address === c.network ? 'network' : 'broadcast'} address of ${formatCidr(c)}`,
    );
  }
  // The VIP's prefix makes the ToR's route to the pods: it must be the pod CIDR's.
  if (prefix !== c.prefix)
    throw new InputError(`${who}: VIP ${shown}/${prefix} must have the pod CIDR's prefix /${c.prefix}`);
  return { address: shown, prefix };
}

/**
 * Checks every node's pod CIDR and VIP and that no two nodes' CIDRs overlap (an identical CIDR is
 * the commonest case: a copied inventory line). Returns each node with its VIP, in input order.
 */
export function validatePodCidrs(nodes: readonly PodCidrNode[]): readonly CheckedPodCidr[] {
  const seen = new Set<string>();
  const checked = nodes.map((n) => {
    const who = `node ${n.name}`;
    if (typeof n.name !== 'string' || n.name === '')
      throw new InputError(`a node without a name has pod CIDR ${JSON.stringify(n.podCidr)}`);
    if (seen.has(n.name)) throw new InputError(`${who} is listed twice`);
    seen.add(n.name);
    const cidr = readPodCidr(n.podCidr, who);
    const vip =
      n.vip === undefined ? { address: formatIPv4(cidr.network + 1), prefix: cidr.prefix } : readVip(n.vip, cidr, who);
    return { name: n.name, cidr, vip };
  });
  for (let i = 0; i < checked.length; i++) {
    for (let j = i + 1; j < checked.length; j++) {
      const a = checked[i]!,
        b = checked[j]!;
      if (!cidrsOverlap(a.cidr, b.cidr)) continue;
      const same = a.cidr.network === b.cidr.network && a.cidr.prefix === b.cidr.prefix;
      throw new InputError(
        same
          ? `nodes ${a.name} and ${b.name} have the same pod CIDR ${formatCidr(a.cidr)}`
          : `nodes ${a.name} and ${b.name} have overlapping pod CIDRs ${formatCidr(a.cidr)} and ${formatCidr(b.cidr)}`,
      );
    }
  }
  return Object.freeze(
    checked.map((c) => Object.freeze({ name: c.name, podCidr: formatCidr(c.cidr), vip: Object.freeze(c.vip) })),
  );
}
