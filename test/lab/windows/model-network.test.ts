// The simulated Windows node's NICs, DNS client and network clean-up (a test double): adapters by
// MAC, the HNS vSwitch moving a NIC's IP configuration to "vEthernet (<nic>)" and back, the errors
// the NetTCPIP cmdlets give, a state saved before NICs were modelled, and the clean-up's reboot debt.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { labMac } from '../../../lab/windows/defaults.js';
import { writeFile } from '../../../lab/windows/file-store.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { call, model, tempDir } from './helpers.js';

const MAC1 = labMac('node009', 1);

test('labMac: stable per host, in the Hyper-V range, one per NIC', (t) => {
  t.regex(labMac('node009', 0), /^00-15-5D-[0-9A-F]{2}-[0-9A-F]{2}-01$/);
  t.is(labMac('NODE009', 1), MAC1);
  t.not(labMac('node010', 1), MAC1);
});

test('NICs: found by MAC, configured, renamed; an address in use elsewhere or a taken name is refused', (t) => {
  const node = model(t);
  t.deepEqual(call(node, 'Get-PlayNetAdapters', { macAddresses: ['00-15-00-00-00-09'] }), { adapters: [] });
  t.like((call(node, 'Get-PlayNetAdapters', { macAddresses: [MAC1] }) as { adapters: unknown[] }).adapters[0], {
    name: 'eth1',
    dhcp: true,
    ipv4: [],
  });
  call(node, 'Set-PlayNetAdapter', {
    macAddress: MAC1,
    newName: 'cluster',
    ipv4: ['100.100.126.216/23'],
    dnsServers: ['100.100.126.205'],
  });
  t.like((call(node, 'Get-PlayNetAdapters', { macAddresses: [MAC1] }) as { adapters: unknown[] }).adapters[0], {
    name: 'cluster',
    ipInterface: 'cluster',
    dhcp: false,
    ipv4: ['100.100.126.216/23'],
    dnsServers: ['100.100.126.205'],
    gateway: null,
  });
  t.regex(
    t.throws(() =>
      call(node, 'Set-PlayNetAdapter', { macAddress: labMac('node009', 0), ipv4: ['100.100.126.216/24'] }),
    )!.message,
    /The object already exists/,
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayNetAdapter', { macAddress: labMac('node009', 0), newName: 'CLUSTER' }))!.message,
    /object name already existed/,
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayNetAdapter', { macAddress: '00-15-00-00-00-09', newName: 'x' }))!.message,
    /no physical network adapter with MAC address 00-15-00-00-00-09/,
  );
});

test("an L2Bridge network moves the NIC's addresses to vEthernet (eth1); removing it moves them back", (t) => {
  const node = model(t);
  call(node, 'Set-PlayNetAdapter', { macAddress: MAC1, ipv4: ['100.100.126.216/23'] });
  call(node, 'New-PlayHnsNetwork', {
    name: 'l2bridge',
    type: 'L2Bridge',
    addressPrefix: '10.160.11.0/24',
    gateway: '10.160.11.1',
    adapterName: 'eth1',
  });
  t.like((call(node, 'Get-PlayNetAdapters', { macAddresses: [MAC1] }) as { adapters: unknown[] }).adapters[0], {
    name: 'eth1',
    ipInterface: 'vEthernet (eth1)',
    ipv4: ['100.100.126.216/23'],
  });
  t.deepEqual(node.state.adapters.find((a) => a.name === 'eth1')!.ipv4, []);
  call(node, 'Set-PlayNetAdapter', { macAddress: MAC1, dnsServers: ['100.100.126.205'] });
  t.deepEqual(node.state.adapters.find((a) => a.name === 'vEthernet (eth1)')!.dnsServers, ['100.100.126.205']);
  call(node, 'Remove-PlayHnsNetwork', { name: 'l2bridge' });
  t.is(node.state.adapters.length, 2);
  t.like(
    node.state.adapters.find((a) => a.name === 'eth1'),
    { ipv4: ['100.100.126.216/23'], dnsServers: ['100.100.126.205'] },
  );
});

