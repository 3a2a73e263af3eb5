// The simulated Windows node's OS (a test double): wusa exit codes, pending changes, the reboot
// cycle that applies them, features, capabilities, Docker, and the state file that outlives the
// simulator.
import { join } from 'node:path';
import test from 'ava';
import { DOWNLOADS } from '../../../lab/windows/defaults.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { model, run, tempDir } from './helpers.js';

const KB4549949 = `${DOWNLOADS}\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu`;
const msu = (kb: string) => `${DOWNLOADS}\\windows10.0-${kb.toLowerCase()}-x64.msu`;

function nextEvent(node: SimulatedWindowsNode, name: 'down' | 'up'): Promise<number> {
  return new Promise((resolve) => node.once(name, () => resolve(Date.now())));
}

test('wusa: 3010 for a new update (pending reboot), 2359302 once installed, 0x80240017 when not applicable or superseded', async (t) => {
  const node = model(t);
  t.deepEqual(await run(node, 'Get-PlayHotfix', { kb: 'KB4549949' }), {
    installed: false,
    installedOn: null,
    wusaExitCode: null,
    msuPresent: null,
  });
  t.like(await run(node, 'Get-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949 }), { msuPresent: true });
  t.like(await run(node, 'Get-PlayHotfix', { kb: 'KB4549949', msuPath: 'C:\\nowhere\\x.msu' }), { msuPresent: false });
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949.toUpperCase() }), {
    exitCode: 3010,
  });
  const info = (await run(node, 'Get-PlayHotfix', { kb: 'kb4549949' })) as {
    installed: boolean;
    installedOn: string;
    wusaExitCode: number;
  };
  t.true(info.installed);
  t.regex(info.installedOn, /^\d{4}-\d{2}-\d{2}$/);
  t.is(info.wusaExitCode, 3010);
  t.like(await run(node, 'Get-PlayOsInfo', {}), { revision: 973, pendingReboot: true });
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949 }), { exitCode: 2359302 });
  // 17763.1098 is older than the pending 1158: superseded. KB4549951 is for 1903.
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4538461', msuPath: msu('KB4538461') }), {
    exitCode: -2145124329,
  });
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4549951', msuPath: msu('KB4549951') }), {
    exitCode: -2145124329,
  });
  t.deepEqual(await run(node, 'Get-PlayHotfix', { kb: 'KB4549951' }), {
    installed: false,
    installedOn: null,
    wusaExitCode: -2145124329,
    msuPresent: null,
  });
  // The KB that brought 17763.973 is already there.
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4534273', msuPath: msu('KB4534273') }), {
    exitCode: 2359302,
  });
  t.is(
    (await t.throwsAsync(run(node, 'Install-PlayHotfix', { kb: 'KB1', msuPath: 'C:\\nowhere\\x.msu' })))!.message,
    'the update package C:\\nowhere\\x.msu does not exist on the host',
  );
  await run(node, 'Set-PlayFile', {
    path: 'C:\\k\\random.msu',
    contentBase64: Buffer.from('not an update').toString('base64'),
    expectedSha256: null,
  });
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB2', msuPath: 'c:/k/RANDOM.msu' }), {
    exitCode: -2147024883,
  });
});

