// The HNS network the field notes give node009 (its pod CIDR 10.160.11.0/24 on eth1), as the argument
// of hnsNetwork and New-PlayHnsNetwork: the step tests and the simulated node's tests both create it.
export const L2BRIDGE = {
  name: 'l2bridge',
  type: 'L2Bridge',
  addressPrefix: '10.160.11.0/24',
  gateway: '10.160.11.1',
  adapterName: 'eth1',
} as const;
