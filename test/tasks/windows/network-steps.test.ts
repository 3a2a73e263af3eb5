// The optional network steps of docs/domain.md, steps 1-2 (netAdapters, dnsClient, networkCleanup): their
// pure diffs as tables, their option errors, and the three-run cycle against the simulated node (sim-node.ts).
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import {
  dnsClient,
  netAdapters,
  networkCleanup,
  type NetAdaptersActual,
  type NetAdaptersDesired,
} from '../../../tasks/windows/index.js';
import { diffNetAdapters } from '../../../tasks/windows/net-adapters.js';
import { diffNetworkCleanup } from '../../../tasks/windows/network-cleanup.js';
import { createNetwork } from '../../../lab/windows/hns-store.js';
import { getValue, setValue } from '../../../lab/windows/registry-store.js';
import type { NodeState } from '../../../lab/windows/node-state.js';
import { bootNow, simulatedNode } from './sim-node.js';
import { plan, threeRuns } from './step-runs.js';

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

test('netAdapters diff: a table of desired against actual', (t) => {
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

test('networkCleanup diff: runs once per token, says what it removes', (t) => {
  const d = { token: '2026-11-21', removeHnsNetworks: true, removeGhostAdapters: true };
  const ghosts = [{ instanceId: 'ROOT\\VMS_MP\\0001', friendlyName: 'Hyper-V Virtual Ethernet Adapter #2' }];
  t.is(
    diffNetworkCleanup(d, {
      token: '2026-11-21',
      rebootPending: false,
      hnsNetworks: ['l2bridge'],
      ghostAdapters: ghosts,
    }).action,
    'noop',
  );
  const c = diffNetworkCleanup(d, {
    token: null,
    rebootPending: false,
    hnsNetworks: ['l2bridge', 'nat'],
    ghostAdapters: ghosts,
  });
  t.is(c.action, 'run');
  t.deepEqual(c.after, { token: '2026-11-21' });
  t.regex(c.warnings![0]!, /destructive: removes 2 HNS network\(s\) \(l2bridge, nat\) and 1 ghost adapter/);
  t.is(
    diffNetworkCleanup(d, { token: '2026-01-01', rebootPending: false, hnsNetworks: [], ghostAdapters: [] }).action,
    'run',
  );
  t.deepEqual(
    diffNetworkCleanup(
      { ...d, removeHnsNetworks: false },
      { token: null, rebootPending: false, hnsNetworks: ['nat'], ghostAdapters: [] },
    ).before!.hnsNetworks,
    [],
  );
});

const optionErrors: { make: (o: any) => unknown; options: unknown; field: string; message: RegExp }[] = [
  { make: netAdapters, options: { adapters: [] }, field: 'adapters', message: /non-empty list/ },
  {
    make: netAdapters,
    options: { adapters: [{ mac: '00-15-00-00-00' }] },
    field: 'adapters[0].mac',
    message: /MAC address such as/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: '00-15:00-00-00-01' }] },
    field: 'adapters[0].mac',
    message: /MAC address/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, name: 'eth*' }] },
    field: 'adapters[0].name',
    message: /adapter name/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, name: 'vEthernet (eth1)' }] },
    field: 'adapters[0].name',
    message: /not a vEthernet name/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, ipv4: '172.16.126.216' }] },
    field: 'adapters[0].ipv4[0]',
    message: /with its prefix length/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, ipv4: '172.16.126.0/24' }] },
    field: 'adapters[0].ipv4[0]',
    message: /host address/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, ipv4: '172.16.126.216/24', gateway: '172.16.127.1' }] },
    field: 'adapters[0].gateway',
    message: /not in any subnet/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, dnsServers: 'a' }] },
    field: 'adapters[0].dnsServers',
    message: /non-empty list/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, dnsServers: ['dns1'] }] },
    field: 'adapters[0].dnsServers[0]',
    message: /IPv4 address/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, speed: 1 }] },
    field: 'adapters[0].speed',
    message: /not an adapter option/,
  },
  {
    make: netAdapters,
    options: { adapters: [{ mac: MAC0, name: 'eth0' }, { mac: '00:15:00:00:00:01' }] },
    field: 'adapters[1]',
    message: /same MAC 00-15-00-00-00-01 as adapters\[0\]/,
  },
  {
    make: netAdapters,
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
    make: netAdapters,
    options: { adapters: [{ mac: MAC0 }], keepAddress: 'node009' },
    field: 'keepAddress',
    message: /IPv4 address/,
  },
  { make: dnsClient, options: {}, field: 'primaryDomain', message: /or suffixSearchList is required/ },
  { make: dnsClient, options: { primaryDomain: 'my lan' }, field: 'primaryDomain', message: /DNS domain/ },
  {
    make: dnsClient,
    options: { suffixSearchList: ['mylan.k8s', '-x'] },
    field: 'suffixSearchList[1]',
    message: /DNS domain/,
  },
  { make: networkCleanup, options: {}, field: 'token', message: /got nothing/ },
  { make: networkCleanup, options: { token: 'a\nb' }, field: 'token', message: /one line/ },
  {
    make: networkCleanup,
    options: { token: 'x', removeHnsNetworks: false, removeGhostAdapters: false },
    field: 'removeHnsNetworks',
    message: /nothing to clean up/,
  },
];

