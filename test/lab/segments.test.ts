// The lab's segment bridges past one bridge's 1,023 ports, pure: which bridge each host is a port of,
// the bridges and uplinks made, and where each bridge forwards each host's MAC.
import test from 'ava';
import {
  bridgeOf,
  forwardingLines,
  hubUplink,
  onLabSegment,
  segmentBridge,
  segmentLinkLines,
  segmentOfBridge,
  segmentUplink,
  segmentsFor,
} from '../../lab/hosts/segments.js';
import { planHost, planTopology } from '../../lab/hosts/topology.js';

test('linux1..600 and every other group are ports of playlab0; later linux hosts fill segment bridges of 1,000', (t) => {
  const hosts = [
    planHost('linux', 1),
    planHost('linux', 600),
    planHost('linux', 601),
    planHost('linux', 1600),
    planHost('linux', 1601),
    planHost('linux', 4000),
    planHost('tor', 90),
    planHost('windows', 246),
    planHost('control', 1),
    planHost('bastion', 9),
    planHost('private', 1),
  ];
  t.deepEqual(
    hosts.map((h) => [h.name, h.address, bridgeOf(h), onLabSegment(h)]),
    [
      ['linux1', '198.18.0.101', 'playlab0', true],
      ['linux600', '198.18.17.192', 'playlab0', true],
      ['linux601', '198.18.17.193', 'playlab0s1', true],
      ['linux1600', '198.18.21.176', 'playlab0s1', true],
      ['linux1601', '198.18.21.177', 'playlab0s2', true],
      ['linux4000', '198.18.31.36', 'playlab0s4', true],
      ['tor90', '198.18.0.100', 'playlab0', true],
      ['node254', '198.18.1.254', 'playlab0', true],
      ['control1', '198.18.0.5', 'playlab0', true],
      ['bastion9', '198.18.2.9', 'playlab0', true],
      ['private1', '198.18.32.11', 'playlab1', false],
    ],
  );
});

test('segment bridges and uplinks: names within IFNAMSIZ that map back, and as many as the plan needs', (t) => {
  t.deepEqual(
    [1, 4].map((s) => [segmentBridge(s), hubUplink(s), segmentUplink(s)]),
    [
      ['playlab0s1', 'playlab0-s1', 'playlab0s1-up'],
      ['playlab0s4', 'playlab0-s4', 'playlab0s4-up'],
    ],
  );
  t.deepEqual(
    [
      'playlab0s1',
      'playlab0s4',
      'playlab0s5',
      'playlab0s0',
      'playlab0',
      'playlab1',
      'playlab0-s1',
      'playlab0s1-up',
    ].map(segmentOfBridge),
    [1, 4, undefined, undefined, undefined, undefined, undefined, undefined],
  );
  t.deepEqual(
    [3, 600, 601, 2000, 4000].map((linux) => segmentsFor(planTopology({ linux, tor: 3, windows: 1 }))),
    [[], [], [1], [1, 2], [1, 2, 3, 4]],
  );
});

test('the ip batch makes what is missing and puts each uplink end on its bridge, without IPv6 link-locals', (t) => {
  t.deepEqual(
    segmentLinkLines([1], () => false),
    [
      'link add playlab0s1 type bridge',
      'link add playlab0-s1 type veth peer name playlab0s1-up',
      'link set playlab0s1 addrgenmode none',
      'link set playlab0-s1 addrgenmode none',
      'link set playlab0s1-up addrgenmode none',
      'link set playlab0s1 up',
      'link set playlab0-s1 master playlab0 up',
      'link set playlab0s1-up master playlab0s1 up',
    ],
  );
  t.deepEqual(
    segmentLinkLines([2], () => true).filter((l) => l.startsWith('link add')),
    [],
  );
});

test('each bridge forwards each host MAC to its veth or to the uplink it lies beyond; the private bridge only to veths', (t) => {
  const plan = [planHost('linux', 1), planHost('linux', 601), planHost('linux', 1601), planHost('private', 1)];
  t.deepEqual(forwardingLines(plan, [1, 2]), [
    // linux1 on playlab0: beyond each segment bridge's uplink.
    'fdb replace 02:00:c6:12:00:65 dev pl-linux1 master static',
    'fdb replace 02:00:c6:12:00:65 dev playlab0s1-up master static',
    'fdb replace 02:00:c6:12:00:65 dev playlab0s2-up master static',
    // linux601 on playlab0s1: beyond playlab0's uplink to it, and beyond playlab0s2's uplink.
    'fdb replace 02:00:c6:12:11:c1 dev pl-linux601 master static',
    'fdb replace 02:00:c6:12:11:c1 dev playlab0-s1 master static',
    'fdb replace 02:00:c6:12:11:c1 dev playlab0s2-up master static',
    'fdb replace 02:00:c6:12:15:b1 dev pl-linux1601 master static',
    'fdb replace 02:00:c6:12:15:b1 dev playlab0-s2 master static',
    'fdb replace 02:00:c6:12:15:b1 dev playlab0s1-up master static',
    'fdb replace 02:00:c6:12:20:0b dev pl-private1 master static',
    // playlab0's own MAC (198.18.0.1, the hosts' way to the root namespace) beyond each uplink.
    'fdb replace 02:00:c6:12:00:01 dev playlab0s1-up master static',
    'fdb replace 02:00:c6:12:00:01 dev playlab0s2-up master static',
  ]);
  t.deepEqual(forwardingLines([planHost('linux', 1)], []), [
    'fdb replace 02:00:c6:12:00:65 dev pl-linux1 master static',
  ]);
});
