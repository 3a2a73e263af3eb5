// The simulated Windows node's configuration surfaces (a test double under our real PowerShell):
// files, registry, NTP, Windows Update, time zone, DNS client, firewall, HNS, and how PowerShell
// finds the functions. The surface beneath (item cmdlets, derived keys, w32tm): model-surface.test.ts.
import { createHash } from 'node:crypto';
import test from 'ava';
import { callNode } from '../../../lab/windows/powershell/call.js';
import { psCall } from '../../../runner/core/ps-call.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import { model, run } from './helpers.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

test('files: case-insensitive paths, parents created, a guarded write refuses content that changed', async (t) => {
  const node = model(t);
  const daemon = 'C:\\ProgramData\\Docker\\config\\daemon.json';
  t.is(await run(node, 'Get-PlayFile', { path: daemon, maxBytes: 1000 }), null);
  t.deepEqual(
    await run(node, 'Set-PlayFile', { path: daemon, contentBase64: b64('{"bridge":"none"}'), expectedSha256: null }),
    { sha256: sha('{"bridge":"none"}') },
  );
  t.deepEqual(await run(node, 'Test-PlayPath', { path: 'c:/programdata/DOCKER/config' }), {
    exists: true,
    isDirectory: true,
  });
  t.deepEqual(
    await run(node, 'Get-PlayFile', { path: 'c:\\programdata\\docker\\CONFIG\\Daemon.json', maxBytes: 1000 }),
    {
      sha256: sha('{"bridge":"none"}'),
      size: 17,
      contentBase64: b64('{"bridge":"none"}'),
    },
  );
  t.like(await run(node, 'Get-PlayFile', { path: daemon, maxBytes: 5 }), { size: 17, contentBase64: null });
  const stale = await t.throwsAsync(
    run(node, 'Set-PlayFile', { path: daemon, contentBase64: b64('{}'), expectedSha256: null }),
  );
  t.is(
    stale.message,
    `${daemon} changed since it was probed (sha256 ${sha('{"bridge":"none"}')}, planned for absent): not overwritten`,
  );
  await t.throwsAsync(
    run(node, 'Set-PlayFile', { path: daemon, contentBase64: b64('{}'), expectedSha256: sha('something else') }),
  );
  await run(node, 'Set-PlayFile', {
    path: daemon,
    contentBase64: b64('{}'),
    expectedSha256: sha('{"bridge":"none"}').toUpperCase(),
  });
  t.like(await run(node, 'Get-PlayFile', { path: daemon, maxBytes: 10 }), { contentBase64: b64('{}') });
  t.is(
    (await t.throwsAsync(run(node, 'Get-PlayFile', { path: 'C:\\ProgramData', maxBytes: 1 }))).message,
    'C:\\ProgramData is a directory, not a file',
  );
  t.is(
    (
      await t.throwsAsync(
        run(node, 'Set-PlayFile', { path: 'c:\\programdata', contentBase64: '', expectedSha256: null }),
      )
    ).message,
    'c:\\programdata exists and is not a file: not replaced',
  );
  // The temp file next to a file-as-directory cannot be written: .NET's text, wrapped by the method call.
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayFile', { path: `${daemon}\\x`, contentBase64: '', expectedSha256: null })))
      .message,
    /^Exception calling "WriteAllBytes" with "2" argument\(s\): "Could not find a part of the path/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayFile', { path: 'C:\\k\\a|b', contentBase64: '', expectedSha256: null })))
      .message,
    /Illegal characters in path/,
  );
  t.deepEqual(
    Object.keys(node.state.files).filter((k) => k.includes('.play-')),
    [],
    'no temp file is left behind, not even by a failed move',
  );
});

test('files: a drive the node lacks, and a missing parent directory made on write', async (t) => {
  const node = model(t);
  t.is(
    (await t.throwsAsync(run(node, 'Set-PlayFile', { path: 'D:\\x.txt', contentBase64: '', expectedSha256: null })))
      .message,
    "Cannot find drive. A drive with the name 'D' does not exist.",
  );
  t.deepEqual(await run(node, 'Test-PlayPath', { path: 'D:\\' }), { exists: false, isDirectory: false });
  await run(node, 'Set-PlayFile', { path: 'C:\\k\\deep\\er\\f.txt', contentBase64: b64('x'), expectedSha256: null });
  t.deepEqual(await run(node, 'Test-PlayPath', { path: 'C:\\k\\deep\\er' }), { exists: true, isDirectory: true });
  t.deepEqual(await run(node, 'Test-PlayPath', { path: 'C:\\k\\deep\\er\\F.TXT' }), {
    exists: true,
    isDirectory: false,
  });
});

