// windows.netAdapters (this folder): its diff table, its option errors, and its three runs against the
// simulated node (its NICs, addresses, routes and DNS servers are part of the node's shared Windows surface).
import test from 'ava';
import type { NodeState } from '../../../../lab/windows/node-state.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { plan, threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { type NetAdaptersActual, type NetAdaptersDesired, netAdapters } from './step.js';

const MAC0 = '00-15-00-00-00-01',
  MAC1 = '00-15-00-00-00-02';
/** docs/field-notes.md#a-network-clean-up-and-nics */
const SEED_NICS = [
  { mac: MAC0, name: 'eth0', ipv4: '172.16.126.216/24', gateway: '172.16.126.1' },
  { mac: MAC1, name: 'eth1', ipv4: ['100.100.126.216/23'], dnsServers: ['100.100.126.205', '100.100.126.206'] },
];
const nic = (o: Partial<NetAdaptersActual['adapters'][string]> = {}) => ({
  name: 'Ethernet',
  ipInterface: 'Ethernet',
  dhcp: false,
  ipv4: [],
  gateway: null,
  dnsServers: [],
  ...o,
});
const desired = (adapters: NetAdaptersDesired['adapters']): NetAdaptersDesired => ({ adapters });

const { diff: diffNetAdapters } = netAdapters({ adapters: [{ mac: MAC0 }] });

test('diff: a table of desired against actual', (t) => {
  const d = desired([
    { mac: MAC1, name: 'eth1', ipv4: ['100.100.126.216/23'], dnsServers: ['100.100.126.205', '100.100.126.206'] },
  ]);
  const done = nic({
    name: 'eth1',
    ipInterface: 'eth1',
    ipv4: ['100.100.126.216/23'],
    dnsServers: ['100.100.126.205', '100.100.126.206'],
  });
  const noop = { action: 'noop', fields: [], before: null, after: null };
  const update = (field: string, before: unknown, after: unknown) => ({
    action: 'update',
    fields: [field],
    before: { [field]: before },
    after: { [field]: after },
  });
  const IPV4 = ['100.100.126.216/23'];
  const DNS = ['100.100.126.205', '100.100.126.206'];
  const rows: { actual: NetAdaptersActual; change: unknown }[] = [
    { actual: { adapters: { [MAC1]: done } }, change: noop },
    { actual: { adapters: { [MAC1]: { ...done, name: 'ETH1' } } }, change: noop },
    { actual: { adapters: { [MAC1]: { ...done, ipInterface: 'vEthernet (eth1)' } } }, change: noop },
    {
      actual: { adapters: { [MAC1]: { ...done, name: 'Ethernet 2' } } },
      change: update('eth1.name', 'Ethernet 2', 'eth1'),
    },
    {
      actual: { adapters: { [MAC1]: { ...done, dhcp: true } } },
      change: update('eth1.ipv4', 'DHCP (100.100.126.216/23)', IPV4),
    },
    {
      actual: { adapters: { [MAC1]: { ...done, ipv4: ['100.100.126.216/24'] } } },
      change: update('eth1.ipv4', ['100.100.126.216/24'], IPV4),
    },
    {
      actual: { adapters: { [MAC1]: { ...done, ipv4: ['100.100.126.216/23', '10.0.0.5/8'] } } },
      change: update('eth1.ipv4', ['100.100.126.216/23', '10.0.0.5/8'], IPV4),
    },
    {
      actual: { adapters: { [MAC1]: { ...done, dnsServers: ['100.100.126.206', '100.100.126.205'] } } },
      change: update('eth1.dnsServers', ['100.100.126.206', '100.100.126.205'], DNS),
    },
    // The gateway is not asked for on eth1: what the node has stays.
    { actual: { adapters: { [MAC1]: { ...done, gateway: '100.100.126.1' } } }, change: noop },
    {
      actual: { adapters: {} },
      change: {
        ...update('eth1', null, { name: 'eth1', ipv4: IPV4, dnsServers: DNS }),
        warnings: [
          "there is no physical network adapter with MAC 00-15-00-00-00-02 on the host: apply will fail (check the inventory's MAC)",
        ],
      },
    },
  ];
  for (const row of rows) t.deepEqual(diffNetAdapters(d, row.actual), row.change, JSON.stringify(row.actual));
});

