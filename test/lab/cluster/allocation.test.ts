// The simulated cluster's pod CIDR allocation and node records (lab/cluster/cluster-state.ts, a test double), pure.
import test from 'ava';
import {
  allocatePodCidr,
  LAB_CLUSTER,
  newClusterState,
  parseCidr,
  registerNode,
} from '../../../lab/cluster/cluster-state.js';
import { inLabRange } from '../../../lab/hosts/topology.js';

const cases: [string, string, string[], string][] = [
  ['empty cluster: the first /24', '198.19.0.0/16', [], '198.19.0.0/24'],
  ['next after the taken ones', '198.19.0.0/16', ['198.19.0.0/24', '198.19.1.0/24'], '198.19.2.0/24'],
  ['fills a gap first', '198.19.0.0/16', ['198.19.0.0/24', '198.19.2.0/24'], '198.19.1.0/24'],
  ['order of used does not matter', '198.19.0.0/16', ['198.19.1.0/24', '198.19.0.0/24'], '198.19.2.0/24'],
  ['a wider used block covers several /24s', '198.19.0.0/16', ['198.19.0.0/22'], '198.19.4.0/24'],
  ['used outside the cluster CIDR is ignored', '198.19.0.0/16', ['10.0.0.0/24', '198.18.0.0/24'], '198.19.0.0/24'],
  [
    "the field notes' cluster",
    '10.160.0.0/16',
    [
      '10.160.0.0/24',
      '10.160.1.0/24',
      '10.160.2.0/24',
      '10.160.3.0/24',
      '10.160.4.0/24',
      '10.160.5.0/24',
      '10.160.6.0/24',
      '10.160.7.0/24',
      '10.160.8.0/24',
      '10.160.9.0/24',
      '10.160.10.0/24',
    ],
    '10.160.11.0/24',
  ],
  ['crosses an octet', '10.0.0.0/15', Array.from({ length: 256 }, (_, i) => `10.0.${i}.0/24`), '10.1.0.0/24'],
  ['a /24 cluster has one', '198.19.7.0/24', [], '198.19.7.0/24'],
];
for (const [title, cluster, used, want] of cases) {
  test(`allocatePodCidr: ${title}`, (t) => t.is(allocatePodCidr(cluster, used), want));
}

test('allocatePodCidr: exhausted, too small, or malformed CIDRs throw', (t) => {
  t.throws(() => allocatePodCidr('198.19.0.0/23', ['198.19.0.0/24', '198.19.1.0/24']), {
    message: /no free \/24 left in cluster CIDR 198\.19\.0\.0\/23/,
  });
  t.throws(() => allocatePodCidr('198.19.0.0/25', []), { message: /smaller than one \/24/ });
  t.throws(() => allocatePodCidr('198.19.0.1/16', []), { message: /host bits set/ });
  t.throws(() => allocatePodCidr('198.19.0.0', []), { message: /not an IPv4 CIDR/ });
  t.throws(() => allocatePodCidr('198.19.0.0/16', ['198.19.300.0/24']), { message: /not an IPv4 address/ });
  t.deepEqual(parseCidr('198.19.0.0/16'), { base: 0xc6130000, prefix: 16 });
});

test('the lab cluster stays inside the lab range and apart from the lab hosts', (t) => {
  t.is(LAB_CLUSTER.clusterCIDR, '198.19.0.0/16');
  for (const ip of ['198.19.0.0', '198.19.255.255', '198.18.240.0', '198.18.255.255', LAB_CLUSTER.dnsServiceIP])
    t.true(inLabRange(ip), ip);
  // The service range does not overlap the hosts (198.18.0.x, 198.18.1.x) nor the pod network.
  t.is(allocatePodCidr(LAB_CLUSTER.serviceCIDR, []), '198.18.240.0/24');
});

test('registerNode: a /24 on first registration; later ones keep pod CIDR, cordon and age', (t) => {
  const s = newClusterState();
  const t0 = new Date('2024-01-01T00:00:00Z');
  const a = registerNode(s, { name: 'node009', ready: true, addresses: [] }, t0);
  const b = registerNode(s, { name: 'node010', ready: false, addresses: [] }, t0);
  t.is(a.podCIDR, '198.19.0.0/24');
  t.is(b.podCIDR, '198.19.1.0/24');
  s.nodes.node009!.unschedulable = true;
  const again = registerNode(
    s,
    { name: 'node009', ready: false, addresses: [{ type: 'InternalIP', address: '198.18.1.9' }] },
    new Date('2024-01-02T00:00:00Z'),
  );
  t.like(again, {
    podCIDR: '198.19.0.0/24',
    unschedulable: true,
    ready: false,
    registeredAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-02T00:00:00.000Z',
  });
  delete s.nodes.node009;
  t.is(registerNode(s, { name: 'node011', ready: true, addresses: [] }, t0).podCIDR, '198.19.0.0/24');
});
