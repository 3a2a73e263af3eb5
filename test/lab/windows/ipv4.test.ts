// The simulated node's IPv4 checks (lab/windows/ipv4.ts, on node:net): as strict as play's steps are
// (tasks/common/ipv4.ts), so the double refuses what the steps would never send and accepts what they do.
import test from 'ava';
import { isIPv4, parseSubnet, splitCidr, subnetContains } from '../../../lab/windows/ipv4.js';

test('addresses: strict dotted quads only', (t) => {
  const texts = [
    '10.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '010.0.0.1',
    '10.1',
    '256.0.0.1',
    ' 10.0.0.1',
    '10.0.0.1/24',
    '',
  ];
  t.deepEqual(
    texts.map((text) => [text, isIPv4(text)]),
    [
      ['10.0.0.1', true],
      ['0.0.0.0', true],
      ['255.255.255.255', true],
      ['010.0.0.1', false],
      ['10.1', false],
      ['256.0.0.1', false],
      [' 10.0.0.1', false],
      ['10.0.0.1/24', false],
      ['', false],
    ],
  );
});

test('subnets: a.b.c.d/p with p in 0..32, host bits kept as written', (t) => {
  const texts = [
    '10.244.1.0/24',
    '10.244.1.7/24',
    '0.0.0.0/0',
    '10.0.0.1/32',
    '10.0.0.0/33',
    '10.0.0.0/024',
    '10.0.0/24',
    '10.0.0.0',
  ];
  t.deepEqual(
    texts.map((text) => [text, parseSubnet(text)]),
    [
      ['10.244.1.0/24', { address: '10.244.1.0', prefix: 24 }],
      ['10.244.1.7/24', { address: '10.244.1.7', prefix: 24 }],
      ['0.0.0.0/0', { address: '0.0.0.0', prefix: 0 }],
      ['10.0.0.1/32', { address: '10.0.0.1', prefix: 32 }],
      ['10.0.0.0/33', null],
      ['10.0.0.0/024', null],
      ['10.0.0/24', null],
      ['10.0.0.0', null],
    ],
  );
});

test('membership: by the prefix, whatever host bits the subnet was written with', (t) => {
  const cases: [string, string][] = [
    ['10.244.1.0/24', '10.244.1.2'],
    ['10.244.1.7/24', '10.244.1.255'],
    ['10.244.1.0/24', '10.244.2.1'],
    ['0.0.0.0/0', '198.18.0.1'],
    ['10.0.0.1/32', '10.0.0.1'],
    ['10.0.0.1/32', '10.0.0.2'],
  ];
  t.deepEqual(
    cases.map(([subnet, address]) => [subnet, address, subnetContains(parseSubnet(subnet)!, address)]),
    [
      ['10.244.1.0/24', '10.244.1.2', true],
      ['10.244.1.7/24', '10.244.1.255', true],
      ['10.244.1.0/24', '10.244.2.1', false],
      ['0.0.0.0/0', '198.18.0.1', true],
      ['10.0.0.1/32', '10.0.0.1', true],
      ['10.0.0.1/32', '10.0.0.2', false],
    ],
  );
});

test('the model keeps an interface address as address/length, /32 when the length is absent', (t) => {
  t.deepEqual(
    [splitCidr('10.0.0.5/24'), splitCidr('10.0.0.5')],
    [
      { address: '10.0.0.5', length: 24 },
      { address: '10.0.0.5', length: 32 },
    ],
  );
});