const optionErrors: { options: unknown; field: string; message: RegExp }[] = [
  { options: { adapters: [] }, field: 'adapters', message: /non-empty list/ },
  {
    options: { adapters: [{ mac: '00-15-00-00-00' }] },
    field: 'adapters[0].mac',
    message: /MAC address such as/,
  },
  {
    options: { adapters: [{ mac: '00-15:00-00-00-01' }] },
    field: 'adapters[0].mac',
    message: /MAC address/,
  },
  {
    options: { adapters: [{ mac: MAC0, name: 'eth*' }] },
    field: 'adapters[0].name',
    message: /adapter name/,
  },
  {
    options: { adapters: [{ mac: MAC0, name: 'vEthernet (eth1)' }] },
    field: 'adapters[0].name',
    message: /not a vEthernet name/,
  },
  {
    options: { adapters: [{ mac: MAC0, ipv4: '172.16.126.216' }] },
    field: 'adapters[0].ipv4[0]',
    message: /with its prefix length/,
  },
  {
    options: { adapters: [{ mac: MAC0, ipv4: '172.16.126.0/24' }] },
    field: 'adapters[0].ipv4[0]',
    message: /host address/,
  },
  {
    options: { adapters: [{ mac: MAC0, ipv4: '172.16.126.216/24', gateway: '172.16.127.1' }] },
    field: 'adapters[0].gateway',
    message: /not in any subnet/,
  },
  {
    options: { adapters: [{ mac: MAC0, dnsServers: 'a' }] },
    field: 'adapters[0].dnsServers',
    message: /non-empty list/,
  },
  {
    options: { adapters: [{ mac: MAC0, dnsServers: ['dns1'] }] },
    field: 'adapters[0].dnsServers[0]',
    message: /IPv4 address/,
  },
  {
    options: { adapters: [{ mac: MAC0, speed: 1 }] },
    field: 'adapters[0].speed',
    message: /not an adapter option/,
  },
  {
    options: { adapters: [{ mac: MAC0, name: 'eth0' }, { mac: '00:15:00:00:00:01' }] },
    field: 'adapters[1]',
    message: /same MAC 00-15-00-00-00-01 as adapters\[0\]/,
  },
  {
    options: {
      adapters: [
        { mac: MAC0, name: 'eth0' },
        { mac: MAC1, name: 'ETH0' },
      ],
    },
    field: 'adapters[1]',
    message: /same name/,
  },
  {
    options: { adapters: [{ mac: MAC0 }], keepAddress: 'node009' },
    field: 'keepAddress',
    message: /IPv4 address/,
  },
];

test('option errors name the step and the field', (t) => {
  for (const e of optionErrors) {
    const err = t.throws(
      () => netAdapters(e.options as never),
      { instanceOf: StepOptionError },
      JSON.stringify(e.options),
    );
    t.is((err as StepOptionError & { field: string }).field, e.field, JSON.stringify(e.options));
    t.regex(err!.message, e.message);
  }
  t.deepEqual(netAdapters({ adapters: [{ mac: '00:15:5d:0a:0b:0c' }] }).desired.adapters[0], {
    mac: '00-15-5D-0A-0B-0C',
  });
});

/** Two NICs as Windows names them before the netAdapters step, both on DHCP; only the first has a lease. */
function seedNics(s: NodeState): void {
  s.adapters = [
    {
      name: 'Ethernet',
      macAddress: MAC0,
      interfaceIndex: 4,
      physical: true,
      dhcp: true,
      ipv4: ['172.16.126.99/24'],
      gateway: '172.16.126.1',
      dnsServers: ['172.16.126.1'],
    },
    {
      name: 'Ethernet 2',
      macAddress: MAC1,
      interfaceIndex: 7,
      physical: true,
      dhcp: true,
      ipv4: [],
      gateway: null,
      dnsServers: [],
    },
  ];
}
const nicOf = (s: NodeState, mac: string) => s.adapters.find((a) => a.physical && a.macAddress === mac);

test("the seed's two NICs by MAC, in three runs; a missing MAC fails naming it", async (t) => {
  const { node, n } = simulatedNode(t, seedNics);
  const r = await threeRuns(n, netAdapters({ adapters: SEED_NICS }));
  t.deepEqual(r.first.fields, ['eth0.name', 'eth0.ipv4', 'eth1.name', 'eth1.ipv4', 'eth1.dnsServers']);
  t.deepEqual(r.applyCalls, ['Set-PlayNetAdapter', 'Set-PlayNetAdapter']);
  t.like(nicOf(node.state, MAC0), {
    name: 'eth0',
    dhcp: false,
    ipv4: ['172.16.126.216/24'],
    gateway: '172.16.126.1',
  });
  t.like(nicOf(node.state, MAC1), {
    name: 'eth1',
    ipv4: ['100.100.126.216/23'],
    dnsServers: ['100.100.126.205', '100.100.126.206'],
  });
  t.deepEqual(n.calls.find((c) => c.fn === 'Set-PlayNetAdapter')!.args, {
    macAddress: MAC0,
    newName: 'eth0',
    ipv4: ['172.16.126.216/24'],
  });

  const missing = netAdapters({ adapters: [{ mac: '00-15-00-00-00-09', name: 'eth2' }] });
  const p = await plan(n, missing);
  await t.throwsAsync(missing.apply(n, p.change, p.actual, missing.desired), {
    message: /no physical network adapter with MAC 00-15-00-00-00-09 on node009: check the inventory's MAC for eth2/,
  });
});

test('refuses to remove the address play connects to, before changing anything', async (t) => {
  const { node, n } = simulatedNode(t, seedNics);
  const step = netAdapters({ adapters: SEED_NICS, keepAddress: '172.16.126.99' });
  const p = await plan(n, step);
  await t.throwsAsync(step.apply(n, p.change, p.actual, step.desired), {
    message: /would remove 172\.16\.126\.99 from Ethernet, the address play reaches node009 at/,
  });
  t.false(n.namesSince(0).includes('Set-PlayNetAdapter'));
  t.is(nicOf(node.state, MAC1)!.name, 'Ethernet 2');
});
