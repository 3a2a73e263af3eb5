// The simulated Windows node's configuration surfaces (a test double): files, registry, NTP,
// Windows Update, time zone, firewall, HNS, and the contract check on every call's argument.
import { createHash } from 'node:crypto';
import test from 'ava';
import { call, model } from './helpers.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

test('files: case-insensitive paths, parents created, a guarded write refuses content that changed', (t) => {
  const node = model(t);
  const daemon = 'C:\\ProgramData\\Docker\\config\\daemon.json';
  t.is(call(node, 'Get-PlayFile', { path: daemon, maxBytes: 1000 }), null);
  t.deepEqual(
    call(node, 'Set-PlayFile', { path: daemon, contentBase64: b64('{"bridge":"none"}'), expectedSha256: null }),
    { sha256: sha('{"bridge":"none"}') },
  );
  t.deepEqual(call(node, 'Test-PlayPath', { path: 'c:/programdata/DOCKER/config' }), {
    exists: true,
    isDirectory: true,
  });
  t.deepEqual(call(node, 'Get-PlayFile', { path: 'c:\\programdata\\docker\\CONFIG\\Daemon.json', maxBytes: 1000 }), {
    sha256: sha('{"bridge":"none"}'),
    size: 17,
    contentBase64: b64('{"bridge":"none"}'),
  });
  t.like(call(node, 'Get-PlayFile', { path: daemon, maxBytes: 5 }), { size: 17, contentBase64: null });
  const stale = t.throws(() =>
    call(node, 'Set-PlayFile', { path: daemon, contentBase64: b64('{}'), expectedSha256: null }),
  )!;
  t.is(
    stale.message,
    `${daemon} changed since it was probed (sha256 ${sha('{"bridge":"none"}')}, planned for absent): not overwritten`,
  );
  t.throws(() =>
    call(node, 'Set-PlayFile', { path: daemon, contentBase64: b64('{}'), expectedSha256: sha('something else') }),
  );
  call(node, 'Set-PlayFile', {
    path: daemon,
    contentBase64: b64('{}'),
    expectedSha256: sha('{"bridge":"none"}').toUpperCase(),
  });
  t.like(call(node, 'Get-PlayFile', { path: daemon, maxBytes: 10 }), { contentBase64: b64('{}') });
  t.is(
    t.throws(() => call(node, 'Get-PlayFile', { path: 'C:\\ProgramData', maxBytes: 1 }))!.message,
    'C:\\ProgramData is a directory, not a file',
  );
  t.is(
    t.throws(() => call(node, 'Set-PlayFile', { path: 'c:\\programdata', contentBase64: '', expectedSha256: null }))!
      .message,
    'c:\\programdata exists and is not a file: not replaced',
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayFile', { path: `${daemon}\\x`, contentBase64: '', expectedSha256: null }))!
      .message,
    /Could not find a part of the path/,
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayFile', { path: 'C:\\k\\a|b', contentBase64: '', expectedSha256: null }))!
      .message,
    /Illegal characters in path/,
  );
});

test('registry: values read back as the contract says (DWord unsigned, Binary hex, MultiString a list), keys created', (t) => {
  const node = model(t);
  const key = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';
  call(node, 'Set-PlayRegistryValue', { path: key, name: 'NV Domain', type: 'String', data: 'mylan.k8s' });
  t.deepEqual(
    call(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\system\\currentcontrolset\\services\\tcpip\\parameters',
      name: 'nv domain',
    }),
    { type: 'String', data: 'mylan.k8s' },
  );
  call(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play\\New\\Deep',
    name: 'D',
    type: 'DWord',
    data: 4294967295,
  });
  t.deepEqual(call(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play\\New\\Deep', name: 'D' }), {
    type: 'DWord',
    data: 4294967295,
  });
  t.regex(
    t.throws(() =>
      call(node, 'Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'D', type: 'DWord', data: -1 }),
    )!.message,
    /Cannot convert value "-1" to type "System.UInt32". Error: "Value was either too large or too small for a UInt32."/,
  );
  // The steps' functions take HKLM:\ and friends only, as written.
  t.is(
    t.throws(() => call(node, 'Get-PlayRegistryValue', { path: 'HKEY_LOCAL_MACHINE\\SOFTWARE', name: 'x' }))!.message,
    'not a registry path: HKEY_LOCAL_MACHINE\\SOFTWARE',
  );
  t.throws(() => call(node, 'Get-PlayRegistryValue', { path: 'hklm:\\SOFTWARE', name: 'x' }), {
    message: /^not a registry path/,
  });
  t.deepEqual(call(node, 'Test-PlayPath', { path: 'HKLM:\\SOFTWARE\\Play\\New' }), { exists: true, isDirectory: true });
  call(node, 'Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'B', type: 'Binary', data: '00FF10' });
  t.deepEqual(call(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'B' }), {
    type: 'Binary',
    data: '00ff10',
  });
  call(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play',
    name: 'M',
    type: 'MultiString',
    data: ['a', 'b c'],
  });
  t.deepEqual(call(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'M' }), {
    type: 'MultiString',
    data: ['a', 'b c'],
  });
  t.regex(
    t.throws(() =>
      call(node, 'Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'X', type: 'DWord', data: 'many' }),
    )!.message,
    /Cannot convert value "many" to type "System.UInt32"/,
  );
  t.deepEqual(call(node, 'Test-PlayPath', { path: 'HKXX:\\SOFTWARE' }), { exists: false, isDirectory: false });
  t.is(call(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'absent' }), null);
});

