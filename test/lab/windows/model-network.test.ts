// The simulated Windows node's NICs, HNS, DNS client and network clean-up (a test double), driven
// through our real PowerShell functions: adapters by MAC, the HNS vSwitch moving a NIC's IP
// configuration to "vEthernet (<nic>)" and back, the NIC blinking when an L2Bridge network is
// created, the host endpoint's vNIC and netsh, the errors the NetTCPIP cmdlets give, a state saved
// before NICs were modelled, and the clean-up's reboot debt.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { labMac } from '../../../lab/windows/defaults.js';
import { writeFile } from '../../../lab/windows/file-store.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { netsh } from '../../../lab/windows/native/netsh.js';
import { model, run, tempDir } from './helpers.js';
import { L2BRIDGE } from '../../helpers/hns-fixtures.js';

const MAC1 = labMac('node009', 1);

/** The adapter whose IP configuration Get-PlayNetAdapters reports for a MAC. */
const adapter = async (node: SimulatedWindowsNode, mac: string) =>
  (await run(node, 'Get-PlayNetAdapters', { macAddresses: [mac] })).adapters[0];

test('labMac: stable per host, in the Hyper-V range, one per NIC', (t) => {
  t.regex(labMac('node009', 0), /^00-15-5D-[0-9A-F]{2}-[0-9A-F]{2}-01$/);
  t.is(labMac('NODE009', 1), MAC1);
  t.not(labMac('node010', 1), MAC1);
});

test('NICs: found by MAC, configured, renamed; an address in use elsewhere or a taken name is refused', async (t) => {
  const node = model(t);
  t.deepEqual(await run(node, 'Get-PlayNetAdapters', { macAddresses: ['00-15-00-00-00-09'] }), { adapters: [] });
  // On DHCP without a lease: only an APIPA address, which is not reported.
  t.like(await adapter(node, MAC1), { name: 'eth1', dhcp: true, ipv4: [] });
  await run(node, 'Set-PlayNetAdapter', {
    macAddress: MAC1,
    newName: 'cluster',
    ipv4: ['100.100.126.216/23'],
    dnsServers: ['100.100.126.205'],
  });
  t.like(await adapter(node, MAC1), {
    name: 'cluster',
    ipInterface: 'cluster',
    dhcp: false,
    ipv4: ['100.100.126.216/23'],
    dnsServers: ['100.100.126.205'],
    gateway: null,
  });
  // New-NetIPAddress's error, as $_.Exception.Message gives it (no "New-NetIPAddress :" prefix).
  const taken = await t.throwsAsync(
    run(node, 'Set-PlayNetAdapter', { macAddress: labMac('node009', 0), ipv4: ['100.100.126.216/24'] }),
  );
  t.is(taken!.message, 'The object already exists.');
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayNetAdapter', { macAddress: labMac('node009', 0), newName: 'CLUSTER' })))!
      .message,
    /object name already existed/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayNetAdapter', { macAddress: '00-15-00-00-00-09', newName: 'x' })))!.message,
    /no physical network adapter with MAC address 00-15-00-00-00-09/,
  );
});

test('NICs: the exact address set, the default route replaced, DNS servers cleared', async (t) => {
  const node = model(t);
  await run(node, 'Set-PlayNetAdapter', {
    macAddress: MAC1,
    ipv4: ['100.100.126.216/23', '100.100.126.217/23'],
    gateway: '100.100.126.1',
    dnsServers: ['100.100.126.205', '100.100.126.206'],
  });
  await run(node, 'Set-PlayNetAdapter', {
    macAddress: MAC1,
    ipv4: ['100.100.126.217/24', '100.100.126.218/23'],
    gateway: '100.100.126.2',
    dnsServers: [],
  });
  t.like(await adapter(node, MAC1), {
    ipv4: ['100.100.126.217/24', '100.100.126.218/23'],
    gateway: '100.100.126.2',
    dnsServers: [],
  });
});

