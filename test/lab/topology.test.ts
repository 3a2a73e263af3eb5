import test from 'ava';
import { UsageError } from '../../runner/core/errors.js';
import { neighbourThresholdsFor } from '../../lab/hosts/netns.js';
import { bridgeOf, segmentBridge, segmentsFor } from '../../lab/hosts/segments.js';
import {
  BRIDGE,
  BRIDGE_ADDRESS,
  BRIDGE_MAC,
  BRIDGE_MAX_PORTS,
  HOST_IFACE,
  LAB_ROUTE,
  MAX_HOSTS,
  MAX_IFNAME,
  hostAddress,
  hostName,
  hostOfVeth,
  inLabRange,
  mergeCounts,
  parseHostName,
  planHost,
  planTopology,
  validateCounts,
  vethName,
} from '../../lab/hosts/topology.js';
import type { LabGroup } from '../../lab/hosts/topology.js';

test('plans linux1..N then tor1..M with fixed addresses, eth1 inside, a veth per host', (t) => {
  const plan = planTopology({ linux: 3, tor: 2, windows: 0 });
  t.deepEqual(
    plan.map((h) => [h.name, h.group, h.address, h.namespace, h.iface, h.veth]),
    [
      ['linux1', 'linux', '198.18.0.101', 'linux1', 'eth1', 'pl-linux1'],
      ['linux2', 'linux', '198.18.0.102', 'linux2', 'eth1', 'pl-linux2'],
      ['linux3', 'linux', '198.18.0.103', 'linux3', 'eth1', 'pl-linux3'],
      ['tor1', 'tor', '198.18.0.11', 'tor1', 'eth1', 'pl-tor1'],
      ['tor2', 'tor', '198.18.0.12', 'tor2', 'eth1', 'pl-tor2'],
    ],
  );
  t.true(plan.every((h) => h.prefixLength === 24 && h.iface === HOST_IFACE));
  t.is(plan[2]!.mac, '02:00:c6:12:00:67');
  t.is(BRIDGE_MAC, '02:00:c6:12:00:01');
});

test('the largest lab: unique addresses and names, all in 198.18.0.0/15, none is the bridge, veths fit IFNAMSIZ, no bridge past its ports', (t) => {
  for (const counts of [
    { ...MAX_HOSTS, private: 0 },
    { linux: MAX_HOSTS.linux, tor: 0, windows: 0 },
  ]) {
    const plan = planTopology(counts);
    t.is(
      plan.length,
      Object.values(counts).reduce((a, b) => a + b, 0),
    );
    const addresses = plan.map((h) => h.address);
    t.is(new Set(addresses).size, plan.length);
    t.is(new Set(plan.map((h) => h.veth)).size, plan.length);
    t.is(new Set([...plan.map((h) => h.mac), BRIDGE_MAC]).size, plan.length + 1);
    t.false(addresses.includes(BRIDGE_ADDRESS));
    t.true(addresses.every(inLabRange));
    // Never the private segment 198.18.32.0/24, the simulated cluster's service CIDR 198.18.240.0/20, pod
    // CIDRs and VIPs in 198.19.0.0/16, nor a subnet's .0 or .255.
    t.true(
      addresses.every((a) => a.startsWith('198.18.') && Number(a.split('.')[2]) < 32),
      'outside 198.18.32.0/24, 198.18.240.0/20 and 198.19/16',
    );
    t.true(addresses.every((a) => !/\.(0|255)$/.test(a)));
    t.true(plan.every((h) => h.veth.length <= MAX_IFNAME));
    // Every host reaches the bridge and the hosts of the other /24s through the on-link lab route.
    t.true(plan.every((h) => h.routes.length === 1 && h.routes[0] === LAB_ROUTE));
    // Ports per bridge: its hosts, and on playlab0 one uplink per segment bridge.
    const ports = new Map<string, number>();
    for (const h of plan) ports.set(bridgeOf(h), (ports.get(bridgeOf(h)) ?? 0) + 1);
    for (const s of segmentsFor(plan)) ports.set(segmentBridge(s), ports.get(segmentBridge(s))! + 1);
    ports.set(BRIDGE, (ports.get(BRIDGE) ?? 0) + segmentsFor(plan).length);
    t.true(
      [...ports.values()].every((n) => n <= BRIDGE_MAX_PORTS),
      JSON.stringify(Object.fromEntries(ports)),
    );
  }
  t.true(BRIDGE.length <= MAX_IFNAME);
});