test('NTP and Windows Update live where Windows keeps them; W32Time ends automatic and running, wuauserv is cycled', (t) => {
  const node = model(t);
  t.deepEqual(call(node, 'Get-PlayNtp', {}), {
    servers: ['time.windows.com', 'time-nw.nist.gov', 'time-a.nist.gov', 'time-b.nist.gov', 'time.nist.gov'],
    defaultIndex: '1',
    manualPeerList: 'time.windows.com,0x9',
    syncFromFlags: 'NTP',
    w32timeStartMode: 'Manual',
  });
  call(node, 'Set-PlayServiceState', { name: 'W32Time', action: 'stop' });
  call(node, 'Set-PlayNtp', { servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'] });
  t.deepEqual(call(node, 'Get-PlayNtp', {}), {
    servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'],
    defaultIndex: '1',
    manualPeerList: 'ntp1.mylan.k8s ntp2.mylan.k8s',
    syncFromFlags: 'NTP',
    w32timeStartMode: 'Auto',
  });
  t.is(node.state.services['w32time']!.state, 'Running');
  t.deepEqual(
    call(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers',
      name: '2',
    }),
    { type: 'String', data: 'ntp2.mylan.k8s' },
  );
  t.is(
    call(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers',
      name: '3',
    }),
    null,
    'extra numbered values are removed',
  );
  t.deepEqual(call(node, 'Get-PlayAutoUpdate', {}), { noAutoUpdate: null, auOptions: null });
  call(node, 'Set-PlayAutoUpdate', { enabled: false });
  t.deepEqual(call(node, 'Get-PlayAutoUpdate', {}), { noAutoUpdate: 1, auOptions: null });
  t.is(node.state.services['wuauserv']!.state, 'Running', 'net start wuauserv');
  t.regex(
    t.throws(() => call(node, 'Set-PlayTimeZone', { id: 'Mars Standard Time' }))!.message,
    /^The time zone ID 'Mars Standard Time' was not found on the local computer\.$/,
  );
  call(node, 'Set-PlayService', { name: 'wuauserv', create: false, startMode: 'Disabled' });
  t.regex(t.throws(() => call(node, 'Set-PlayAutoUpdate', { enabled: true }))!.message, /FAILED 1058/);
});

test('firewall rules: created, updated, checked like New-NetFirewallRule checks them', (t) => {
  const node = model(t);
  const rule = {
    name: 'kubelet-10250',
    displayName: 'kubelet',
    enabled: true,
    direction: 'Inbound' as const,
    protocol: 'TCP',
    localPort: '10250,30000-32767',
    action: 'Allow' as const,
  };
  t.is(call(node, 'Get-PlayFirewallRule', { name: 'kubelet-10250' }), null);
  call(node, 'Set-PlayFirewallRule', rule);
  t.deepEqual(call(node, 'Get-PlayFirewallRule', { name: 'KUBELET-10250' }), rule);
  call(node, 'Set-PlayFirewallRule', { ...rule, name: 'KUBELET-10250', enabled: false });
  t.deepEqual(
    call(node, 'Get-PlayFirewallRule', { name: 'kubelet-10250' }),
    { ...rule, enabled: false },
    'the name keeps its first spelling',
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayFirewallRule', { ...rule, localPort: '70000' }))!.message,
    /^The port is invalid/,
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayFirewallRule', { ...rule, protocol: 'ICMPv4' }))!.message,
    /^The port is invalid/,
  );
  t.regex(
    t.throws(() => call(node, 'Set-PlayFirewallRule', { ...rule, protocol: 'SCTPX' }))!.message,
    /^The protocol is invalid/,
  );
});

