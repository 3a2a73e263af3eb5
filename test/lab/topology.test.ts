import test from 'ava';
import {
  BRIDGE, BRIDGE_ADDRESS, BRIDGE_MAC, HOST_IFACE, MAX_HOSTS, MAX_IFNAME, hostOfVeth, inLabRange, mergeCounts, parseHostName,
  planTopology, vethName,
} from '../../lab/topology.js';

test('plans linux1..N then tor1..M with fixed addresses, eth1 inside, a veth per host', (t) => {
  const plan = planTopology({ linux: 3, tor: 2, windows: 0 });
  t.deepEqual(plan.map((h) => [h.name, h.group, h.address, h.namespace, h.iface, h.veth]), [
    ['linux1', 'linux', '198.18.0.101', 'linux1', 'eth1', 'pl-linux1'],
    ['linux2', 'linux', '198.18.0.102', 'linux2', 'eth1', 'pl-linux2'],
    ['linux3', 'linux', '198.18.0.103', 'linux3', 'eth1', 'pl-linux3'],
    ['tor1', 'tor', '198.18.0.11', 'tor1', 'eth1', 'pl-tor1'],
    ['tor2', 'tor', '198.18.0.12', 'tor2', 'eth1', 'pl-tor2'],
  ]);
  t.true(plan.every((h) => h.prefixLength === 24 && h.iface === HOST_IFACE));
  t.is(plan[2]!.mac, '02:00:c6:12:00:67');
  t.is(BRIDGE_MAC, '02:00:c6:12:00:01');
});

test('the largest lab: unique addresses and names, all in 198.18.0.0/15, none is the bridge, veths fit IFNAMSIZ', (t) => {
  const plan = planTopology({ linux: MAX_HOSTS.linux, tor: MAX_HOSTS.tor, windows: MAX_HOSTS.windows });
  const addresses = plan.map((h) => h.address);
  t.is(new Set(addresses).size, plan.length);
  t.is(new Set(plan.map((h) => h.veth)).size, plan.length);
  t.is(new Set([...plan.map((h) => h.mac), BRIDGE_MAC]).size, plan.length + 1);
  t.false(addresses.includes(BRIDGE_ADDRESS));
  t.true(addresses.every(inLabRange));
  t.true(plan.every((h) => h.veth.length <= MAX_IFNAME));
  t.true(BRIDGE.length <= MAX_IFNAME);
  t.is(plan[MAX_HOSTS.linux + MAX_HOSTS.tor - 1]!.address, '198.18.0.100'); // tor90
  t.is(plan.at(-1)!.name, 'node254');
  t.is(plan.at(-1)!.address, '198.18.1.254');
  t.is(plan[MAX_HOSTS.linux - 1]!.address, '198.18.0.254'); // linux154
});

test('counts outside the address plan are refused', (t) => {
  t.throws(() => planTopology({ linux: MAX_HOSTS.linux + 1, tor: 0, windows: 0 }), { message: /0\.\.154 linux hosts/ });
  t.throws(() => planTopology({ linux: 1, tor: -1, windows: 0 }), { message: /tor hosts/ });
  t.throws(() => planTopology({ linux: 1.5, tor: 0, windows: 0 }), { instanceOf: RangeError });
  t.throws(() => planTopology({ linux: 0, tor: 0, windows: MAX_HOSTS.windows + 1 }), { message: /0\.\.246 windows hosts/ });
  t.throws(() => vethName('a-very-long-host-name'), { message: /longer than 15/ });
});

test('inLabRange accepts only 198.18.0.0/15', (t) => {
  for (const a of ['198.18.0.1', '198.19.255.254', '198.18.3.7']) t.true(inLabRange(a), a);
  for (const a of ['198.17.255.255', '198.20.0.1', '8.8.8.8', '127.0.0.1', '198.18.0.256', 'linux1', '']) t.false(inLabRange(a), a);
});

test('host names and veth names map back to hosts', (t) => {
  t.deepEqual(parseHostName('linux12'), { group: 'linux', index: 12 });
  t.deepEqual(parseHostName('tor3'), { group: 'tor', index: 3 });
  for (const bad of ['linux0', 'linux01', 'tor91', 'win1', 'linux', 'LINUX1']) t.is(parseHostName(bad), undefined, bad);
  t.is(hostOfVeth('pl-tor7'), 'tor7');
  t.is(hostOfVeth('pl-foo'), undefined);
  t.is(hostOfVeth('eth0'), undefined);
});

test('asking for fewer hosts never shrinks the lab', (t) => {
  t.deepEqual(mergeCounts({ linux: 20, tor: 0, windows: 2, control: 1 }, { linux: 4, tor: 3, windows: 1, control: 0 }), { linux: 20, tor: 3, windows: 2, control: 1 });
  // A state file written before the lab had Windows nodes (or a control host) has no such count.
  t.deepEqual(mergeCounts({ linux: 20, tor: 3 }, { linux: 0, tor: 0, windows: 2 }), { linux: 20, tor: 3, windows: 2, control: 0 });
});