test('option errors of the network steps name the step and the field', (t) => {
  for (const e of optionErrors) {
    const err = t.throws(() => e.make(e.options), { instanceOf: StepOptionError }, JSON.stringify(e.options));
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

test("netAdapters: the seed's two NICs by MAC, in three runs; a missing MAC fails naming it", async (t) => {
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

test('netAdapters: refuses to remove the address play connects to, before changing anything', async (t) => {
  const { node, n } = simulatedNode(t, seedNics);
  const step = netAdapters({ adapters: SEED_NICS, keepAddress: '172.16.126.99' });
  const p = await plan(n, step);
  await t.throwsAsync(step.apply(n, p.change, p.actual, step.desired), {
    message: /would remove 172\.16\.126\.99 from Ethernet, the address play reaches node009 at/,
  });
  t.false(n.namesSince(0).includes('Set-PlayNetAdapter'));
  t.is(nicOf(node.state, MAC1)!.name, 'Ethernet 2');
});

const TCPIP = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';

test('dnsClient: NV Domain and the suffix search list in three runs; case does not matter', async (t) => {
  const { node, n } = simulatedNode(t);
  const r = await threeRuns(n, dnsClient({ primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] }));
  t.deepEqual(r.first.fields, ['primaryDomain', 'suffixSearchList']);
  t.deepEqual(
    { primaryDomain: getValue(node.state, TCPIP, 'NV Domain')?.data, suffixSearchList: node.state.dnsSuffixSearchList },
    { primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] },
  );
  setValue(node.state, TCPIP, 'NV Domain', 'String', 'MyLan.K8s');
  t.is((await plan(n, dnsClient({ primaryDomain: 'mylan.k8s' }))).change.action, 'noop');
});

test('networkCleanup: once per token, removes HNS networks and ghosts, owes a reboot until the node boots', async (t) => {
  const { node, n } = simulatedNode(t, (s) => {
    createNetwork(s, {
      name: 'l2bridge',
      type: 'L2Bridge',
      addressPrefix: '10.160.11.0/24',
      gateway: '10.160.11.1',
      adapterName: 'eth1',
    });
    s.pnpNetDevices.push({
      instanceId: 'ROOT\\VMS_MP\\0001',
      friendlyName: 'Hyper-V Virtual Ethernet Adapter #2',
      status: 'Error',
    });
  });
  const r = await threeRuns(n, networkCleanup({ token: '2026-11-21' }));
  t.is(r.first.action, 'run');
  t.deepEqual(r.applyCalls, ['Invoke-PlayNetworkCleanup']);
  t.deepEqual(r.outputs, { rebootRequired: true });
  t.deepEqual(node.state.hns.networks, []);
  t.deepEqual(
    node.state.pnpNetDevices.filter((d) => d.status === 'Error'),
    [],
  );
  bootNow(node, new Date('2026-11-21T10:00:00Z'));
  const after = await plan(n, networkCleanup({ token: '2026-11-21' }));
  t.is(after.change.action, 'noop');
  const step = networkCleanup({ token: '2026-11-21' });
  t.deepEqual(step.outputs!(step.desired, after.actual), { rebootRequired: false });
  t.is((await plan(n, networkCleanup({ token: 'again' }))).change.action, 'run');
});