test('addresses: linux1..154 in 198.18.0.101-254 as before, then 254 to a /24 from 198.18.16.1; tor, windows, control unchanged', (t) => {
  const cases: [LabGroup, number][] = [
    ['linux', 1],
    ['linux', 154],
    ['linux', 155],
    ['linux', 408],
    ['linux', 409],
    ['linux', 1000],
    ['linux', 1023],
    ['linux', 4000],
    ['tor', 1],
    ['tor', 90],
    ['windows', 1],
    ['windows', 246],
    ['control', 1],
  ];
  t.deepEqual(
    cases.map(([g, i]) => [hostName(g, i), hostAddress(g, i)]),
    [
      ['linux1', '198.18.0.101'],
      ['linux154', '198.18.0.254'],
      ['linux155', '198.18.16.1'],
      ['linux408', '198.18.16.254'],
      ['linux409', '198.18.17.1'],
      ['linux1000', '198.18.19.84'],
      ['linux1023', '198.18.19.107'],
      ['linux4000', '198.18.31.36'],
      ['tor1', '198.18.0.11'],
      ['tor90', '198.18.0.100'],
      ['node009', '198.18.1.9'],
      ['node254', '198.18.1.254'],
      ['control1', '198.18.0.5'],
    ],
  );
  t.is(planHost('linux', 155).mac, '02:00:c6:12:10:01');
});

test('counts outside the plan or the bridge are usage errors naming the flag and the range', (t) => {
  const refused = (counts: Parameters<typeof planTopology>[0]) => {
    const e = t.throws(() => planTopology(counts), { instanceOf: UsageError });
    t.is(e?.exitCode, 64);
    return e?.message;
  };
  t.deepEqual(
    [
      refused({ linux: MAX_HOSTS.linux + 1, tor: 0, windows: 0 }),
      refused({ linux: 1, tor: -1, windows: 0 }),
      refused({ linux: 1.5, tor: 0, windows: 0 }),
      refused({ linux: Number.NaN, tor: 0, windows: 0 }),
      refused({ linux: 0, tor: 0, windows: MAX_HOSTS.windows + 1 }),
      refused({ linux: 0, tor: 0, windows: 0, control: 2 }),
    ],
    [
      '--linux 4001: the lab can have 0..4000 linux hosts (a whole number)',
      '--tor -1: the lab can have 0..90 tor hosts (a whole number)',
      '--linux 1.5: the lab can have 0..4000 linux hosts (a whole number)',
      '--linux NaN: the lab can have 0..4000 linux hosts (a whole number)',
      '--windows 247: the lab can have 0..246 windows hosts (a whole number)',
      '--control 2: the lab can have 0..1 control hosts (a whole number)',
    ],
  );
  // Past one bridge's 1,023 ports: segment bridges take the rest.
  t.notThrows(() => validateCounts({ linux: 1000, tor: 20, windows: 4 }));
  t.notThrows(() => validateCounts({ ...MAX_HOSTS }));
  t.throws(() => vethName('a-very-long-host-name'), { message: /longer than 15/ });
});

test('the neighbour table limits a lab needs grow with its hosts', (t) => {
  t.deepEqual([20, 1000].map(neighbourThresholdsFor), [
    { gc_thresh1: 40, gc_thresh2: 80, gc_thresh3: 160 },
    { gc_thresh1: 2000, gc_thresh2: 4000, gc_thresh3: 8000 },
  ]);
});

test('inLabRange accepts only 198.18.0.0/15', (t) => {
  for (const a of ['198.18.0.1', '198.19.255.254', '198.18.3.7']) t.true(inLabRange(a), a);
  for (const a of ['198.17.255.255', '198.20.0.1', '8.8.8.8', '127.0.0.1', '198.18.0.256', 'linux1', ''])
    t.false(inLabRange(a), a);
});

test('host names and veth names map back to hosts', (t) => {
  t.deepEqual(parseHostName('linux12'), { group: 'linux', index: 12 });
  t.deepEqual(parseHostName('tor3'), { group: 'tor', index: 3 });
  t.deepEqual(parseHostName('linux1023'), { group: 'linux', index: 1023 });
  t.deepEqual(parseHostName('linux4000'), { group: 'linux', index: 4000 });
  for (const bad of ['linux0', 'linux01', 'tor91', 'win1', 'linux', 'LINUX1', 'linux4001'])
    t.is(parseHostName(bad), undefined, bad);
  t.is(hostOfVeth('pl-tor7'), 'tor7');
  t.is(hostOfVeth('pl-foo'), undefined);
  t.is(hostOfVeth('eth0'), undefined);
});

test('asking for fewer hosts never shrinks the lab', (t) => {
  t.deepEqual(
    mergeCounts({ linux: 20, tor: 0, windows: 2, control: 1 }, { linux: 4, tor: 3, windows: 1, control: 0 }),
    { linux: 20, tor: 3, windows: 2, control: 1 },
  );
  // A state file written before the lab had Windows nodes (or a control host) has no such count.
  t.deepEqual(mergeCounts({ linux: 20, tor: 3 }, { linux: 0, tor: 0, windows: 2 }), {
    linux: 20,
    tor: 3,
    windows: 2,
    control: 0,
  });
});