test('a reboot: scheduled, connections dropped and refused for rebootSeconds, back with the pending changes applied and a new boot time', async (t) => {
  const node = model(t);
  const before = (await run(node, 'Get-PlayOsInfo', {})) as { lastBootUpTime: string };
  await run(node, 'Install-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949 });
  t.deepEqual(await run(node, 'Install-PlayWindowsFeature', { name: 'containers' }), { restartNeeded: true });
  t.deepEqual(await run(node, 'Get-PlayWindowsFeature', { name: 'Containers' }), {
    name: 'Containers',
    installState: 'InstallPending',
  });
  t.deepEqual(
    await run(node, 'Install-PlayDockerEngine', { version: '19.03.0' }),
    { restartNeeded: true },
    'Containers is still pending',
  );
  const docker = (await run(node, 'Get-PlayDockerEngine', {})) as { dockerVersion: string; serviceExists: boolean };
  t.true(docker.serviceExists);
  // stdout, then [Environment]::NewLine (CRLF on Windows: the host's shim says so) and stderr, as the
  // steps' function joins them.
  t.regex(
    docker.dockerVersion,
    /^Client: Docker Engine - Enterprise\n Version: +19\.03\.0\n[\s\S]* Experimental: +false\n\r\nerror during connect: .*docker daemon is not running\.\n$/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Set-PlayServiceState', { name: 'docker', action: 'start' })))!.message,
    // The steps' function reports the innermost Win32Exception, not sc.exe's text.
    /^docker cannot start: The process terminated unexpectedly\. \(Win32 error 1067\)$/,
  );

  const drops: number[] = [];
  node.on('drop-connections', () => drops.push(Date.now()));
  const down = nextEvent(node, 'down');
  const up = nextEvent(node, 'up');
  const asked = Date.now();
  // Two seconds out: the second request below (a real PowerShell run) comes while the first is still scheduled.
  t.deepEqual(await run(node, 'Restart-PlayComputer', { delaySeconds: 2 }), { scheduled: true });
  const scheduledFor = node.state.boot.until;
  t.deepEqual(
    await run(node, 'Restart-PlayComputer', { delaySeconds: 600 }),
    { scheduled: true },
    'shutdown.exe 1190 counts as scheduled',
  );
  t.is(node.state.boot.until, scheduledFor, 'the first schedule stands');
  const wentDown = await down;
  t.false(node.isUp);
  t.is(drops.length, 1, 'going down drops every connection');
  const cameUp = await up;
  t.true(cameUp - wentDown >= 190, `away ${cameUp - wentDown} ms`);
  t.log(`reboot: down ${wentDown - asked} ms after the call, away ${cameUp - wentDown} ms`);
  const after = (await run(node, 'Get-PlayOsInfo', {})) as {
    lastBootUpTime: string;
    revision: number;
    pendingReboot: boolean;
  };
  t.regex(after.lastBootUpTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/, "as .ToString('o') writes it");
  t.true(Date.parse(after.lastBootUpTime) > Date.parse(before.lastBootUpTime));
  t.is(after.revision, 1158);
  t.false(after.pendingReboot);
  t.deepEqual(
    await run(node, 'Get-PlayRegistryValue', {
      path: 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion',
      name: 'UBR',
    }),
    { type: 'DWord', data: 1158 },
  );
  t.deepEqual(await run(node, 'Get-PlayWindowsFeature', { name: 'containers' }), {
    name: 'Containers',
    installState: 'Installed',
  });
  const dockerAfter = (await run(node, 'Get-PlayDockerEngine', {})) as { dockerVersion: string };
  t.regex(
    dockerAfter.dockerVersion,
    /\n\nServer: Docker Engine - Enterprise\n Engine:\n {2}Version: +19\.03\.0\n {2}API version: +1\.40 \(minimum version 1\.24\)[\s\S]*false\n$/,
  );
  t.is(node.state.services['docker']!.state, 'Running', 'an Auto service starts at boot');
  // With Containers in place, an upgrade needs no restart and restarts the daemon.
  const pid = node.state.services['docker']!.pid;
  t.deepEqual(await run(node, 'Install-PlayDockerEngine', { version: null }), { restartNeeded: false });
  t.regex(
    ((await run(node, 'Get-PlayDockerEngine', {})) as { dockerVersion: string }).dockerVersion,
    /^Client: Docker Engine - Enterprise\n Version: +19\.03\.5\n/,
  );
  t.not(node.state.services['docker']!.pid, pid);
  t.is(node.state.services['wuauserv']!.state, 'Stopped', 'a Manual one does not');
});

test('the state file outlives the simulator, a reboot in progress included', async (t) => {
  const dir = tempDir(t);
  const first = model(t, undefined, dir);
  await run(first, 'Set-PlayTimeZone', { id: 'china standard time' });
  await run(first, 'Install-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949 });
  first.rebootSeconds = 0.3;
  const down = nextEvent(first, 'down');
  await run(first, 'Restart-PlayComputer', { delaySeconds: 0 });
  await down;
  first.close(); // the simulator dies while the node is down
  const second = SimulatedWindowsNode.open({ name: 'ignored', stateFile: join(dir, 'state.json'), rebootSeconds: 5 });
  t.teardown(() => second.close());
  t.false(second.isUp, 'still rebooting');
  t.is(second.state.os.revision, 1158, 'the update was applied on the way down');
  await nextEvent(second, 'up');
  t.deepEqual(await run(second, 'Get-PlayTimeZone', {}), { id: 'China Standard Time' });
  t.is(second.state.hostname, 'node009');
  t.is(second.state.bootCount, 2);
});

test('features and capabilities: unknown names fail as Windows says; OpenSSH.Server comes with sshd and its firewall rule', async (t) => {
  const node = model(t);
  t.regex(
    (await t.throwsAsync(run(node, 'Install-PlayWindowsFeature', { name: 'Contaners' })))!.message,
    /^ArgumentNotValid: The role, role service, or feature name is not valid: 'Contaners'\. The name was not found\.$/,
  );
  t.is(await run(node, 'Get-PlayWindowsFeature', { name: 'Contaners' }), null);
  t.deepEqual(await run(node, 'Install-PlayWindowsFeature', { name: 'Telnet-Client' }), { restartNeeded: false });
  t.deepEqual(await run(node, 'Get-PlayWindowsCapability', { name: 'OpenSSH.Server~~~~0.0.1.0' }), {
    name: 'OpenSSH.Server~~~~0.0.1.0',
    state: 'NotPresent',
  });
  t.false('sshd' in node.state.services);
  t.deepEqual(await run(node, 'Add-PlayWindowsCapability', { name: 'openssh.server~~~~0.0.1.0' }), {
    restartNeeded: false,
  });
  t.like(await run(node, 'Get-PlayWindowsCapability', { name: 'OpenSSH.Server~~~~0.0.1.0' }), { state: 'Installed' });
  t.like(node.state.services['sshd'], { startMode: 'Manual', state: 'Stopped' });
  t.like(await run(node, 'Get-PlayFirewallRule', { name: 'OpenSSH-Server-In-TCP' }), {
    localPort: '22',
    protocol: 'TCP',
    enabled: true,
  });
  t.regex(
    (await t.throwsAsync(run(node, 'Add-PlayWindowsCapability', { name: 'OpenSSH.Server' })))!.message,
    /0x800f080c/,
  );
  t.regex(
    (await t.throwsAsync(run(node, 'Install-PlayDockerEngine', { version: '99.0' })))!.message,
    /^No match was found for the specified search criteria and package name 'docker'\./,
  );
  t.false(node.pendingReboot);
  // With Containers already installed, a fresh Docker needs no restart: its service starts at once.
  node.state.features['containers']!.installState = 'Installed';
  t.deepEqual(await run(node, 'Install-PlayDockerEngine', { version: null }), { restartNeeded: false });
  t.like(node.state.services['docker'], { state: 'Running', startMode: 'Auto' });
  t.regex(
    ((await run(node, 'Get-PlayDockerEngine', {})) as { dockerVersion: string }).dockerVersion,
    /\nServer: Docker Engine - Enterprise\n/,
  );
  t.false(node.pendingReboot);
});