test("an L2Bridge network moves the NIC's addresses to vEthernet (eth1); removing it moves them back", async (t) => {
  const node = model(t);
  await run(node, 'Set-PlayNetAdapter', { macAddress: MAC1, ipv4: ['100.100.126.216/23'] });
  await run(node, 'New-PlayHnsNetwork', L2BRIDGE);
  t.like(await adapter(node, MAC1), {
    name: 'eth1',
    ipInterface: 'vEthernet (eth1)',
    ipv4: ['100.100.126.216/23'],
  });
  t.deepEqual(node.state.adapters.find((a) => a.name === 'eth1')!.ipv4, []);
  await run(node, 'Set-PlayNetAdapter', { macAddress: MAC1, dnsServers: ['100.100.126.205'] });
  t.deepEqual(node.state.adapters.find((a) => a.name === 'vEthernet (eth1)')!.dnsServers, ['100.100.126.205']);
  await run(node, 'Remove-PlayHnsNetwork', { name: 'l2bridge' });
  t.is(node.state.adapters.length, 2);
  t.like(
    node.state.adapters.find((a) => a.name === 'eth1'),
    { ipv4: ['100.100.126.216/23'], dnsServers: ['100.100.126.205'] },
  );
});

test('HNS: creating the L2Bridge network makes the NIC blink once; HNS refusals come back as its errors', async (t) => {
  const node = model(t);
  let drops = 0;
  node.on('drop-connections', () => drops++);
  const refused = async (args: Partial<Record<'name' | 'addressPrefix' | 'gateway' | 'adapterName', string>>) =>
    (await t.throwsAsync(run(node, 'New-PlayHnsNetwork', { ...L2BRIDGE, ...args })))!.message;
  t.is(await refused({ adapterName: 'eth9' }), 'HNS POST /networks failed: Element not found.');
  t.is(await refused({ gateway: '10.160.12.1' }), 'HNS POST /networks failed: The parameter is incorrect.');
  t.is(drops, 0);
  const { id } = await run(node, 'New-PlayHnsNetwork', L2BRIDGE);
  t.is(drops, 1);
  t.is(
    await refused({ name: 'other', addressPrefix: '10.160.12.0/24', gateway: '10.160.12.1', adapterName: 'ETH1' }),
    'HNS POST /networks failed: The object already exists.',
  );
  t.is(drops, 1);
  t.deepEqual(await run(node, 'Get-PlayHnsNetwork', { name: 'L2BRIDGE' }), { id, ...L2BRIDGE });
  t.is(await run(node, 'Get-PlayHnsNetwork', { name: 'nope' }), null);
});

test('HNS host endpoint: attached, its vNIC appears with forwarding set by netsh; detached when removed', async (t) => {
  const node = model(t);
  await run(node, 'New-PlayHnsNetwork', L2BRIDGE);
  const endpoint = { name: 'cbr0', networkName: 'l2bridge', ipAddress: '10.160.11.2', gateway: '0.0.0.0' };
  t.is(
    (await t.throwsAsync(run(node, 'New-PlayHnsEndpoint', { ...endpoint, ipAddress: '10.160.12.2' })))!.message,
    'HNS POST /endpoints failed: The parameter is incorrect.',
  );
  const { id } = await run(node, 'New-PlayHnsEndpoint', endpoint);
  t.regex(
    (await t.throwsAsync(run(node, 'New-PlayHnsEndpoint', { ...endpoint, networkName: 'nonet' })))!.message,
    /there is no HNS network named nonet/,
  );
  const got = { id, ...endpoint, networkName: 'l2bridge', compartmentId: null, forwarding: false };
  t.deepEqual(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), got);
  await run(node, 'Set-PlayHnsEndpointHost', { name: 'cbr0', compartmentId: 1, forwarding: true });
  t.deepEqual(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), { ...got, compartmentId: 1, forwarding: true });
  t.like(
    node.state.adapters.find((a) => a.name === 'vEthernet (cbr0)'),
    { physical: false, ipv4: ['10.160.11.2/24'] },
  );
  await run(node, 'Set-PlayHnsEndpointHost', { name: 'cbr0', compartmentId: 1, forwarding: false });
  t.like(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), { compartmentId: 1, forwarding: false });
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayHnsEndpointHost', { name: 'cbr9', compartmentId: 1, forwarding: true })))!
      .message,
    /there is no HNS endpoint named cbr9/,
  );
  await run(node, 'Remove-PlayHnsEndpoint', { name: 'cbr0' });
  t.is(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), null);
  t.falsy(node.state.adapters.find((a) => a.name === 'vEthernet (cbr0)'));
});

