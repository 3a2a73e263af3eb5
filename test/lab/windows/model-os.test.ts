// The simulated Windows node's OS (a test double): hotfixes through expand.exe and DISM (and wusa
// refusing an SSH session), pending changes, the reboot cycle that applies them, features,
// capabilities, Docker, and the state file that outlives the simulator.
import { join } from 'node:path';
import test from 'ava';
import { DOWNLOADS } from '../../../lab/windows/defaults.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { surfaceOf } from '../../../lab/windows/surface/index.js';
import { INVOKE_NATIVE } from '../../../tasks/windows/remote/ps-native.js';
import { model, run, tempDir } from './helpers.js';

const KB4549949 = `${DOWNLOADS}\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu`;
const msu = (kb: string) => `${DOWNLOADS}\\windows10.0-${kb.toLowerCase()}-x64.msu`;

function nextEvent(node: SimulatedWindowsNode, name: 'down' | 'up'): Promise<number> {
  return new Promise((resolve) => node.once(name, () => resolve(Date.now())));
}

/** Runs a PowerShell script on the node (with Invoke-Native defined); its exit code and stdout. */
async function script(node: SimulatedWindowsNode, text: string): Promise<{ exitCode: number; stdout: string }> {
  const host = await sharedPowerShellHost();
  const out = await host.run(
    { script: `& {\n$ErrorActionPreference = 'Stop'\n${INVOKE_NATIVE}\n${text}\n}` },
    surfaceOf(node),
  );
  return { exitCode: out.exitCode, stdout: out.stdout };
}

