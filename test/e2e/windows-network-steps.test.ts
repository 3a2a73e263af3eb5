// The optional network steps (docs/domain.md#step-1-network-clean-up, step 2), three runs each over real SSH against a simulated
// Windows node (lab/windows, a TEST DOUBLE): NICs found by MAC and configured, and still converged after
// HNS moved eth1's addresses to its vNIC; the DNS client; the destructive clean-up once per token and
// the reboot it owes, taken by the reboot step from its output.
import test from 'ava';
import { definePlaybook } from '../../runner/playbook/define.js';
import { labMac } from '../../lab/windows/defaults.js';
import { getValue } from '../../lab/windows/registry-store.js';
import { dnsClient, hnsNetwork, netAdapters, networkCleanup, reboot } from '../../tasks/windows/index.js';
import { L2BRIDGE } from '../helpers/hns-fixtures.js';
import { runOne, runPlaybook, startWindowsNode, threeRuns } from '../helpers/simulated-windows-node.js';

const MAC0 = labMac('node009', 0),
  MAC1 = labMac('node009', 1);
const NICS = [
  { mac: MAC0, name: 'eth0', ipv4: '172.16.126.216/24', gateway: '172.16.126.1' },
  { mac: MAC1, name: 'eth1', ipv4: '100.100.126.216/23', dnsServers: ['100.100.126.205', '100.100.126.206'] },
];

test('netAdapters (field note A): renamed and addressed by MAC; after HNS binds eth1, still a noop', async (t) => {
  const node = await startWindowsNode(t, {
    seed: (s) => {
      s.adapters[0]!.name = 'Ethernet';
      s.adapters[1]!.name = 'Ethernet 2';
    },
  });
  const { check } = await threeRuns(
    t,
    node,
    () => netAdapters({ adapters: NICS }),
    () => {
      t.like(node.state.adapters[0], {
        name: 'eth0',
        dhcp: false,
        ipv4: ['172.16.126.216/24'],
        gateway: '172.16.126.1',
      });
      t.like(node.state.adapters[1], {
        name: 'eth1',
        dhcp: false,
        ipv4: ['100.100.126.216/23'],
        dnsServers: ['100.100.126.205', '100.100.126.206'],
      });
    },
  );
  t.deepEqual(check.fields, ['eth0.name', 'eth0.ipv4', 'eth0.gateway', 'eth1.name', 'eth1.ipv4', 'eth1.dnsServers']);
  t.like(await runOne(node, hnsNetwork(L2BRIDGE)), { status: 'changed' });
  t.like(
    node.state.adapters.find((a) => a.name === 'vEthernet (eth1)'),
    { ipv4: ['100.100.126.216/23'] },
  );
  t.like(await runOne(node, netAdapters({ adapters: NICS })), { status: 'ok', action: 'noop' });
  // An inventory typo: the plan warns, the apply fails naming the MAC, nothing else changes.
  const typo = await runOne(node, netAdapters({ adapters: [{ mac: '00-15-5D-FF-FF-FF', name: 'eth2' }] }));
  t.is(typo.status, 'failed');
  t.regex(typo.error!, /no physical network adapter with MAC 00-15-5D-FF-FF-FF on node009/);
});

test('dnsClient (field note A): NV Domain and the suffix search list', async (t) => {
  const node = await startWindowsNode(t);
  await threeRuns(
    t,
    node,
    () => dnsClient({ primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] }),
    () => {
      t.like(getValue(node.state, 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters', 'NV Domain'), {
        data: 'mylan.k8s',
      });
      t.deepEqual(node.state.dnsSuffixSearchList, ['mylan.k8s']);
    },
  );
});

test('networkCleanup (docs/domain.md step 1): stale HNS network and ghost adapter removed once per token; the reboot it owes is taken', async (t) => {
  const node = await startWindowsNode(t, {
    rebootSeconds: 0.5,
    seed: (s) => {
      s.hns.networks.push({
        id: 'OLD',
        name: 'stale',
        type: 'L2Bridge',
        addressPrefix: '10.1.0.0/24',
        gateway: '10.1.0.1',
        adapterName: 'eth1',
      });
      s.pnpNetDevices.push({
        instanceId: 'ROOT\\VMS_MP\\0001',
        friendlyName: 'Hyper-V Virtual Ethernet Adapter #2',
        status: 'Error',
      });
    },
  });
  const { check } = await threeRuns(
    t,
    node,
    () => networkCleanup({ token: '2026-11-21' }),
    () => {
      t.deepEqual(node.state.hns.networks, []);
      t.false(node.state.pnpNetDevices.some((d) => d.status === 'Error'));
    },
  );
  t.regex(check.warnings![0]!, /destructive: removes 1 HNS network\(s\) \(stale\) and 1 ghost adapter/);

  // As onboard-windows wires them: the reboot is required by the clean-up's output, once.
  const pb = definePlaybook({
    name: 'cleanup-reboot',
    description: '',
    tasks: { cleanup: { on: 'node009', step: networkCleanup({ token: '2026-11-21' }) } },
  }).andThen({
    reboot: {
      on: 'node009',
      needs: ['cleanup'],
      step: ({ output }) => reboot({ required: output('cleanup').rebootRequired, timeoutSec: 30 }),
    },
  });
  const first = await runPlaybook([node], pb);
  t.deepEqual(
    first.hosts.node009!.steps.map((s) => [s.task, s.status]),
    [
      ['cleanup', 'ok'],
      ['reboot', 'changed'],
    ],
  );
  t.is(node.sim.node.reboots, 1);
  const again = await runPlaybook([node], pb);
  t.deepEqual(
    again.hosts.node009!.steps.map((s) => [s.task, s.status]),
    [
      ['cleanup', 'ok'],
      ['reboot', 'ok'],
    ],
  );
  t.is(node.sim.node.reboots, 1, 'no second reboot: the clean-up owes none after the boot');
});