test('HNS host endpoint in another compartment: its vNIC never shows in the host compartment', async (t) => {
  const node = model(t);
  await run(node, 'New-PlayHnsNetwork', L2BRIDGE);
  await run(node, 'New-PlayHnsEndpoint', {
    name: 'cbr0',
    networkName: 'l2bridge',
    ipAddress: '10.160.11.2',
    gateway: '0.0.0.0',
  });
  // The function polls 30 s for the vNIC (a virtual clock: no real wait).
  t.is(
    (await t.throwsAsync(run(node, 'Set-PlayHnsEndpointHost', { name: 'cbr0', compartmentId: 2, forwarding: true })))!
      .message,
    'vEthernet (cbr0) did not appear after attaching the endpoint to compartment 2',
  );
  t.like(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), { compartmentId: null, forwarding: false });
});

test('netsh int ipv4 set int: "Ok." for a host endpoint vNIC, ERROR_INVALID_NAME text and exit 1 for an unknown interface', async (t) => {
  const node = model(t);
  await run(node, 'New-PlayHnsNetwork', L2BRIDGE);
  await run(node, 'New-PlayHnsEndpoint', {
    name: 'cbr0',
    networkName: 'l2bridge',
    ipAddress: '10.160.11.2',
    gateway: '0.0.0.0',
  });
  await run(node, 'Set-PlayHnsEndpointHost', { name: 'cbr0', compartmentId: 1, forwarding: false });
  t.deepEqual(netsh(node, ['int', 'ipv4', 'set', 'int', 'VETHERNET (CBR0)', 'for=en']), {
    code: 0,
    stdout: 'Ok.\r\n\r\n',
  });
  t.true(node.state.hns.endpoints[0]!.forwarding);
  t.deepEqual(
    netsh(node, ['interface', 'ipv4', 'set', 'interface', 'interface=vEthernet (cbr0)', 'forwarding=disabled']),
    {
      code: 0,
      stdout: 'Ok.\r\n\r\n',
    },
  );
  t.false(node.state.hns.endpoints[0]!.forwarding);
  t.deepEqual(netsh(node, ['int', 'ipv4', 'set', 'int', 'vEthernet (cbr9)', 'for=en']), {
    code: 1,
    stdout: 'The filename, directory name, or volume label syntax is incorrect.\r\n\r\n',
  });
  t.throws(() => netsh(node, ['advfirewall', 'set', 'allprofiles', 'state', 'off']), {
    message: /does not model|models only/,
  });
});

test('DNS client: NV Domain in the registry, the suffix search list', async (t) => {
  const node = model(t);
  t.deepEqual(await run(node, 'Get-PlayDnsClient', {}), { primaryDomain: null, suffixSearchList: [] });
  await run(node, 'Set-PlayDnsClient', { primaryDomain: 'mylan.k8s' });
  await run(node, 'Set-PlayDnsClient', { suffixSearchList: ['mylan.k8s'] });
  t.deepEqual(await run(node, 'Get-PlayDnsClient', {}), {
    primaryDomain: 'mylan.k8s',
    suffixSearchList: ['mylan.k8s'],
  });
  t.like(
    await run(node, 'Get-PlayRegistryValue', {
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
  await run(node, 'New-PlayHnsNetwork', L2BRIDGE);
  t.deepEqual(await run(node, 'Get-PlayNetworkCleanup', {}), {
    token: null,
    rebootPending: false,
    hnsNetworks: ['l2bridge'],
    ghostAdapters: [{ instanceId: 'ROOT\\VMS_MP\\0001', friendlyName: 'Hyper-V Virtual Ethernet Adapter #2' }],
  });
  t.deepEqual(
    await run(node, 'Invoke-PlayNetworkCleanup', { token: 't1', removeHnsNetworks: true, removeGhostAdapters: true }),
    { removedNetworks: ['l2bridge'], removedAdapters: ['ROOT\\VMS_MP\\0001'] },
  );
  t.deepEqual(await run(node, 'Get-PlayNetworkCleanup', {}), {
    token: 't1',
    rebootPending: true,
    hnsNetworks: [],
    ghostAdapters: [],
  });
  t.is(node.state.adapters.length, 2, 'the vNIC went with the network');
  t.is(node.state.pnpNetDevices.length, 2, 'the ghost went with its Enum key');
  const up = new Promise<void>((resolve) => node.once('up', () => resolve()));
  await run(node, 'Restart-PlayComputer', { delaySeconds: 0 });
  await up;
  t.like(await run(node, 'Get-PlayNetworkCleanup', {}), { token: 't1', rebootPending: false });
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