test('DISM: 3010 for a new update (pending reboot, and again while it pends), 0x800f081e when not applicable or superseded, 0 once installed', async (t) => {
  const node = model(t);
  t.deepEqual(await run(node, 'Get-PlayHotfix', { kb: 'KB4549949' }), {
    installed: false,
    installedOn: null,
    dismExitCode: null,
    msuPresent: null,
  });
  t.like(await run(node, 'Get-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949 }), { msuPresent: true });
  t.like(await run(node, 'Get-PlayHotfix', { kb: 'KB4549949', msuPath: 'C:\\nowhere\\x.msu' }), { msuPresent: false });
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949.toUpperCase() }), {
    exitCode: 3010,
    output: '',
    packageName: 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1158.1.7',
  });
  const info = (await run(node, 'Get-PlayHotfix', { kb: 'kb4549949' })) as {
    installed: boolean;
    installedOn: string;
    dismExitCode: number;
  };
  t.true(info.installed);
  t.regex(info.installedOn, /^\d{4}-\d{2}-\d{2}$/);
  t.is(info.dismExitCode, 3010);
  t.like(await run(node, 'Get-PlayOsInfo', {}), { revision: 973, pendingReboot: true });
  t.like(await run(node, 'Install-PlayHotfix', { kb: 'KB4549949', msuPath: KB4549949 }), { exitCode: 3010 });
  // 17763.1098 is older than the pending 1158: superseded. KB4549951 is for 1903. DISM's own text comes back.
  const notApplicable = {
    exitCode: -2146498530,
    output:
      'Error: 0x800f081e\r\n\r\nThe specified package is not applicable to this image.\r\n\r\n' +
      'The DISM log file can be found at C:\\Windows\\Logs\\DISM\\dism.log',
    packageName: null,
  };
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4538461', msuPath: msu('KB4538461') }), notApplicable);
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4549951', msuPath: msu('KB4549951') }), notApplicable);
  t.deepEqual(await run(node, 'Get-PlayHotfix', { kb: 'KB4549951' }), {
    installed: false,
    installedOn: null,
    dismExitCode: -2146498530,
    msuPresent: null,
  });
  // The KB that brought 17763.973 is already there: DISM exits 0 and, with /quiet, says nothing.
  t.deepEqual(await run(node, 'Install-PlayHotfix', { kb: 'KB4534273', msuPath: msu('KB4534273') }), {
    exitCode: 0,
    output: '',
    packageName: 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.973.1.7',
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
  t.is(
    (await t.throwsAsync(run(node, 'Install-PlayHotfix', { kb: 'KB2', msuPath: 'c:/k/RANDOM.msu' })))!.message,
    'c:/k/RANDOM.msu does not hold the update KB2: expand.exe extracted no Windows10.0-KB2-x64.cab',
  );
  // Every run extracted into its own directory under $env:TEMP and removed it.
  const temp = (k: string) => k.startsWith('c:\\users\\administrator\\appdata\\local\\temp\\');
  t.deepEqual([...Object.keys(node.state.files), ...Object.keys(node.state.directories)].filter(temp), []);
});

test('wusa refuses an SSH session with 0x80070005 and prints nothing; expand.exe and dism.exe print as Windows does', async (t) => {
  const node = model(t);
  // What Install-PlayHotfix sent before DISM: it fails on the simulated node as on a real one.
  const old = await script(
    node,
    `$p = Start-Process -FilePath 'C:\\Windows\\System32\\wusa.exe' -ArgumentList ('"{0}" /quiet /norestart' -f '${KB4549949}') -Wait -PassThru -NoNewWindow
    $p.ExitCode`,
  );
  t.deepEqual(old, { exitCode: 0, stdout: '-2147024891\r\n' });
  t.deepEqual(node.state.pending, []);

  const dir = 'C:\\Windows\\Temp\\x';
  await run(node, 'Set-PlayFile', { path: `${dir}\\keep`, contentBase64: '', expectedSha256: null });
  const native = (exe: string, args: string[]) =>
    script(
      node,
      `$r = Invoke-Native -FilePath 'C:\\Windows\\System32\\${exe}' -ArgumentList @(${args.map((a) => `'${a}'`).join(', ')})
      [string]$r.Code
      $r.Out`,
    );
  const expanded = await native('expand.exe', ['-F:*', KB4549949, dir]);
  t.is(
    expanded.stdout,
    '0\r\nMicrosoft (R) File Expansion Utility\r\nCopyright (c) Microsoft Corporation. All rights reserved.\r\n\r\n' +
      `Adding ${dir}\\WSUSSCAN.cab to Extraction Queue\r\nAdding ${dir}\\Windows10.0-KB4549949-x64.cab to Extraction Queue\r\n` +
      `Adding ${dir}\\Windows10.0-KB4549949-x64-pkgProperties.txt to Extraction Queue\r\n` +
      `Adding ${dir}\\Windows10.0-KB4549949-x64.xml to Extraction Queue\r\n\r\nExpanding Files ....\r\n\r\n` +
      'Expanding Files Complete ...\r\n4 files total.\r\n\r\n',
  );
  t.regex(
    (await native('expand.exe', ['-F:*', 'C:\\no.msu', dir])).stdout,
    /^1\r\n[\s\S]*Can't open input file: C:\\no\.msu\.\r\n/,
  );
  // WSUSSCAN.cab is not a package (DISM given the whole directory trips on it the same way).
  t.regex(
    (await native('dism.exe', ['/online', '/add-package', `/packagepath:${dir}\\WSUSSCAN.cab`, '/quiet', '/norestart']))
      .stdout,
    /^-2147024894\r\nAn error occurred trying to open - C:\\Windows\\Temp\\x\\WSUSSCAN\.cab Error: 0x80070002\r\n/,
  );
  const added = await native('dism.exe', [
    '/online',
    '/add-package',
    `/packagepath:${dir}\\Windows10.0-KB4549949-x64.cab`,
    '/norestart',
  ]);
  t.regex(
    added.stdout,
    /^3010\r\n\r\nDeployment Image Servicing and Management tool\r\n[\s\S]*Image Version: 10\.0\.17763\.973\r\n/,
  );
  t.regex(added.stdout, /The operation completed successfully\.\r\nRestart Windows to complete this operation\.\r\n/);
  node.state.failDism = -2146498270;
  t.regex(
    (
      await native('dism.exe', [
        '/online',
        '/add-package',
        `/packagepath:${dir}\\Windows10.0-KB4549949-x64.cab`,
        '/quiet',
        '/norestart',
      ])
    ).stdout,
    /^-2146498270\r\nError: 0x800f0922\r\n\r\nDISM failed\. No operation was performed\./,
  );
});

// Long because it is one reboot followed through every phase, in order, on one simulated node.
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