// Long because it is a table: every registry value kind written and read back.
test('registry: values read back as the contract says (DWord unsigned, Binary hex, MultiString a list), keys created', async (t) => {
  const node = model(t);
  const key = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';
  await run(node, 'Set-PlayRegistryValue', { path: key, name: 'NV Domain', type: 'String', data: 'mylan.k8s' });
  t.deepEqual(
    await run(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\system\\currentcontrolset\\services\\tcpip\\parameters',
      name: 'nv domain',
    }),
    { type: 'String', data: 'mylan.k8s' },
  );
  await run(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play\\New\\Deep',
    name: 'D',
    type: 'DWord',
    data: 4294967295,
  });
  t.deepEqual(await run(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play\\New\\Deep', name: 'D' }), {
    type: 'DWord',
    data: 4294967295,
  });
  t.regex(
    (
      await t.throwsAsync(
        run(node, 'Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'D', type: 'DWord', data: -1 }),
      )
    ).message,
    /Cannot convert value "-1" to type "System.UInt32". Error: "Value was either too large or too small for a UInt32."/,
  );
  // The steps' functions take HKLM:\ and friends only, as written.
  t.is(
    (await t.throwsAsync(run(node, 'Get-PlayRegistryValue', { path: 'HKEY_LOCAL_MACHINE\\SOFTWARE', name: 'x' })))
      .message,
    'not a registry path: HKEY_LOCAL_MACHINE\\SOFTWARE',
  );
  await t.throwsAsync(run(node, 'Get-PlayRegistryValue', { path: 'hklm:\\SOFTWARE', name: 'x' }), {
    message: /^not a registry path/,
  });
  t.deepEqual(await run(node, 'Test-PlayPath', { path: 'HKLM:\\SOFTWARE\\Play\\New' }), {
    exists: true,
    isDirectory: true,
  });
  await run(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play',
    name: 'B',
    type: 'Binary',
    data: '00FF10',
  });
  t.deepEqual(await run(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'B' }), {
    type: 'Binary',
    data: '00ff10',
  });
  await run(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play',
    name: 'M',
    type: 'MultiString',
    data: ['a', 'b c'],
  });
  t.deepEqual(await run(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'M' }), {
    type: 'MultiString',
    data: ['a', 'b c'],
  });
  t.regex(
    (
      await t.throwsAsync(
        run(node, 'Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'X', type: 'DWord', data: 'many' }),
      )
    ).message,
    /Cannot convert value "many" to type "System.UInt32"/,
  );
  t.deepEqual(await run(node, 'Test-PlayPath', { path: 'HKXX:\\SOFTWARE' }), { exists: false, isDirectory: false });
  t.is(await run(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'absent' }), null);
  // ExpandString is kept unexpanded (DoNotExpandEnvironmentNames); (default) is the key's default value.
  await run(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play',
    name: 'E',
    type: 'ExpandString',
    data: '%SystemRoot%\\k',
  });
  t.deepEqual(await run(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: 'E' }), {
    type: 'ExpandString',
    data: '%SystemRoot%\\k',
  });
  await run(node, 'Set-PlayRegistryValue', {
    path: 'HKLM:\\SOFTWARE\\Play',
    name: '(default)',
    type: 'String',
    data: 'd',
  });
  t.deepEqual(await run(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: '(default)' }), {
    type: 'String',
    data: 'd',
  });
});