test('HNS: the L2Bridge network drops every connection once as it is created; endpoints attach to a compartment', (t) => {
  const node = model(t);
  let drops = 0;
  node.on('drop-connections', () => drops++);
  const net = {
    name: 'l2bridge',
    type: 'L2Bridge' as const,
    addressPrefix: '10.160.11.0/24',
    gateway: '10.160.11.1',
    adapterName: 'eth1',
  };
  t.is(call(node, 'Get-PlayHnsNetwork', { name: 'l2bridge' }), null);
  const { id } = call(node, 'New-PlayHnsNetwork', net) as { id: string };
  t.regex(id, /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
  t.is(drops, 1);
  t.deepEqual(call(node, 'Get-PlayHnsNetwork', { name: 'L2BRIDGE' }), { id, ...net });
  t.is(
    t.throws(() => call(node, 'New-PlayHnsNetwork', net))!.message,
    'HNS POST /networks failed: The object already exists.',
  );
  t.regex(
    t.throws(() => call(node, 'New-PlayHnsNetwork', { ...net, name: 'x', adapterName: 'eth9' }))!.message,
    /Element not found/,
  );
  t.regex(
    t.throws(() => call(node, 'New-PlayHnsNetwork', { ...net, name: 'x', adapterName: 'eth0', gateway: '10.1.1.1' }))!
      .message,
    /The parameter is incorrect/,
  );
  t.is(drops, 1, 'failed creations do not blink the NIC');
  const ep = call(node, 'New-PlayHnsEndpoint', {
    name: 'cbr0',
    networkName: 'l2bridge',
    ipAddress: '10.160.11.2',
    gateway: '0.0.0.0',
  }) as { id: string };
  t.like(call(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), { id: ep.id, compartmentId: null, forwarding: false });
  t.regex(
    t.throws(() =>
      call(node, 'New-PlayHnsEndpoint', {
        name: 'cbr1',
        networkName: 'l2bridge',
        ipAddress: '10.99.0.2',
        gateway: '0.0.0.0',
      }),
    )!.message,
    /The parameter is incorrect/,
  );
  t.is(
    t.throws(() =>
      call(node, 'New-PlayHnsEndpoint', {
        name: 'cbr1',
        networkName: 'nat',
        ipAddress: '10.99.0.2',
        gateway: '0.0.0.0',
      }),
    )!.message,
    'there is no HNS network named nat',
  );
  call(node, 'Set-PlayHnsEndpointHost', { name: 'cbr0', compartmentId: 1, forwarding: true });
  t.like(call(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), { compartmentId: 1, forwarding: true });
  call(node, 'Remove-PlayHnsNetwork', { name: 'l2bridge' });
  t.is(call(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), null, 'the network takes its endpoints with it');
  t.deepEqual(call(node, 'Remove-PlayHnsNetwork', { name: 'l2bridge' }), {});
});

test('every argument is checked against the contract: missing, mistyped and unknown fields are named', (t) => {
  const node = model(t);
  t.regex(
    t.throws(() => node.call('Get-PlayFile', { path: 'C:\\x' }))!.message,
    /^Get-PlayFile: argument 'maxBytes' must be number, got nothing/,
  );
  t.regex(
    t.throws(() => node.call('Set-PlayServiceState', { name: 'x', action: 'pause' }))!.message,
    /argument 'action' must be one of start,stop,restart, got "pause"/,
  );
  t.regex(
    t.throws(() => node.call('Get-PlayHotfix', { kb: 'KB1', id: 2 }))!.message,
    /argument 'id' must be absent \(the contract has: kb, msuPath\)/,
  );
  t.regex(t.throws(() => node.call('Get-PlayOsInfo', null))!.message, /must be an object/);
  t.is(
    t.throws(() => node.call('Get-PlayNothing', {}))!.message.split('.')[0],
    "The term 'Get-PlayNothing' is not recognized as the name of a cmdlet, function, script file, or operable program",
  );
  t.like(node.call('get-playosinfo', {}), { build: 17763 }, 'PowerShell resolves names case-insensitively');
});
