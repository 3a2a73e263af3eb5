// How the simulated node's model keeps an interface address: "address/length" (the checks of
// addresses and prefixes are tasks/common/ipv4.ts's, shared with the steps).

/** The model keeps addresses as "address/length". */
export function splitCidr(cidr: string): { address: string; length: number } {
  const [address, length] = cidr.split('/');
  return { address: address!, length: Number(length ?? 32) };
}