test('NTP and Windows Update live where Windows keeps them; W32Time ends automatic and running, wuauserv is cycled', async (t) => {
  const node = model(t);
  t.deepEqual(await run(node, 'Get-PlayNtp', {}), {
    servers: ['time.windows.com', 'time-nw.nist.gov', 'time-a.nist.gov', 'time-b.nist.gov', 'time.nist.gov'],
    defaultIndex: '1',
    manualPeerList: 'time.windows.com,0x9',
    syncFromFlags: 'NTP',
    w32timeStartMode: 'Manual',
    w32timeRunning: true,
  });
  await run(node, 'Set-PlayServiceState', { name: 'W32Time', action: 'stop' });
  await run(node, 'Set-PlayNtp', { servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'] });
  t.deepEqual(await run(node, 'Get-PlayNtp', {}), {
    servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'],
    defaultIndex: '1',
    manualPeerList: 'ntp1.mylan.k8s ntp2.mylan.k8s',
    syncFromFlags: 'NTP',
    w32timeStartMode: 'Auto',
    w32timeRunning: true,
  });
  t.is(node.state.services['w32time']!.state, 'Running');
  t.deepEqual(
    await run(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers',
      name: '2',
    }),
    { type: 'String', data: 'ntp2.mylan.k8s' },
  );
  t.is(
    await run(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers',
      name: '3',
    }),
    null,
    'extra numbered values are removed',
  );
  t.deepEqual(await run(node, 'Get-PlayAutoUpdate', {}), { noAutoUpdate: null, auOptions: null });
  await run(node, 'Set-PlayAutoUpdate', { enabled: false });
  t.deepEqual(await run(node, 'Get-PlayAutoUpdate', {}), { noAutoUpdate: 1, auOptions: null });
  t.is(node.state.services['wuauserv']!.state, 'Running', 'net start wuauserv');
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayTimeZone', { id: 'Mars Standard Time' }))).message,
    /^The time zone ID 'Mars Standard Time' was not found on the local computer\.$/,
  );
  await run(node, 'Set-PlayTimeZone', { id: 'china standard time' });
  t.deepEqual(await run(node, 'Get-PlayTimeZone', {}), { id: 'China Standard Time' });
});

// Start-Service's non-terminating error stops the function ($ErrorActionPreference Stop); the
// message is Start-Service's own (the old simulator answered with sc.exe's "FAILED 1058" text).
test('Set-PlayAutoUpdate fails when wuauserv is disabled, after writing NoAutoUpdate', async (t) => {
  const node = model(t);
  await run(node, 'Set-PlayService', { name: 'wuauserv', create: false, startMode: 'Disabled' });
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayAutoUpdate', { enabled: true }))).message,
    /^Service 'Windows Update \(wuauserv\)' cannot be started due to the following error: /,
  );
  t.is(node.state.services['wuauserv']!.state, 'Stopped');
  t.deepEqual(await run(node, 'Get-PlayAutoUpdate', {}), { noAutoUpdate: 0, auOptions: null });
});

