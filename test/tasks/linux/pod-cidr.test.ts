// Pod CIDRs and their gateway VIPs: vipFor, validatePodCidrs, and the strict IPv4 parsing under them.
import test from 'ava';
import { InputError } from '../../../runner/core/errors.js';
import { cidrsOverlap, formatIPv4, parseCidr, parseIPv4 } from '../../../tasks/common/ipv4.js';
import { validatePodCidrs, vipFor } from '../../../tasks/linux/pod-cidr.js';

test('parseIPv4 takes strict dotted quads only', (t) => {
  t.is(parseIPv4('10.160.11.1'), 0x0aa00b01);
  t.is(parseIPv4('255.255.255.255'), 0xffffffff);
  t.is(parseIPv4('0.0.0.0'), 0);
  for (const bad of [
    '10.160.11',
    '10.160.11.1.1',
    '256.1.1.1',
    '010.1.1.1',
    '1.1.1.-1',
    '1.1.1.1 ',
    '',
    '1..1.1',
    '0x1.1.1.1',
  ]) {
    t.is(parseIPv4(bad), null, bad);
  }
  t.is(formatIPv4(0xffffffff), '255.255.255.255');
  t.is(formatIPv4(0x0aa00b01), '10.160.11.1');
});

test('parseCidr and overlap', (t) => {
  t.deepEqual(parseCidr('10.160.11.7/24'), { network: 0x0aa00b00, prefix: 24, address: 0x0aa00b07 });
  t.is(parseCidr('0.0.0.0/0')!.network, 0);
  t.is(parseCidr('1.2.3.4/32')!.network, 0x01020304);
  for (const bad of ['10.160.11.0/33', '10.160.11.0', '10.160.11.0/024', '10.160.11.0/-1', '10.160.11/24'])
    t.is(parseCidr(bad), null, bad);
  const c = (s: string) => parseCidr(s)!;
  t.true(cidrsOverlap(c('10.160.0.0/12'), c('10.160.11.0/24')));
  t.true(cidrsOverlap(c('10.160.11.0/24'), c('10.160.0.0/12')));
  t.true(cidrsOverlap(c('0.0.0.0/0'), c('1.2.3.0/24')));
  t.false(cidrsOverlap(c('10.160.11.0/24'), c('10.160.12.0/24')));
  t.false(cidrsOverlap(c('10.160.11.0/25'), c('10.160.11.128/25')));
});

test("vipFor: the first host address with the CIDR's prefix", (t) => {
  t.deepEqual(vipFor('10.160.11.0/24'), { address: '10.160.11.1', prefix: 24 });
  t.deepEqual(vipFor('198.18.8.0/22'), { address: '198.18.8.1', prefix: 22 });
  t.deepEqual(vipFor('10.0.0.0/30'), { address: '10.0.0.1', prefix: 30 });
  t.throws(() => vipFor('10.160.11.5/24'), {
    instanceOf: InputError,
    message: /has host bits set \(did you mean 10\.160\.11\.0\/24\?\)/,
  });
  t.throws(() => vipFor('10.160.11.0/31'), { message: /too small/ });
  t.throws(() => vipFor('10.160.11.0'), { message: /must be like 10\.160\.11\.0\/24, got "10\.160\.11\.0"/ });
});

test('validatePodCidrs: defaults each VIP, keeps a given one that fits', (t) => {
  t.deepEqual(
    validatePodCidrs([
      { name: 'node009', podCidr: '10.160.11.0/24' },
      { name: 'node010', podCidr: '10.160.12.0/24', vip: '10.160.12.254' },
      { name: 'node011', podCidr: '10.160.13.0/24', vip: { address: '10.160.13.1', prefix: 24 } },
      { name: 'node012', podCidr: '10.160.14.0/24', vip: '10.160.14.1/24' },
    ]),
    [
      { name: 'node009', podCidr: '10.160.11.0/24', vip: { address: '10.160.11.1', prefix: 24 } },
      { name: 'node010', podCidr: '10.160.12.0/24', vip: { address: '10.160.12.254', prefix: 24 } },
      { name: 'node011', podCidr: '10.160.13.0/24', vip: { address: '10.160.13.1', prefix: 24 } },
      { name: 'node012', podCidr: '10.160.14.0/24', vip: { address: '10.160.14.1', prefix: 24 } },
    ],
  );
  t.deepEqual(validatePodCidrs([]), []);
});

const refused: { name: string; nodes: any[]; message: RegExp }[] = [
  {
    name: 'VIP outside its pod CIDR',
    nodes: [{ name: 'node009', podCidr: '10.160.11.0/24', vip: '10.160.12.1' }],
    message: /^node node009: VIP 10\.160\.12\.1 is outside the node's pod CIDR 10\.160\.11\.0\/24$/,
  },
  {
    name: 'VIP of another node',
    nodes: [
      { name: 'a', podCidr: '10.160.11.0/24' },
      { name: 'b', podCidr: '10.160.12.0/24', vip: '10.160.11.1' },
    ],
    message: /node b: VIP 10\.160\.11\.1 is outside/,
  },
  {
    name: 'VIP is the network address',
    nodes: [{ name: 'n', podCidr: '10.160.11.0/24', vip: '10.160.11.0' }],
    message: /is the network address of 10\.160\.11\.0\/24/,
  },
  {
    name: 'VIP is the broadcast address',
    nodes: [{ name: 'n', podCidr: '10.160.11.0/24', vip: '10.160.11.255' }],
    message: /is the broadcast address/,
  },
  {
    name: 'VIP prefix differs (the route would be wrong)',
    nodes: [{ name: 'n', podCidr: '10.160.11.0/24', vip: '10.160.11.1/16' }],
    message: /must have the pod CIDR's prefix \/24/,
  },
  {
    name: 'VIP not an address',
    nodes: [{ name: 'n', podCidr: '10.160.11.0/24', vip: 'gateway' }],
    message: /node n: VIP must be an IPv4 address/,
  },
  {
    name: 'the same pod CIDR twice',
    nodes: [
      { name: 'node009', podCidr: '10.160.11.0/24' },
      { name: 'x', podCidr: '10.160.20.0/24' },
      { name: 'node010', podCidr: '10.160.11.0/24' },
    ],
    message: /^nodes node009 and node010 have the same pod CIDR 10\.160\.11\.0\/24$/,
  },
  {
    name: 'overlapping pod CIDRs',
    nodes: [
      { name: 'node009', podCidr: '10.160.11.0/24' },
      { name: 'big', podCidr: '10.160.0.0/16' },
    ],
    message: /^nodes node009 and big have overlapping pod CIDRs 10\.160\.11\.0\/24 and 10\.160\.0\.0\/16$/,
  },
  {
    name: 'a node listed twice',
    nodes: [
      { name: 'n', podCidr: '10.160.11.0/24' },
      { name: 'n', podCidr: '10.160.12.0/24' },
    ],
    message: /node n is listed twice/,
  },
  {
    name: 'a pod CIDR with host bits',
    nodes: [{ name: 'n', podCidr: '10.160.11.1/24' }],
    message: /node n: pod CIDR 10\.160\.11\.1\/24 has host bits set/,
  },
];

for (const r of refused) {
  test(`validatePodCidrs refuses: ${r.name}`, (t) => {
    t.throws(() => validatePodCidrs(r.nodes), { instanceOf: InputError, message: r.message });
  });
}