test('DNS client: NV Domain in the registry, the suffix search list', (t) => {
  const node = model(t);
  t.deepEqual(call(node, 'Get-PlayDnsClient', {}), { primaryDomain: null, suffixSearchList: [] });
  call(node, 'Set-PlayDnsClient', { primaryDomain: 'mylan.k8s' });
  call(node, 'Set-PlayDnsClient', { suffixSearchList: ['mylan.k8s'] });
  t.deepEqual(call(node, 'Get-PlayDnsClient', {}), { primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] });
  t.like(
    call(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters',
      name: 'NV Domain',
    }),
    { data: 'mylan.k8s' },
  );
});

test('clean-up: HNS networks and ghost adapters go, the token is recorded, a reboot is owed until the node boots', async (t) => {
  const node = model(t, (s) => {
    s.pnpNetDevices.push({
      instanceId: 'ROOT\\VMS_MP\\0001',
      friendlyName: 'Hyper-V Virtual Ethernet Adapter #2',
      status: 'Error',
    });
  });
  call(node, 'New-PlayHnsNetwork', {
    name: 'l2bridge',
    type: 'L2Bridge',
    addressPrefix: '10.160.11.0/24',
    gateway: '10.160.11.1',
    adapterName: 'eth1',
  });
  t.deepEqual(call(node, 'Get-PlayNetworkCleanup', {}), {
    token: null,
    rebootPending: false,
    hnsNetworks: ['l2bridge'],
    ghostAdapters: [{ instanceId: 'ROOT\\VMS_MP\\0001', friendlyName: 'Hyper-V Virtual Ethernet Adapter #2' }],
  });
  t.deepEqual(
    call(node, 'Invoke-PlayNetworkCleanup', { token: 't1', removeHnsNetworks: true, removeGhostAdapters: true }),
    { removedNetworks: ['l2bridge'], removedAdapters: ['ROOT\\VMS_MP\\0001'] },
  );
  t.deepEqual(call(node, 'Get-PlayNetworkCleanup', {}), {
    token: 't1',
    rebootPending: true,
    hnsNetworks: [],
    ghostAdapters: [],
  });
  t.is(node.state.adapters.length, 2, 'the vNIC went with the network');
  call(node, 'Restart-PlayComputer', { delaySeconds: 0 });
  await new Promise<void>((resolve) => node.once('up', () => resolve()));
  t.like(call(node, 'Get-PlayNetworkCleanup', {}), { token: 't1', rebootPending: false });
});

test('a state saved before NICs were modelled is upgraded: names kept, MACs and the new keys filled in', (t) => {
  const dir = tempDir(t);
  const old = SimulatedWindowsNode.open({ name: 'node009', stateFile: join(dir, 'state.json') });
  const saved = JSON.parse(JSON.stringify(old.state));
  old.close();
  saved.adapters = ['eth0', 'eth1'];
  delete saved.pnpNetDevices;
  delete saved.dnsSuffixSearchList;
  // Its docker was running with a daemon.json listing the lab registry: that is what it loaded.
  delete saved.dockerLoadedInsecureRegistries;
  writeFile(
    saved,
    'C:\\ProgramData\\Docker\\config\\daemon.json',
    Buffer.from('{"insecure-registries":["registry.lab.test:5000"]}'),
  );
  saved.services.docker = { ...saved.services.w32time, name: 'docker', type: 'own', state: 'Running' };
  writeFileSync(join(dir, 'state.json'), JSON.stringify(saved));
  const node = SimulatedWindowsNode.open({ name: 'node009', stateFile: join(dir, 'state.json') });
  t.teardown(() => node.close());
  t.like(node.state.adapters[1], { name: 'eth1', macAddress: MAC1, physical: true });
  t.deepEqual(node.state.dnsSuffixSearchList, []);
  t.is(node.state.pnpNetDevices.length, 2);
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, ['registry.lab.test:5000']);
});