test('DNS client: NV Domain in the registry, the suffix search list through Set-DnsClientGlobalSetting', async (t) => {
  const node = model(t);
  t.deepEqual(await run(node, 'Get-PlayDnsClient', {}), { primaryDomain: null, suffixSearchList: [] });
  await run(node, 'Set-PlayDnsClient', { primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s', 'k8s'] });
  t.deepEqual(await run(node, 'Get-PlayDnsClient', {}), {
    primaryDomain: 'mylan.k8s',
    suffixSearchList: ['mylan.k8s', 'k8s'],
  });
  t.deepEqual(node.state.dnsSuffixSearchList, ['mylan.k8s', 'k8s']);
  await run(node, 'Set-PlayDnsClient', { suffixSearchList: [] });
  t.deepEqual(await run(node, 'Get-PlayDnsClient', {}), { primaryDomain: 'mylan.k8s', suffixSearchList: [] });
});

test('firewall rules: created, updated, checked like New-NetFirewallRule checks them', async (t) => {
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
  t.is(await run(node, 'Get-PlayFirewallRule', { name: 'kubelet-10250' }), null);
  await run(node, 'Set-PlayFirewallRule', rule);
  t.deepEqual(await run(node, 'Get-PlayFirewallRule', { name: 'KUBELET-10250' }), rule);
  await run(node, 'Set-PlayFirewallRule', { ...rule, name: 'KUBELET-10250', enabled: false });
  t.deepEqual(
    await run(node, 'Get-PlayFirewallRule', { name: 'kubelet-10250' }),
    { ...rule, enabled: false },
    'the name keeps its first spelling',
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayFirewallRule', { ...rule, localPort: '70000' }))).message,
    /^The port is invalid/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayFirewallRule', { ...rule, protocol: 'ICMPv4' }))).message,
    /^The port is invalid/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayFirewallRule', { ...rule, protocol: 'SCTPX' }))).message,
    /^The protocol is invalid/,
  );
});

// Long because it is one HNS scenario in order (network, drop, endpoint, compartment) on one simulated node.
test('HNS: the L2Bridge network drops every connection once as it is created; endpoints attach to a compartment', async (t) => {
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
  t.is(await run(node, 'Get-PlayHnsNetwork', { name: 'l2bridge' }), null);
  const { id } = (await run(node, 'New-PlayHnsNetwork', net)) as { id: string };
  t.regex(id, /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/);
  t.is(drops, 1);
  t.deepEqual(await run(node, 'Get-PlayHnsNetwork', { name: 'L2BRIDGE' }), { id, ...net });
  t.is(
    (await t.throwsAsync(run(node, 'New-PlayHnsNetwork', net))).message,
    'HNS POST /networks failed: The object already exists.',
  );
  t.regex(
    (await t.throwsAsync(run(node, 'New-PlayHnsNetwork', { ...net, name: 'x', adapterName: 'eth9' }))).message,
    /Element not found/,
  );
  t.regex(
    (
      await t.throwsAsync(
        run(node, 'New-PlayHnsNetwork', { ...net, name: 'x', adapterName: 'eth0', gateway: '10.1.1.1' }),
      )
    ).message,
    /The parameter is incorrect/,
  );
  t.is(drops, 1, 'failed creations do not blink the NIC');
  const ep = (await run(node, 'New-PlayHnsEndpoint', {
    name: 'cbr0',
    networkName: 'l2bridge',
    ipAddress: '10.160.11.2',
    gateway: '0.0.0.0',
  })) as { id: string };
  t.like(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), {
    id: ep.id,
    compartmentId: null,
    forwarding: false,
  });
  t.regex(
    (
      await t.throwsAsync(
        run(node, 'New-PlayHnsEndpoint', {
          name: 'cbr1',
          networkName: 'l2bridge',
          ipAddress: '10.99.0.2',
          gateway: '0.0.0.0',
        }),
      )
    ).message,
    /The parameter is incorrect/,
  );
  t.is(
    (
      await t.throwsAsync(
        run(node, 'New-PlayHnsEndpoint', {
          name: 'cbr1',
          networkName: 'nat',
          ipAddress: '10.99.0.2',
          gateway: '0.0.0.0',
        }),
      )
    ).message,
    'there is no HNS network named nat',
  );
  await run(node, 'Set-PlayHnsEndpointHost', { name: 'cbr0', compartmentId: 1, forwarding: true });
  t.like(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), { compartmentId: 1, forwarding: true });
  await run(node, 'Remove-PlayHnsNetwork', { name: 'l2bridge' });
  t.is(await run(node, 'Get-PlayHnsEndpoint', { name: 'cbr0' }), null, 'the network takes its endpoints with it');
  t.deepEqual(await run(node, 'Remove-PlayHnsNetwork', { name: 'l2bridge' }), {});
});

// The contract is checked when the calls are compiled (ArgsOf of tasks/windows/remote/contract.ts); on the
// node, PowerShell resolves the function names as Windows does.
test('the contract is a compile-time check; PowerShell resolves names case-insensitively and names a missing one', async (t) => {
  const node = model(t);
  // @ts-expect-error maxBytes is required by the contract
  void (() => run(node, 'Get-PlayFile', { path: 'C:\\x' }));
  // @ts-expect-error 'pause' is not an action of the contract
  void (() => run(node, 'Set-PlayServiceState', { name: 'x', action: 'pause' }));
  // @ts-expect-error id is not an argument of Get-PlayHotfix
  void (() => run(node, 'Get-PlayHotfix', { kb: 'KB1', id: 2 }));
  const [missing] = await callNode(node, [psCall({ name: 'Get-PlayNothing', definition: '' }, {})]);
  t.like(missing, { ok: false });
  // Windows PowerShell 5.1 says "as the name of ... or operable program"; the engine under the node (7.x) words it
  // "as a name of ... or executable program".
  t.regex(
    (missing as { error: string }).error,
    /^The term 'Get-PlayNothing' is not recognized as (the|a) name of a cmdlet, function, script file, or (operable|executable) program/,
  );
  const lower = { name: 'get-playosinfo', definition: PLAY_FUNCTIONS['Get-PlayOsInfo'].definition };
  const [info] = await callNode(node, [psCall(lower, {})]);
  t.like(info, { ok: true, value: { build: 17763 } }, 'PowerShell resolves names case-insensitively');
});
